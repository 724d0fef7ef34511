import type { Page } from '@playwright/test';
import enCodes from '../../../packages/connectors/src/keycrm/words/codes/en.json' with { type: 'json' };
import enKeycrm from '../../../packages/connectors/src/keycrm/words/en.json' with { type: 'json' };
import ukKeycrm from '../../../packages/connectors/src/keycrm/words/uk.json' with { type: 'json' };
import { baseURL } from '../playwright.config';
import { signUp } from './support/actions';
import { pick, postLead, sourceTo, stateOf } from './support/flow';
import { texts, uniqueLogin } from './support/locales';
import { expectFits } from './support/screens';
import { expect, test } from './support/test';
import { UUID, urlMatching } from './support/url';

// Issue 32's KeyCRM in the browser: from KeyCRM's own screen, connect with the API key the emulator
// (EMULATORS=true) takes, pick a pipeline and a status listed from KeyCRM, send a website lead, and
// find it in KeyCRM once, as a card in that status, with its buyer. Issue 33: the page gives the
// address for a KeyCRM trigger's webhook; a card moved there is the lead's first reaction.
const t = texts.en;
const k = enKeycrm;

interface Emulators {
  keycrm: { url: string; apiKey: string };
}
let emulators: Emulators;
test.beforeAll(async ({ request }) => {
  emulators = await (await request.get(`${baseURL}/api/emulators`)).json();
});

interface KeycrmState {
  cards: { id: number; title: string; pipeline_id: number; status_id: number; client_id: number; utm_source: string }[];
  buyers: { id: number; full_name: string; phone: string[]; email: string[] }[];
}
/** The emulator's control routes live beside its API (…/v1). */
const keycrmState = () => stateOf<KeycrmState>(emulators.keycrm.url.replace(/\/v1$/, ''), '/__emulator/log');

async function connectNew(page: Page, name: string) {
  await page.goto(`${t.prefix}/admin/integrations/keycrm`);
  await page.getByRole('button', { name: k.list.connect }).first().click();
  const dialog = page.getByRole('dialog', { name: k.list.connect });
  await expect(page.locator('.ant-zoom-appear, .ant-zoom-enter')).toHaveCount(0);
  await dialog.getByLabel(t.integrations.create.name).fill(name);
  await dialog.getByRole('button', { name: t.integrations.create.submit }).click();
  await expect(page).toHaveURL(urlMatching(`/en/admin/integrations/keycrm/${UUID}`));
}

test('a website lead becomes a KeyCRM card in the pipeline and status chosen on screen, with its buyer', async ({
  page,
}) => {
  await signUp(page, 'en', uniqueLogin('keycrm'), 'Secret123');
  await connectNew(page, 'Shop KeyCRM');

  // A wrong key is refused in the user's words; the right one connects.
  await page.getByLabel(k.connection.apiKey).fill('kcrm-not-the-key-0000');
  await page.getByRole('button', { name: k.connection.connect }).click();
  await expect(page.getByText(k.connection.checkFailed).first()).toBeVisible();
  await expect(page.getByText(enCodes.reasons.KEYCRM_KEY_REJECTED).first()).toBeVisible();
  await page.getByRole('button', { name: t.integrations.secret.replace }).first().click();
  await page.getByLabel(k.connection.apiKey).fill(emulators.keycrm.apiKey);
  const connection = page.locator('.ant-card').filter({ hasText: k.connection.title });
  await connection.getByRole('button', { name: k.connection.save, exact: true }).click();
  await expect(page.getByText(k.connection.checkOk)).toBeVisible();
  await expectFits(page, 'keycrm-connection-en');

  await page.getByRole('tab', { name: k.tabs.pipeline }).click();
  await pick(page, k.settings.pipeline, 'Оптові клієнти');
  await pick(page, k.settings.status, 'Переговори');
  await pick(page, k.settings.source, 'Сайт');
  await expect(page.locator('.ant-message-notice')).toHaveCount(0, { timeout: 10_000 });
  await page.getByRole('button', { name: k.settings.save, exact: true }).click();
  await expect(page.locator('.ant-message').getByText(k.settings.saved)).toBeVisible();
  await expectFits(page, 'keycrm-pipeline-en');

  const hookUrl = await sourceTo(page, 'Shop KeyCRM');
  const stamp = Date.now().toString().slice(-6);
  await postLead(hookUrl, {
    name: `Ivan Franko ${stamp}`,
    phone: '063 777 88 99',
    email: `ivan.${stamp}@example.com`,
    utm_source: 'google',
  });

  const mine = (s: KeycrmState) => s.cards.filter((c) => c.title.includes(`Ivan Franko ${stamp}`));
  await expect.poll(async () => mine(await keycrmState()).length, { timeout: 20_000 }).toBe(1);
  const state = await keycrmState();
  const [card] = mine(state);
  expect(card).toMatchObject({ pipeline_id: 2, status_id: 22, utm_source: 'google' });
  const buyer = state.buyers.find((b) => b.id === card!.client_id);
  expect(buyer).toMatchObject({ full_name: `Ivan Franko ${stamp}`, email: [`ivan.${stamp}@example.com`] });
  expect(buyer!.phone[0]!.replace(/\D/g, '')).toBe('380637778899');
});

