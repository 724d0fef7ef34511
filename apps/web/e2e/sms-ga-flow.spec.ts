import { baseURL } from '../playwright.config';
import { signUp } from './support/actions';
import { postLead, sourceTo, stateOf } from './support/flow';
import { texts, uniqueLogin } from './support/locales';
import { expect, test } from './support/test';
import { UUID, urlMatching } from './support/url';

// The "done when" for AlphaSMS and GA4 in the browser: each is connected from its own screen
// with the credentials the emulators (EMULATORS=true) take, a website lead is sent to it, and it
// arrives: an SMS at AlphaSMS (and in the SMS log on screen), an event at GA4 with the client id of
// the lead's _ga cookie.
const t = texts.en;

interface Emulators {
  alfasms: { url: string; apiKey: string; senders: string[] };
  ga: { url: string; measurementId: string; apiSecret: string };
}
let emulators: Emulators;
test.beforeAll(async ({ request }) => {
  emulators = await (await request.get(`${baseURL}/api/emulators`)).json();
});

/** The list page's "Connect …" → name → the new integration's own page; returns its URL. */
async function connectNew(page: import('@playwright/test').Page, type: 'alfasms' | 'ga', label: string, name: string) {
  await page.goto(`${t.prefix}/admin/integrations/${type}`);
  await page.getByRole('button', { name: label }).first().click();
  const dialog = page.getByRole('dialog', { name: label });
  // The modal has finished opening: a click during its zoom can miss the button.
  await expect(page.locator('.ant-zoom-appear, .ant-zoom-enter')).toHaveCount(0);
  await dialog.getByLabel(t.integrations.create.name).fill(name);
  await dialog.getByRole('button', { name: t.integrations.create.submit }).click();
  await expect(page).toHaveURL(urlMatching(`/en/admin/integrations/${type}/${UUID}`));
  return page.url();
}

test('a website lead is texted by AlphaSMS once, from the alpha-name, and shows in the SMS log', async ({ page }) => {
  const s = t.sms;
  await signUp(page, 'en', uniqueLogin('sms'), 'Secret123');
  const url = await connectNew(page, 'alfasms', s.list.connect, 'Shop SMS');

  await page.getByLabel(s.connection.apiKey).fill(emulators.alfasms.apiKey);
  await page.getByRole('button', { name: s.connection.save }).click();
  await expect(page.getByText(s.connection.checkOk)).toBeVisible();
  await expect(page.getByText(/UAH|₴|грн/).first()).toBeVisible();

  await page.getByRole('tab', { name: s.tabs.messages }).click();
  await page.getByLabel(s.settings.sender).fill(emulators.alfasms.senders[0]!);
  // Texts go at once whatever the time of the test.
  await page.getByRole('switch', { name: s.settings.quietHours }).click();
  await expect(page.getByTestId('sms-preview').first()).toContainText('Olena Kovalenko, thank you for your request!');
  // The connection's own "Saved" must be gone, so the one below is this save's.
  await expect(page.locator('.ant-message-notice')).toHaveCount(0, { timeout: 10_000 });
  await page.getByRole('button', { name: s.settings.save, exact: true }).click();
  await expect(page.locator('.ant-message').getByText(t.common.saved)).toBeVisible();

  const hookUrl = await sourceTo(page, 'Shop SMS');
  await postLead(hookUrl, { name: 'Oksana', phone: '050 765 43 21' });

  type AlphaState = { messages: { phone: number; text: string; signature: string }[] };
  const mine = async () =>
    (await stateOf<AlphaState>(emulators.alfasms.url)).messages.filter((m) => m.phone === 380507654321);
  await expect.poll(async () => (await mine()).length, { timeout: 20_000 }).toBe(1);
  expect(await mine()).toMatchObject([
    { text: 'Oksana, thank you for your request! We will call you shortly.', signature: emulators.alfasms.senders[0] },
  ]);

  await page.goto(`${url}?tab=log`);
  const row = page.locator('tr').filter({ hasText: 'Oksana, thank you' });
  await expect(row).toBeVisible();
  await expect(row).toContainText('+380507654321');
  await expect(row).toContainText(s.recipients.lead);
});

test('a website lead becomes one GA4 event with its _ga client id; the test lead passes Google validation', async ({
  page,
}) => {
  const g = t.ga;
  await signUp(page, 'en', uniqueLogin('ga'), 'Secret123');
  await connectNew(page, 'ga', g.list.connect, 'Site GA4');

  await page.getByLabel(g.connection.measurementId).fill(emulators.ga.measurementId);
  await page.getByLabel(g.connection.apiSecret).fill(emulators.ga.apiSecret);
  await page.getByRole('button', { name: g.connection.save }).click();
  await expect(page.getByText(g.connection.checkOk)).toBeVisible();

  await page.getByRole('tab', { name: g.tabs.event }).click();
  await page.getByLabel(g.event.value, { exact: true }).fill('300');
  await expect(page.locator('.ant-message-notice')).toHaveCount(0, { timeout: 10_000 });
  await page.getByRole('button', { name: g.event.save }).click();
  await expect(page.locator('.ant-message').getByText(t.common.saved)).toBeVisible();
  await page.getByRole('button', { name: g.test.send }).click();
  await expect(page.getByText(g.test.valid)).toBeVisible();

  const hookUrl = await sourceTo(page, 'Site GA4');
  const clientId = `${Date.now()}.1700000000`;
  await postLead(hookUrl, {
    name: 'Bohdan',
    email: 'bohdan@example.com',
    utm_source: 'google',
    _ga: `GA1.1.${clientId}`,
  });

  type GaState = { events: { name: string; clientId?: string; params: Record<string, unknown> }[] };
  const mine = async () =>
    (await stateOf<GaState>(emulators.ga.url, '/__emulator/events')).events.filter((e) => e.clientId === clientId);
  await expect.poll(async () => (await mine()).length, { timeout: 20_000 }).toBe(1);
  expect((await mine())[0]).toMatchObject({
    name: 'generate_lead',
    params: { currency: 'UAH', value: 300, utm_source: 'google', lead_source: 'google' },
  });
});
