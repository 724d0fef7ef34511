import type { Page } from '@playwright/test';
import { baseURL } from '../playwright.config';
import { signUp } from './support/actions';
import { pick, postLead, stateOf } from './support/flow';
import { LANGS, texts, uniqueLogin } from './support/locales';
import { expectFits } from './support/screens';
import { expect, test } from './support/test';
import { UUID, urlMatching } from './support/url';

// Issue 19's end-to-end test with the Telegram Bot API emulator (EMULATORS=true): the account
// connects its bot on the Telegram screen, a manager links their Telegram with the one-time link
// from the collections page, a lead arrives at a webhook source, the manager's card appears in
// Telegram, "Беру" is pressed, and the lead log and the speed-to-lead report show who took it.
// Then the new screens in both languages at 375 and 1440 px.
const t = texts.en;

interface TelegramState {
  users: { id: number; first_name: string }[];
  messages: {
    message_id: number;
    chatId: number;
    text: string;
    replyMarkup?: { inline_keyboard: { text: string; callback_data?: string }[][] };
  }[];
  callbackQueries: { id: string; answer?: { text?: string } }[];
}
let tg: { url: string };
test.beforeAll(async ({ request }) => {
  tg = (await (await request.get(`${baseURL}/api/emulators`)).json()).telegram;
});

const control = async <T>(path: string, body: object): Promise<T> =>
  (await (
    await fetch(`${tg.url}/__emulator/${path}`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify(body),
    })
  ).json()) as T;

/** An API call as the page's signed-in user. */
function apiCall<T>(page: Page, method: string, path: string, body?: object): Promise<T> {
  return page.evaluate(
    async ({ method, path, body }) => {
      const res = await fetch(path, {
        method,
        headers: {
          authorization: `Bearer ${localStorage.getItem('sessionToken')}`,
          ...(body ? { 'content-type': 'application/json' } : {}),
        },
        ...(body ? { body: JSON.stringify(body) } : {}),
      });
      return res.json();
    },
    { method, path, body },
  ) as Promise<T>;
}

type CollectionAnswer = { _id: string; items: { id: string; name: string }[] };
const newCollection = (page: Page, name: string, people: string[]) =>
  apiCall<CollectionAnswer>(page, 'POST', '/api/legacy/api/admin/collection', {
    name,
    items: people.map((p, i) => ({ name: p, value: String(101 + i) })),
  });

/**
 * A bot of this test's own, as BotFather would give one (the emulator's control API). Not the demo's
 * one bot: the updates of a bot go to one webhook, and an earlier test's account connected to the
 * same bot on this server could take them (its "this lead is gone" answering this test's button).
 */
async function newBot(): Promise<{ token: string; username: string }> {
  const id = 7_100_000_000 + Math.floor(Math.random() * 800_000_000);
  const token = `${id}:AAH-e2e-own-bot-token-0123456789abcdef`;
  await control('bots', { token });
  return { token, username: `leadrelay_${id}_bot` };
}

/** A manager in Telegram opens their link: /start <code> to the bot. */
async function managerStarts(botToken: string, code: string, firstName: string, username: string) {
  const user = await control<{ id: number }>('users', { first_name: firstName, username, language_code: 'uk' });
  await control('send', { token: botToken, userId: user.id, text: `/start ${code}` });
  return user.id;
}

