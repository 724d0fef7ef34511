import enB24Codes from '../../../packages/connectors/src/bitrix24/words/codes/en.json' with { type: 'json' };
import ukB24Codes from '../../../packages/connectors/src/bitrix24/words/codes/uk.json' with { type: 'json' };
import enB24 from '../../../packages/connectors/src/bitrix24/words/en.json' with { type: 'json' };
import ukB24 from '../../../packages/connectors/src/bitrix24/words/uk.json' with { type: 'json' };
import { baseURL } from '../playwright.config';
import { signUp } from './support/actions';
import { pick, postLead, sourceTo, stateOf } from './support/flow';
import { type Lang, texts, uniqueLogin } from './support/locales';
import { expectFits, forPicture } from './support/screens';
import { expect, test } from './support/test';
import { UUID, urlMatching } from './support/url';

// Issue 32, Bitrix24 from its own screen (the emulator the end-to-end server runs with
// EMULATORS=true plays the portal): paste the inbound webhook address, choose a deal in a pipeline
// and stage, and a website lead lands in the portal once as a deal with its contact; the portal's
// outgoing webhook set from the page, a deal moved there is the lead's first reaction (speed to lead).
const words = { uk: { ...ukB24, codes: ukB24Codes }, en: { ...enB24, codes: enB24Codes } };

interface Emulators {
  bitrix24: { url: string; webhookUrl: string };
}
let emulators: Emulators;
test.beforeAll(async ({ request }) => {
  emulators = await (await request.get(`${baseURL}/api/emulators`)).json();
});

type B24State = {
  deals: {
    ID: string;
    TITLE: string;
    CATEGORY_ID: number;
    STAGE_ID: string;
    ASSIGNED_BY_ID: number;
    CONTACT_IDS: number[];
  }[];
  contacts: { ID: string; NAME: string; LAST_NAME?: string; PHONE: { VALUE: string }[] }[];
};

async function connect(page: import('@playwright/test').Page, lang: Lang, name: string, webhookUrl: string) {
  const t = texts[lang];
  const b = words[lang];
  await page.getByRole('button', { name: b.list.connect }).first().click();
  const dialog = page.getByRole('dialog');
  await dialog.getByLabel(t.crm.create.name).fill(name);
  await dialog.getByLabel(b.connect.webhookUrl).fill(webhookUrl);
  return dialog;
}

test('a website lead lands in Bitrix24 once as a deal, with its contact, in the pipeline and stage chosen on screen', async ({
  page,
}) => {
  const t = texts.en;
  const b = words.en;
  const { bitrix24 } = emulators;
  await signUp(page, 'en', uniqueLogin('b24'), 'Secret123', '/admin/integrations/bitrix24');
  const dialog = await connect(page, 'en', 'Sales Bitrix24', bitrix24.webhookUrl);
  await dialog.getByRole('button', { name: t.crm.create.saveToken, exact: true }).click();

  await expect(page).toHaveURL(urlMatching(`/en/admin/integrations/bitrix24/${UUID}`), { timeout: 15_000 });
  await expect(page.getByText(t.crm.connection.connected, { exact: true }).first()).toBeVisible();
  const account = page.getByTestId('bitrix24-account');
  await expect(account).toContainText(new URL(bitrix24.url).host);
  // The webhook's code is a credential: shown hidden, never in full.
  await expect(account).toContainText('/rest/1/••••/');
  await expect(page.locator('body')).not.toContainText(bitrix24.webhookUrl.split('/rest/1/')[1]!.replace('/', ''));
  await expectFits(page, 'bitrix24-connection-en-1440');

  await page.getByRole('tab', { name: b.tabs.pipeline }).click();
  await page.getByText(b.targets.deal, { exact: true }).click();
  await pick(page, b.settings.pipeline, 'Опт');
  await pick(page, b.settings.stage, 'Переговори');
  await pick(page, b.settings.responsible, 'Богдан Мельник');
  await page.getByRole('button', { name: t.crm.save, exact: true }).first().click();
  await expect(page.getByText(t.crm.ui.saved_success)).toBeVisible();
  await forPicture(() => page.getByText(t.crm.ui.saved_success).waitFor({ state: 'hidden' }));
  await expectFits(page, 'bitrix24-pipeline-en-1440');

  const hookUrl = await sourceTo(page, 'Sales Bitrix24');
  await postLead(hookUrl, { name: 'Lina Kostenko', phone: '066 123 45 67', email: 'lina.kostenko@example.com' });

  const mine = (state: B24State) => state.deals.filter((d) => d.TITLE.includes('Lina Kostenko'));
  await expect.poll(async () => mine(await stateOf<B24State>(bitrix24.url)).length, { timeout: 20_000 }).toBe(1);
  const state = await stateOf<B24State>(bitrix24.url);
  const [deal] = mine(state);
  expect(deal).toMatchObject({ CATEGORY_ID: 1, STAGE_ID: 'C1:PREPARATION', ASSIGNED_BY_ID: 2 });
  const contact = state.contacts.find((x) => Number(x.ID) === deal!.CONTACT_IDS[0]);
  expect(contact).toMatchObject({ NAME: 'Lina', LAST_NAME: 'Kostenko', PHONE: [{ VALUE: '+380661234567' }] });
});