test('Ukrainian: a KeyCRM trigger’s webhook set from the page, a card moved in KeyCRM is the lead’s first reaction', async ({
  page,
  request,
}) => {
  const uk = texts.uk;
  const w = ukKeycrm;
  const control = emulators.keycrm.url.replace(/\/v1$/, '');
  await signUp(page, 'uk', uniqueLogin('kcwatch'), 'Secret123');
  await page.goto(`${uk.prefix}/admin/integrations/keycrm`);
  await page.getByRole('button', { name: w.list.connect }).first().click();
  const dialog = page.getByRole('dialog', { name: w.list.connect });
  await expect(page.locator('.ant-zoom-appear, .ant-zoom-enter')).toHaveCount(0);
  await dialog.getByLabel(uk.integrations.create.name).fill('Магазин KeyCRM');
  await dialog.getByRole('button', { name: uk.integrations.create.submit }).click();
  await expect(page).toHaveURL(urlMatching(`/admin/integrations/keycrm/${UUID}`));
  const integrationPage = page.url();

  // Before the key: nothing to paste yet.
  const card = page.getByTestId('connect-card').filter({ hasText: w.watch.title });
  await expect(card).toContainText(w.watch.notConnected);
  await page.getByLabel(w.connection.apiKey).fill(emulators.keycrm.apiKey);
  await page.getByRole('button', { name: w.connection.connect }).click();
  await expect(page.getByText(w.connection.checkOk)).toBeVisible();

  // The page gives our address for the trigger's webhook, with a copy button; no token is asked.
  await expect(card).toContainText(w.watch.intro);
  await expect(card).toContainText(w.watch.pending);
  await expect(card.getByTestId('connect-form')).toHaveCount(0);
  await expect(card.getByRole('textbox')).toHaveCount(0);
  const address = (await card.getByTestId('copy-value').innerText()).trim();
  expect(address).toMatch(new RegExp(`/api/keycrm/events/${UUID}/[\\w-]{32}$`));
  await card.scrollIntoViewIfNeeded();
  await expectFits(page, 'keycrm-watch-pending-uk-1440');

  // In KeyCRM: a trigger "card moved to a status" with the action "Відправити Webhook" to that address.
  expect((await request.post(`${control}/__emulator/webhooks`, { data: { url: address } })).status()).toBe(200);

  const hookUrl = await sourceTo(page, 'Магазин KeyCRM');
  const sourceId = /webhook\/([0-9a-f-]{36})/.exec(page.url())![1]!;
  const stamp = Date.now().toString().slice(-6);
  await postLead(hookUrl, { name: `Тарас Мельник ${stamp}`, phone: '067 765 43 21' });
  const mine = (s: KeycrmState) => s.cards.filter((c) => c.title.includes(`Тарас Мельник ${stamp}`));
  await expect.poll(async () => mine(await keycrmState()).length, { timeout: 20_000 }).toBe(1);
  const [made] = mine(await keycrmState());
  // No status chosen: the card is in the first pipeline's first status; a manager moves it on.
  expect(made).toMatchObject({ pipeline_id: 1, status_id: 11 });
  const moved = await request.post(`${control}/__emulator/cards/${made!.id}/move`, { data: { status_id: 12 } });
  expect(((await moved.json()) as { sent: { status: number }[] }).sent).toEqual([
    expect.objectContaining({ status: 200 }),
  ]);

  // The source's lead log shows the reaction, in the CRM.
  await page.goto(`${uk.prefix}/admin/integrations/webhook/${sourceId}?tab=leads`);
  const row = page.getByTestId('hook-row').filter({ hasText: `Тарас Мельник ${stamp}` });
  await expect(row.getByTestId('lead-reactions')).toContainText(
    uk.hooks.reactions.taken.replace('{{name}}', uk.hooks.reactions.someone),
  );

  // KeyCRM has called: the page says the status changes are coming in.
  await page.goto(integrationPage);
  await expect(page.getByTestId('connect-card').filter({ hasText: w.watch.title })).toContainText(w.watch.watching);
  await expectFits(page, 'keycrm-watching-uk-1440');
});