test('a lead reaches the manager’s Telegram card; “Беру” shows in the lead log and the speed-to-lead report', async ({
  page,
}) => {
  const g = t.telegram;
  const own = await newBot();
  await signUp(page, 'en', uniqueLogin('telegram'), 'Secret123');
  const sales = await newCollection(page, 'Sales team', ['Olena Kovalenko']);

  // The Telegram screen: a new connection, the account's own bot by its token, the managers' collection.
  await page.goto(`${t.prefix}/admin/integrations/telegram`);
  await page.getByRole('button', { name: g.list.connect }).first().click();
  const dialog = page.getByRole('dialog', { name: g.list.connect });
  await expect(page.locator('.ant-zoom-appear, .ant-zoom-enter')).toHaveCount(0);
  await dialog.getByLabel(t.integrations.create.name).fill('Sales bot');
  await dialog.getByRole('button', { name: t.integrations.create.submit }).click();
  await expect(page).toHaveURL(urlMatching(`/en/admin/integrations/telegram/${UUID}`));
  const botId = page.url().split('/').pop()!.split('?')[0]!;
  await page.getByRole('radio', { name: new RegExp(g.connection.modes.own) }).check();
  await page.getByLabel(g.connection.token).fill(own.token);
  await page.getByRole('button', { name: g.connection.connect, exact: true }).click();
  await expect(page.getByText(g.connection.connected)).toBeVisible();
  await expect(page.getByText(`@${own.username}`)).toBeVisible();
  await expect(page.getByText(g.connection.modes.own).first()).toBeVisible();
  await pick(page, g.managers.collection, 'Sales team');
  await expect(page.getByText(g.managers.notLinked)).toBeVisible();

  // The collections page: "Link Telegram" gives the one-time link; the manager starts the bot with it.
  await page.goto(`${t.prefix}/admin/collections`);
  await page.getByRole('button', { name: t.collections.telegram.link }).click();
  const link = page.getByRole('dialog', {
    name: t.collections.telegram.modalTitle.replace('{{name}}', 'Olena Kovalenko'),
  });
  await expect(link.getByTestId('telegram-link-url')).toHaveText(
    new RegExp(`^https://t\\.me/${own.username}\\?start=`),
  );
  const code = (await link.getByTestId('telegram-link-code').innerText()).replace('/start ', '').trim();
  const manager = await managerStarts(own.token, code, 'Olena', 'olena_sales');
  await link.getByRole('button', { name: t.collections.telegram.done }).click();
  await expect(page.getByText('@olena_sales')).toBeVisible();

  // A webhook source sends to the bot and hands its leads out over the collection.
  const source = await apiCall<{ _id: string }>(page, 'POST', '/api/integrations', {
    type: 'webhook',
    name: 'Site form',
    destination: [botId],
    distributionId: sales._id,
  });
  await page.goto(`${t.prefix}/admin/integrations/webhook/${source._id}`);
  const hookUrl = await page.getByRole('textbox', { name: t.integrations.webhook.url }).inputValue();
  await postLead(hookUrl, { name: 'Taras Melnyk', phone: '+380671234567', utm_source: 'facebook' });

  // The card in the manager's Telegram, in Ukrainian (their app's language).
  const card = async () =>
    (await stateOf<TelegramState>(tg.url)).messages.find(
      (m) => m.chatId === manager && m.text.includes('Taras Melnyk'),
    );
  await expect.poll(async () => Boolean(await card()), { timeout: 20_000 }).toBe(true);
  const sent = (await card())!;
  expect(sent.text).toContain('Новий лід');
  expect(sent.text).toContain('+380671234567');
  expect(sent.text).toContain('Site form');
  const take = sent.replyMarkup!.inline_keyboard.flat().find((b) => b.text === 'Беру')!;
  const pressed = await control<{ callbackQueryId: string }>('press', {
    token: own.token,
    userId: manager,
    messageId: sent.message_id,
    data: take.callback_data,
  });
  const state = await stateOf<TelegramState>(tg.url);
  expect(state.callbackQueries.find((q) => q.id === pressed.callbackQueryId)?.answer?.text).toBe('Лід ваш');
  await expect.poll(async () => (await card())?.text ?? '').toContain('Взяв: Olena Kovalenko');

  // The lead log has the reaction, through the telegram bot, by the manager.
  type Hooks = {
    data: { lead: { name?: string } | null; reactions: { kind: string; via: string; byName: string }[] }[];
  };
  const log = await apiCall<Hooks>(page, 'GET', `/api/hook?integrationId=${source._id}`);
  const hook = log.data.find((h) => h.lead?.name === 'Taras Melnyk');
  expect(hook?.reactions).toEqual([
    expect.objectContaining({ kind: 'taken', via: 'telegram', byName: 'Olena Kovalenko' }),
  ]);
  // And the speed-to-lead report counts it reacted to.
  type Report = { rows: { integrationId: string; manager: string | null; leads: number; reacted: number }[] };
  const report = await apiCall<Report>(page, 'GET', `/api/report/speed-to-lead?integrationId=${source._id}`);
  expect(report.rows).toEqual([expect.objectContaining({ integrationId: source._id, leads: 1, reacted: 1 })]);

  // What the owner sees: the source's lead log says who took the lead, the report counts it.
  await page.goto(`${t.prefix}/admin/integrations/webhook/${source._id}?tab=leads`);
  const row = page.getByTestId('hook-row').filter({ hasText: 'Taras Melnyk' });
  await expect(row.getByTestId('lead-reactions')).toContainText('Taken: Olena Kovalenko');
  await page.goto(`${t.prefix}/admin/speed`);
  await expect(page.getByTestId('speed-by-source')).toContainText('Site form');
});

for (const lang of LANGS) {
  const l = texts[lang];
  for (const width of [375, 1440]) {
    test(`${lang} at ${width}px: the Telegram bot page and the managers’ links fit the screen`, async ({ page }) => {
      await page.setViewportSize({ width, height: 900 });
      const own = await newBot();
      await signUp(page, lang, uniqueLogin(`tg-screens-${lang}-${width}`), 'Secret123');
      const sales = await newCollection(page, lang === 'uk' ? 'Відділ продажу' : 'Sales team', [
        'Olena Kovalenko',
        'Taras Melnyk',
      ]);
      const bot = await apiCall<{ _id: string }>(page, 'POST', '/api/integrations', {
        type: 'telegram',
        name: l.telegram.list.defaultName,
        distributionId: sales._id,
      });
      await apiCall(page, 'POST', '/api/telegram/connect', {
        integrationId: bot._id,
        mode: 'own',
        botToken: own.token,
      });
      const made = await apiCall<{ code: string }>(page, 'POST', '/api/telegram/link-codes', {
        integrationId: bot._id,
        collectionId: sales._id,
        itemId: sales.items[0]!.id,
      });
      await managerStarts(own.token, made.code, 'Olena', `olena_${lang}_${width}`);

      await page.goto(`${l.prefix}/admin/integrations/telegram/${bot._id}`);
      await expect(page.getByText(`@olena_${lang}_${width}`)).toBeVisible();
      await expect(page.getByText(l.telegram.managers.notLinked)).toBeVisible();
      await expectFits(page, `telegram-${lang}-${width}`);

      await page.goto(`${l.prefix}/admin/collections`);
      await expect(page.getByText(`@olena_${lang}_${width}`)).toBeVisible();
      await expectFits(page, `telegram-collections-${lang}-${width}`);
      await page
        .getByRole('button', { name: l.collections.telegram.link })
        .filter({ hasText: l.collections.telegram.link })
        .click();
      await expect(page.getByTestId('telegram-link-url')).toBeVisible();
      await expectFits(page, `telegram-link-${lang}-${width}`, { fullPage: false });
    });
  }
}