test('Ukrainian: the outgoing webhook set on the page, a deal moved in Bitrix24 is the lead’s first reaction', async ({
  page,
  request,
}) => {
  const t = texts.uk;
  const b = words.uk;
  const { bitrix24 } = emulators;
  await signUp(page, 'uk', uniqueLogin('b24watch'), 'Secret123', '/admin/integrations/bitrix24');
  const dialog = await connect(page, 'uk', 'Продажі Bitrix24', bitrix24.webhookUrl);
  await dialog.getByRole('button', { name: t.crm.create.saveToken, exact: true }).click();
  await expect(page).toHaveURL(urlMatching(`/admin/integrations/bitrix24/${UUID}`), { timeout: 15_000 });

  // The page gives our address to paste into the portal's outgoing webhook, with a copy button.
  const card = page.getByTestId('connect-card').filter({ hasText: b.watch.title });
  await expect(card).toContainText(b.watch.intro);
  await expect(card).toContainText(b.watch.pending);
  const address = (await card.getByTestId('copy-value').innerText()).trim();
  expect(address).toMatch(new RegExp(`/api/bitrix24/events/${UUID}/[\\w-]{32}$`));
  await expectFits(page, 'bitrix24-watch-uk-1440');

  // In the portal: an outgoing webhook with that address; Bitrix24 shows its token.
  const made = await request.post(`${bitrix24.url}/__emulator/outgoing-webhooks`, { data: { url: address } });
  const { token } = (await made.json()) as { token: string };
  // A token that is not one is refused in the person's words.
  await card.getByLabel(b.watch.token).fill('не токен');
  await card.getByRole('button', { name: b.watch.save }).click();
  await expect(card.getByText(b.codes.errors.BITRIX24_OUTGOING_TOKEN_INVALID)).toBeVisible();
  await card.getByLabel(b.watch.token).fill(token);
  await card.getByRole('button', { name: b.watch.save }).click();
  await expect(card).toContainText(b.watch.watching);
  await expect(page.locator('body')).not.toContainText(token);
  await expectFits(page, 'bitrix24-watching-uk-1440');

  await page.getByRole('tab', { name: b.tabs.pipeline }).click();
  await page.getByText(b.targets.deal, { exact: true }).click();
  await page.getByRole('button', { name: t.crm.save, exact: true }).first().click();
  await expect(page.getByText(t.crm.ui.saved_success)).toBeVisible();

  const hookUrl = await sourceTo(page, 'Продажі Bitrix24');
  const sourceId = /webhook\/([0-9a-f-]{36})/.exec(page.url())![1]!;
  await postLead(hookUrl, { name: 'Тарас Мельник', phone: '067 765 43 21' });
  const mine = (state: B24State) => state.deals.filter((d) => d.TITLE.includes('Тарас Мельник'));
  await expect.poll(async () => mine(await stateOf<B24State>(bitrix24.url)).length, { timeout: 20_000 }).toBe(1);
  const [deal] = mine(await stateOf<B24State>(bitrix24.url));

  // A manager moves the deal in the portal; Bitrix24 posts the update to our address.
  const moved = await request.post(`${bitrix24.url}/__emulator/deals/${deal!.ID}/update`, {
    data: { stage: 'EXECUTING', userId: 2 },
  });
  expect(((await moved.json()) as { sent: { status: number }[] }).sent).toEqual([
    expect.objectContaining({ status: 200, event: 'ONCRMDEALUPDATE' }),
  ]);

  // The source's lead log shows the reaction, in the CRM; the speed-to-lead page counts the source.
  await page.goto(`${t.prefix}/admin/integrations/webhook/${sourceId}?tab=leads`);
  const row = page.getByTestId('hook-row').filter({ hasText: 'Тарас Мельник' });
  await expect(row.getByTestId('lead-reactions')).toContainText(
    t.hooks.reactions.taken.replace('{{name}}', t.hooks.reactions.someone),
  );
  await page.goto(`${t.prefix}/admin/speed`);
  await expect(page.getByTestId('speed-by-source')).toContainText('Form to Продажі Bitrix24');
});

