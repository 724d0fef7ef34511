import { baseURL } from '../playwright.config';
import { signUp } from './support/actions';
import { pick, postLead, sourceTo, stateOf } from './support/flow';
import { texts, uniqueLogin } from './support/locales';
import { expect, test } from './support/test';
import { UUID, urlMatching } from './support/url';

// The "done when" in the browser: connect the CRM through its OAuth (the emulators the
// end-to-end server runs with EMULATORS=true), send a website lead to it, and find it in the CRM
// once, with its contact (amoCRM, Uspacy) or person (Pipedrive) and the pipeline or funnel chosen on screen.
const t = texts.en;
const c = t.crm;

interface Emulators {
  amocrm: { url: string };
  pipedrive: { url: string };
  uspacy: { url: string; email: string; password: string; webhookUrl: string };
}
let emulators: Emulators;
test.beforeAll(async ({ request }) => {
  emulators = await (await request.get(`${baseURL}/api/emulators`)).json();
});

test('a website lead lands in amoCRM once, with its contact, in the pipeline chosen on screen', async ({ page }) => {
  await signUp(page, 'en', uniqueLogin('amo'), 'Secret123', '/admin/integrations/amocrm');
  await page.getByRole('button', { name: t.amocrm.list.connect }).first().click();
  const dialog = page.getByRole('dialog');
  await dialog.getByLabel(c.create.name).fill('Sales amoCRM');
  await dialog.getByRole('button', { name: c.create.go.replace('{{crm}}', 'amoCRM') }).click();

  // amoCRM's consent (the emulator) sends the browser back to the integration, connected.
  await expect(page).toHaveURL(urlMatching(`/en/admin/integrations/amocrm/${UUID}`), { timeout: 15_000 });
  await expect(page.getByText(c.connection.connected, { exact: true }).first()).toBeVisible();

  await page.getByRole('tab', { name: t.amocrm.tabs.pipeline }).click();
  await pick(page, t.amocrm.settings.pipeline, 'Wholesale');
  await pick(page, t.amocrm.settings.status, 'New order');
  await page.getByRole('button', { name: c.save, exact: true }).first().click();
  await expect(page.getByText(c.ui.saved_success)).toBeVisible();

  const hookUrl = await sourceTo(page, 'Sales amoCRM');
  await postLead(hookUrl, { name: 'Taras Shevchenko', phone: '067 555 44 33', email: 'taras@example.com' });

  type AmoState = {
    leads: { id: number; pipeline_id: number; status_id: number; contactId?: number; contact_id?: number }[];
    contacts: { id: number; name?: string; first_name?: string }[];
  };
  await expect
    .poll(async () => (await stateOf<AmoState>(emulators.amocrm.url)).leads.length, { timeout: 20_000 })
    .toBe(1);
  const amo = await stateOf<AmoState>(emulators.amocrm.url);
  expect(amo.leads[0]).toMatchObject({ pipeline_id: 7_000_002, status_id: 70_000_021 });
  const contact = JSON.stringify(amo.contacts);
  expect(contact).toContain('Taras');
  expect(contact).toContain('+380675554433');
});

test('a website lead lands in Pipedrive once, with its person, after connecting in a new tab', async ({ page }) => {
  await signUp(page, 'en', uniqueLogin('pd'), 'Secret123', '/admin/integrations/pipedrive');
  await page.getByRole('button', { name: t.pipedrive.list.connect }).first().click();
  const dialog = page.getByRole('dialog');
  await dialog.getByLabel(c.create.name).fill('Sales Pipedrive');
  const tabOpened = page.context().waitForEvent('page');
  await dialog.getByRole('button', { name: c.create.go.replace('{{crm}}', 'Pipedrive') }).click();

  // Pipedrive's consent runs in the new tab, which comes back to the connect page and then the integration.
  const tab = await tabOpened;
  await expect(tab).toHaveURL(urlMatching(`/en/admin/integrations/pipedrive/${UUID}`), { timeout: 20_000 });
  await expect(tab.getByText(c.connection.connected, { exact: true }).first()).toBeVisible();
  await tab.close();

  const hookUrl = await sourceTo(page, 'Sales Pipedrive');
  await postLead(hookUrl, { name: 'Lesya Ukrainka', phone: '050 111 22 33', email: 'lesya@example.com' });

  type PdState = {
    persons: { name: string; emails?: { value: string }[] }[];
    leads: { title: string; person_id: number }[];
  };
  await expect
    .poll(async () => (await stateOf<PdState>(emulators.pipedrive.url)).leads.length, { timeout: 20_000 })
    .toBe(1);
  const pd = await stateOf<PdState>(emulators.pipedrive.url);
  const people = pd.persons.filter((p) => p.name === 'Lesya Ukrainka');
  expect(people).toHaveLength(1);
  expect(pd.leads[0]?.title).toContain('Lesya Ukrainka');
});