for (const [lang, words] of [
  ['uk', ukKeycrm],
  ['en', enKeycrm],
] as const) {
  for (const width of [375, 1440]) {
    test(`KeyCRM's screens fit and read in ${lang} at ${width} px`, async ({ page }) => {
      await page.setViewportSize({ width, height: 900 });
      const prefix = texts[lang].prefix;
      await signUp(page, lang, uniqueLogin(`kc${lang}${width}`), 'Secret123');
      await page.goto(`${prefix}/admin/integrations/keycrm`);
      await expect(page.getByText(words.list.empty.title).first()).toBeVisible();
      await expectFits(page, `keycrm-list-${lang}-${width}`);
      await page.getByRole('button', { name: words.list.connect }).first().click();
      const dialog = page.getByRole('dialog', { name: words.list.connect });
      await expect(page.locator('.ant-zoom-appear, .ant-zoom-enter')).toHaveCount(0);
      await dialog.getByLabel(texts[lang].integrations.create.name).fill('KeyCRM');
      await dialog.getByRole('button', { name: texts[lang].integrations.create.submit }).click();
      await page.getByLabel(words.connection.apiKey).fill(emulators.keycrm.apiKey);
      await page.getByRole('button', { name: words.connection.connect }).click();
      await expect(page.getByText(words.connection.checkOk)).toBeVisible();
      await expectFits(page, `keycrm-connection-${lang}-${width}`);
      // The trigger webhook's card: our address to copy, what to make in KeyCRM.
      const watch = page.getByTestId('connect-card').filter({ hasText: words.watch.title });
      await expect(watch.getByTestId('copy-value')).toContainText('/api/keycrm/events/');
      await expect(watch).toContainText(words.watch.intro);
      await watch.scrollIntoViewIfNeeded();
      await expectFits(page, `keycrm-watch-${lang}-${width}`);
      await page.getByRole('tab', { name: words.tabs.pipeline }).click();
      await expect(page.getByText(words.settings.unsetMain.replace('{{name}}', 'Ліди з реклами'))).toBeVisible();
      await expectFits(page, `keycrm-pipeline-${lang}-${width}`);
      await page.getByRole('tab', { name: words.tabs.users }).click();
      await expect(page.getByText('Оксана Петренко')).toBeVisible();
      await expectFits(page, `keycrm-users-${lang}-${width}`);
    });
  }
}