for (const [lang, width] of [
  ['uk', 375],
  ['en', 375],
  ['uk', 1440],
] as const) {
  test(`${lang} at ${width} px: a wrong webhook address is refused in the person's words, then the right one connects`, async ({
    page,
  }) => {
    const t = texts[lang];
    const b = words[lang];
    const { bitrix24 } = emulators;
    await page.setViewportSize({ width, height: width < 500 ? 800 : 900 });
    await signUp(page, lang, uniqueLogin(`b24${lang}`), 'Secret123', '/admin/integrations/bitrix24');
    await expectFits(page, `bitrix24-list-${lang}-${width}`);
    // The code of another webhook: the portal refuses it, and the dialog says what to do.
    const dialog = await connect(
      page,
      lang,
      'Bitrix24',
      bitrix24.webhookUrl.replace(/\/rest\/1\/[^/]+\//, '/rest/1/wrongcode12345/'),
    );
    await dialog.getByRole('button', { name: t.crm.create.saveToken, exact: true }).click();
    // The integration is made, not connected, and the refusal says what to do in the person's language.
    await expect(page.getByText(b.codes.errors.BITRIX24_WEBHOOK_REFUSED, { exact: false })).toBeVisible();
    await expect(page).toHaveURL(urlMatching(`${t.prefix}/admin/integrations/bitrix24/${UUID}`), { timeout: 15_000 });
    await expectFits(page, `bitrix24-refused-${lang}-${width}`);
    // Connecting again from the integration's page with the right address.
    await page.getByRole('button', { name: b.list.connect }).first().click();
    const again = page.getByRole('dialog');
    await again.getByLabel(b.connect.webhookUrl).fill(bitrix24.webhookUrl);
    await expectFits(page, `bitrix24-connect-${lang}-${width}`);
    await again.getByRole('button', { name: t.crm.create.saveToken, exact: true }).click();
    await expect(page.getByText(t.crm.connection.connected, { exact: true }).first()).toBeVisible();
    // The outgoing webhook's card: our address to copy, the token to paste back.
    const watch = page.getByTestId('connect-card').filter({ hasText: b.watch.title });
    await expect(watch.getByTestId('copy-value')).toContainText('/api/bitrix24/events/');
    await watch.scrollIntoViewIfNeeded();
    await expectFits(page, `bitrix24-watch-${lang}-${width}`);
    await page.getByRole('tab', { name: b.tabs.pipeline }).click();
    await page.getByText(b.targets.deal, { exact: true }).click();
    await expect(page.getByLabel(b.settings.pipeline, { exact: true })).toBeVisible();
    await expectFits(page, `bitrix24-pipeline-${lang}-${width}`);
  });
}