test('a website lead lands in Uspacy once as a deal, with its contact, in the funnel and stage chosen on screen', async ({
  page,
}) => {
  const { uspacy } = emulators;
  await signUp(page, 'en', uniqueLogin('uspacy'), 'Secret123', '/admin/integrations/uspacy');
  await page.getByRole('button', { name: t.uspacy.list.connect }).first().click();
  const dialog = page.getByRole('dialog');
  await dialog.getByLabel(c.create.name).fill('Sales Uspacy');
  // Signing in with the account: the password goes to the portal once.
  await dialog.getByText(t.uspacy.modes.password, { exact: true }).click();
  await dialog.getByLabel(t.uspacy.connect.portal).fill(uspacy.url);
  await dialog.getByLabel(t.uspacy.connect.email).fill(uspacy.email);
  await dialog.getByLabel(t.uspacy.connect.password, { exact: true }).fill(uspacy.password);
  await dialog.getByRole('button', { name: c.create.saveToken, exact: true }).click();

  await expect(page).toHaveURL(urlMatching(`/en/admin/integrations/uspacy/${UUID}`), { timeout: 15_000 });
  await expect(page.getByText(c.connection.connected, { exact: true }).first()).toBeVisible();
  await expect(page.getByTestId('uspacy-account')).toContainText(uspacy.email);

  await page.getByRole('tab', { name: t.uspacy.tabs.pipeline }).click();
  await page.getByText(t.uspacy.targets.deal, { exact: true }).click();
  await pick(page, t.uspacy.settings.funnel, 'Опт');
  await pick(page, t.uspacy.settings.stage, 'Замовлення');
  await pick(page, t.uspacy.settings.responsible, 'Богдан Мельник');
  await page.getByRole('button', { name: c.save, exact: true }).first().click();
  await expect(page.getByText(c.ui.saved_success)).toBeVisible();

  const hookUrl = await sourceTo(page, 'Sales Uspacy');
  await postLead(hookUrl, { name: 'Ivan Franko', phone: '063 777 88 99', email: 'ivan.franko@example.com' });

  type UsState = {
    deals: {
      id: number;
      title: string;
      funnel_id: number;
      kanban_stage_id: number;
      owner: number;
      contacts: number[];
    }[];
    contacts: { id: number; title: string; phone: { value: string }[] }[];
    comments: { entityType: string; entityId: number; message: string }[];
  };
  const mine = (state: UsState) => state.deals.filter((d) => d.title.includes('Ivan Franko'));
  await expect.poll(async () => mine(await stateOf<UsState>(uspacy.url)).length, { timeout: 20_000 }).toBe(1);
  const state = await stateOf<UsState>(uspacy.url);
  const [deal] = mine(state);
  expect(deal).toMatchObject({ funnel_id: 4, kanban_stage_id: 402, owner: 2 });
  const contact = state.contacts.find((x) => x.id === deal!.contacts[0]);
  expect(contact).toMatchObject({ title: 'Ivan Franko', phone: [{ value: '+380637778899' }] });
  expect(state.comments.filter((x) => x.entityType === 'deal' && x.entityId === deal!.id)).toHaveLength(1);
});
