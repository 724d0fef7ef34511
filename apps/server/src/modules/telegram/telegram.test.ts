// The Telegram manager bot through the API, the delivery engine and the Bot API emulator: connecting
// an own bot or the platform's, linking a manager with a one-time code (expired, reused, another
// account's), the webhook's secret, a card per routed lead, and a button pressed twice or by two
// managers at once recording one reaction, shown on every card, in the lead log and the report.
import { cardKeyboard, cardText } from '@leadrelay/connectors';
import { startTelegramEmulator, type TelegramEmulator } from '@leadrelay/connectors/telegram/emulator';
import { and, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  collections,
  deliveries,
  hooks,
  leadReactions,
  leads,
  telegramCards,
  telegramLinkCodes,
} from '../../db/schema';
import { freePort } from '../../test/free-port';
import { watchIntegrationUpdates } from '../../test/realtime-kit';
import { accountIdOf, createSource } from '../../test/routing-fixtures';
import {
  callAs,
  createTestApp,
  expectError,
  type Method,
  onUnlimitedPlan,
  type SignedInUser,
  signUp,
  type TestApp,
} from '../../test/test-app';
import { type EscalationOutcome, escalationTasks } from '../escalation/escalation.tasks';

const OWN = '7100000001:AAH-own-bot-token-for-api-tests-0123456';
const OTHER = '7100000002:AAH-bobs-bot-token-for-api-tests-01234';
const PLATFORM = '7100000009:AAH-platform-bot-token-api-tests-0123';
let tg: TelegramEmulator;
let t: TestApp;
let alice: SignedInUser;
let bob: SignedInUser;

beforeAll(async () => {
  tg = await startTelegramEmulator({ tokens: [OWN, OTHER, PLATFORM], redeliverMs: 50 });
  const port = await freePort();
  t = await createTestApp({
    publicUrl: `http://127.0.0.1:${port}`,
    allowPrivateDestinations: true,
    crm: { telegram: { apiUrl: tg.apiRoot, botToken: PLATFORM } },
  });
  await t.app.listen({ port, host: '127.0.0.1' });
  alice = await onUnlimitedPlan(t, await signUp(t));
  bob = await onUnlimitedPlan(t, await signUp(t));
});
afterAll(async () => {
  await t?.close();
  await tg?.close();
});

const call = (method: Method, url: string, user: SignedInUser | null, body?: unknown) =>
  callAs(t, method, url, user, body);
const until = async <T>(what: () => T | Promise<T>, ms = 10_000): Promise<NonNullable<T>> => {
  const end = Date.now() + ms;
  for (;;) {
    const value = await what();
    if (value) return value as NonNullable<T>;
    if (Date.now() > end) throw new Error('timed out waiting');
    await new Promise((r) => setTimeout(r, 25));
  }
};

async function telegramIntegration(
  user: SignedInUser,
  connect: { mode: 'own'; botToken: string } | { mode: 'platform' },
) {
  const created = await call('POST', '/api/integrations', user, { type: 'telegram', name: 'Managers bot' });
  expect(created.statusCode).toBe(201);
  const id = created.json()._id as string;
  const res = await call('POST', '/api/telegram/connect', user, { integrationId: id, ...connect });
  expect(res.statusCode).toBe(200);
  return id;
}

async function managers(user: SignedInUser, names: string[]) {
  const res = await call('POST', '/api/legacy/api/admin/collection', user, {
    name: 'Sales',
    items: names.map((name, i) => ({ name, value: String(100 + i) })),
  });
  expect(res.statusCode).toBe(201);
  return res.json() as { _id: string; items: { id: string; name: string }[] };
}

/** A manager opens the deep link: /start <code> reaches our webhook through the emulator. */
async function link(user: SignedInUser, integrationId: string, collectionId: string, itemId: string, token = OWN) {
  const code = await call('POST', '/api/telegram/link-codes', user, { integrationId, collectionId, itemId });
  expect(code.statusCode).toBe(201);
  const manager = tg.addUser({ first_name: `M${itemId.slice(0, 4)}`, language_code: 'uk' });
  await tg.userSends(token, manager.id, `/start ${code.json().code}`);
  return { manager, code: code.json().code as string };
}

const itemsOf = async (collectionId: string) =>
  (await t.app.db.select().from(collections).where(eq(collections.id, collectionId)))[0]!.items;
const lastReplyTo = (chatId: number) => tg.messages.filter((m) => m.chatId === chatId).at(-1)?.text;

describe('connecting the bot', () => {
  it('checks an own bot’s token with Telegram, sets our webhook with a secret, and says which bot is used', async () => {
    const created = await call('POST', '/api/integrations', alice, { type: 'telegram', name: 'Bot' });
    const id = created.json()._id as string;
    expect((await call('GET', `/api/telegram/account/${id}`, alice)).json()).toMatchObject({
      connected: false,
      platformAvailable: true,
    });
    const malformed = await call('POST', '/api/telegram/connect', alice, {
      integrationId: id,
      mode: 'own',
      botToken: 'abc',
    });
    expect(malformed.statusCode).toBe(400);
    expectError(
      await call('POST', '/api/telegram/connect', alice, {
        integrationId: id,
        mode: 'own',
        botToken: '7100000001:AAH-a-token-telegram-does-not-know-xx',
      }),
      400,
      'TELEGRAM_TOKEN_INVALID',
    );
    const live = watchIntegrationUpdates(t);
    const ok = await call('POST', '/api/telegram/connect', alice, { integrationId: id, mode: 'own', botToken: OWN });
    expect(ok.json()).toMatchObject({ connected: true, mode: 'own', botUsername: 'leadrelay_7100000001_bot' });
    expect(await live.about(id)).toMatchObject({ status: 'ok', statusReason: null });
    live.stop();
    const state = (await (await fetch(`${tg.url}/__emulator/state`)).json()) as {
      bots: { id: number; webhook: string }[];
    };
    const bot = state.bots.find((b) => b.id === 7100000001)!;
    expect(bot.webhook).toBe(`${new URL(t.app.deps.config.publicUrl).origin}/api/telegram/webhook/${id}`);
    // Nothing secret comes back, and another account sees nothing.
    expect(JSON.stringify(ok.json())).not.toContain('AAH');
    expectError(await call('GET', `/api/telegram/account/${id}`, bob), 404, 'INTEGRATION_NOT_FOUND');
    expectError(
      await call('POST', '/api/telegram/connect', bob, { integrationId: id, mode: 'platform' }),
      404,
      'INTEGRATION_NOT_FOUND',
    );
    expect((await call('GET', `/api/telegram/account/${id}`, null)).statusCode).toBe(401);
  });

  it('uses the platform’s bot when asked', async () => {
    const id = await telegramIntegration(bob, { mode: 'platform' });
    expect((await call('GET', `/api/telegram/account/${id}`, bob)).json()).toMatchObject({
      connected: true,
      mode: 'platform',
      botUsername: 'leadrelay_7100000009_bot',
    });
  });
});

describe('linking managers', () => {
  it('links with a one-time code; a reused, expired or foreign code does not; the collection PUT keeps the link', async () => {
    const bot = await telegramIntegration(alice, { mode: 'own', botToken: OWN });
    const sales = await managers(alice, ['Olena', 'Taras']);
    const [olena, taras] = sales.items;
    // The code is for the bot's own collection.
    expectError(
      await call('POST', '/api/telegram/link-codes', alice, {
        integrationId: bot,
        collectionId: sales._id,
        itemId: olena!.id,
      }),
      400,
      'TELEGRAM_COLLECTION_MISMATCH',
    );
    await call('PUT', `/api/integrations/${bot}/update`, alice, { distributionId: sales._id });
    const made = await call('POST', '/api/telegram/link-codes', alice, {
      integrationId: bot,
      collectionId: sales._id,
      itemId: olena!.id,
    });
    expect(made.json().url).toBe(`https://t.me/leadrelay_7100000001_bot?start=${made.json().code}`);
    const manager = tg.addUser({ first_name: 'Olena', username: 'olena_sales', language_code: 'uk' });
    await tg.userSends(OWN, manager.id, `/start ${made.json().code}`);
    expect((await itemsOf(sales._id))[0]).toMatchObject({
      telegram: { chatId: manager.id, username: 'olena_sales', language: 'uk' },
    });
    expect(lastReplyTo(manager.id)).toBe('Готово, Olena: нові ліди приходитимуть сюди.');
    // The web sees the link.
    const listed = (await call('GET', `/api/legacy/api/admin/collection/${sales._id}`, alice)).json();
    expect(listed.items[0].telegram).toMatchObject({ chatId: manager.id });

    // Used once: somebody else with the same code links nothing.
    const stranger = tg.addUser({ first_name: 'Stranger', language_code: 'en' });
    await tg.userSends(OWN, stranger.id, `/start ${made.json().code}`);
    expect(lastReplyTo(stranger.id)).toContain('The code does not fit');
    expect((await itemsOf(sales._id))[0]!.telegram?.chatId).toBe(manager.id);

    // Expired after 15 minutes.
    const late = await call('POST', '/api/telegram/link-codes', alice, {
      integrationId: bot,
      collectionId: sales._id,
      itemId: taras!.id,
    });
    await t.app.db
      .update(telegramLinkCodes)
      .set({ expiresAt: new Date(Date.now() - 1000) })
      .where(eq(telegramLinkCodes.code, late.json().code));
    const slow = tg.addUser({ first_name: 'Taras', language_code: 'uk' });
    await tg.userSends(OWN, slow.id, `/start ${late.json().code}`);
    expect(lastReplyTo(slow.id)).toContain('Код не підходить');
    expect((await itemsOf(sales._id))[1]!.telegram).toBeUndefined();

    // A code made for one bot does nothing on another.
    const other = await call('POST', '/api/telegram/link-codes', alice, {
      integrationId: bot,
      collectionId: sales._id,
      itemId: taras!.id,
    });
    await tg.userSends(PLATFORM, slow.id, `/start ${other.json().code}`);
    expect((await itemsOf(sales._id))[1]!.telegram).toBeUndefined();

    // Another account cannot make codes for this bot or this collection.
    expectError(
      await call('POST', '/api/telegram/link-codes', bob, {
        integrationId: bot,
        collectionId: sales._id,
        itemId: olena!.id,
      }),
      404,
      'INTEGRATION_NOT_FOUND',
    );
    const bobs = await telegramIntegration(bob, { mode: 'own', botToken: OTHER });
    expectError(
      await call('POST', '/api/telegram/link-codes', bob, {
        integrationId: bobs,
        collectionId: sales._id,
        itemId: olena!.id,
      }),
      404,
      'COLLECTION_NOT_FOUND',
    );
    expectError(
      await call('POST', '/api/telegram/link-codes', alice, {
        integrationId: bot,
        collectionId: sales._id,
        itemId: 'nobody',
      }),
      404,
      'ITEM_NOT_FOUND',
    );

    // Renaming a manager through the collection PUT keeps their link; the body cannot set one.
    const renamed = await call('PUT', `/api/legacy/api/admin/collection/${sales._id}`, alice, {
      items: [
        { id: olena!.id, name: 'Olena K.', value: '100' },
        { id: taras!.id, name: 'Taras', value: '101' },
      ],
    });
    expect(renamed.json().items[0]).toMatchObject({ name: 'Olena K.', telegram: { chatId: manager.id } });
    const forged = await call('PUT', `/api/legacy/api/admin/collection/${sales._id}`, alice, {
      items: [{ id: taras!.id, name: 'Taras', value: '101', telegram: { chatId: 1, language: 'uk', linkedAt: 'x' } }],
    });
    expect(forged.statusCode).toBe(400);

    // /away and /back from the bot set the item's away switch.
    await tg.userSends(OWN, manager.id, '/away');
    expect((await itemsOf(sales._id))[0]).toMatchObject({ away: true });
    await tg.userSends(OWN, manager.id, '/back');
    expect((await itemsOf(sales._id))[0]).toMatchObject({ away: false });

    // Unlinked from the web: no chat any more; another account's unlink finds nothing.
    expectError(
      await call('POST', '/api/telegram/unlink', bob, { collectionId: sales._id, itemId: olena!.id }),
      404,
      'COLLECTION_NOT_FOUND',
    );
    expect(
      (await call('POST', '/api/telegram/unlink', alice, { collectionId: sales._id, itemId: olena!.id })).statusCode,
    ).toBe(200);
    expect((await itemsOf(sales._id))[0]!.telegram).toBeUndefined();
  });

  /** Alice's own bot sending to a list with one manager, Olena, and a code that links her. */
  async function olenaLinkCode() {
    const bot = await telegramIntegration(alice, { mode: 'own', botToken: OWN });
    const sales = await managers(alice, ['Olena']);
    await call('PUT', `/api/integrations/${bot}/update`, alice, { distributionId: sales._id });
    const code = await call('POST', '/api/telegram/link-codes', alice, {
      integrationId: bot,
      collectionId: sales._id,
      itemId: sales.items[0]!.id,
    });
    expect(code.statusCode, code.body).toBe(201);
    return { sales, code: String(code.json().code) };
  }

  it('an update whose names hold a NUL or half a UTF-16 pair is taken, cleaned: the manager is linked', async () => {
    const { sales, code } = await olenaLinkCode();
    const manager = tg.addUser({
      first_name: 'Ole\u0000na \ud800',
      username: 'ole\u0000na_\udc00',
      language_code: 'uk',
    });
    await tg.userSends(OWN, manager.id, `/start ${code}`);
    expect((await itemsOf(sales._id))[0]!.telegram).toMatchObject({ chatId: manager.id, username: 'olena_\ufffd' });
    expect(lastReplyTo(manager.id)).toContain('Olena');
  });

  it('an update with keys named __proto__ or constructor.prototype is taken: the manager is linked', async () => {
    const { sales, code } = await olenaLinkCode();
    // From JSON text: an object literal's `__proto__` would set its prototype, not add a key.
    const manager = tg.addUser(
      JSON.parse('{"first_name":"Olena","username":"olena_k","__proto__":{"x":1},"constructor":{"prototype":{"y":2}}}'),
    );
    await tg.userSends(OWN, manager.id, `/start ${code}`);
    expect((await itemsOf(sales._id))[0]!.telegram).toMatchObject({ chatId: manager.id, username: 'olena_k' });
    expect(lastReplyTo(manager.id)).toContain('Olena');
  });

  it('the webhook takes only Telegram’s calls: a wrong secret is refused, an unknown bot is not found', async () => {
    const bot = await telegramIntegration(alice, { mode: 'own', botToken: OWN });
    const update = {
      update_id: 1,
      message: { message_id: 1, date: 1, chat: { id: 5, type: 'private' }, text: '/away' },
    };
    const post = (id: string, secret?: string) =>
      t.app.inject({
        method: 'POST',
        url: `/api/telegram/webhook/${id}`,
        headers: secret ? { 'x-telegram-bot-api-secret-token': secret } : {},
        payload: update,
      });
    expect((await post(bot)).statusCode).toBe(401);
    expect((await post(bot, 'a-guessed-secret-value-xxxxxxxx')).statusCode).toBe(401);
    expect((await post('00000000-0000-4000-8000-000000000000', 'x')).statusCode).toBe(404);
    expect((await post('not-an-id', 'x')).statusCode).toBe(404);
    expect((await post('platform', 'x')).statusCode).toBe(401);
  });
});

describe('cards and buttons', () => {
  it('sends each routed lead’s assignee a card; a press is recorded once, on every card, in the lead log and the report', async () => {
    const bot = await telegramIntegration(alice, { mode: 'own', botToken: OWN });
    const sales = await managers(alice, ['Iryna', 'Petro', 'Nobody']);
    await call('PUT', `/api/integrations/${bot}/update`, alice, { distributionId: sales._id });
    const iryna = (await link(alice, bot, sales._id, sales.items[0]!.id)).manager;
    const petro = (await link(alice, bot, sales._id, sales.items[1]!.id)).manager;
    const accountId = await accountIdOf(t.app.db, alice.login);
    const source = await createSource(t.app.db, accountId, { destinationIds: [bot], distributionId: sales._id });
    const post = async (body: object) => {
      const hookId = (await t.app.inject({ method: 'POST', url: source.url, payload: body })).json().hookId as string;
      await t.app.deliveryWorker.drain();
      return hookId;
    };

    // Round-robin: Iryna, Petro, then Nobody (not linked).
    const h1 = await post({ name: 'Olha <VIP>', phone: '+380501112233', utm_source: 'facebook' });
    const card = await until(() => tg.messages.find((m) => m.chatId === iryna.id && m.text.includes('Olha <VIP>')));
    expect(card.text).toContain('Новий лід');
    expect(card.text).toContain('Site form');
    const [lead1] = await t.app.db.select({ leadId: hooks.leadId }).from(hooks).where(eq(hooks.id, h1));
    const leadId = lead1!.leadId!;
    expect(card.replyMarkup!.inline_keyboard.flat().map((b) => b.callback_data)).toEqual([
      `t:${leadId}`,
      `c:${leadId}`,
    ]);
    await post({ name: 'Second lead' });
    await until(() => tg.messages.find((m) => m.chatId === petro.id && m.text.includes('Second lead')));
    const h3 = await post({ name: 'Third lead' });
    // No linked Telegram for the assignee: a coded delivery error, shown in the lead log.
    const failed = await until(async () => {
      const detail = (await call('GET', `/api/hook/${h3}`, alice)).json();
      return JSON.stringify(detail).includes('TELEGRAM_NOT_LINKED') ? detail : null;
    });
    expect(JSON.stringify(failed)).toContain('Nobody');

    // Petro got the same lead's card too (the group): a fixture card like the escalation makes.
    const sent = await fetch(`${tg.apiRoot}/bot${OWN}/sendMessage`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({
        chat_id: petro.id,
        text: cardText({
          lead: { name: 'Olha', custom: {} },
          leadId,
          sourceName: 'Site form',
          leadUrl: 'http://x',
          language: 'uk',
        }),
        parse_mode: 'HTML',
        reply_markup: cardKeyboard(leadId, 'uk'),
      }),
    }).then((r) => r.json() as Promise<{ result: { message_id: number } }>);
    await t.app.db.insert(telegramCards).values({
      accountId,
      leadId,
      integrationId: bot,
      itemId: sales.items[1]!.id,
      itemName: 'Petro',
      chatId: petro.id,
      messageId: sent.result.message_id,
      language: 'uk',
      text: 'Olha',
    });

    // Both press "Беру" at once, and Iryna presses twice: one reaction.
    const presses = await Promise.all([
      tg.press(OWN, iryna.id, card.message_id, `t:${leadId}`),
      tg.press(OWN, petro.id, sent.result.message_id, `t:${leadId}`),
      tg.press(OWN, iryna.id, card.message_id, `t:${leadId}`),
    ]);
    const rows = await t.app.db
      .select()
      .from(leadReactions)
      .where(and(eq(leadReactions.leadId, leadId), eq(leadReactions.kind, 'taken')));
    expect(rows).toHaveLength(1);
    expect(rows[0]).toMatchObject({ via: 'telegram' });
    const winner = rows[0]!.byName!;
    const answers = presses.map((id) => tg.callbackQueries.find((q) => q.id === id)!.answer?.text);
    expect(answers.filter((a) => a === 'Лід ваш')).toHaveLength(1);
    expect(answers.filter((a) => a === `Лід уже взяв ${winner}`)).toHaveLength(2);
    // Every card of the lead says who took it, and keeps only "Передзвонив".
    await until(() =>
      [card.message_id, sent.result.message_id].every((id) =>
        tg.messages.find((m) => m.message_id === id)?.text.includes(`Взяв: ${winner}`),
      ),
    );
    for (const id of [card.message_id, sent.result.message_id]) {
      const m = tg.messages.find((x) => x.message_id === id)!;
      expect(m.replyMarkup!.inline_keyboard.flat().map((b) => b.text)).toEqual(['Передзвонив']);
    }
    // A stranger's press on a lead they were never sent records nothing.
    const stranger = tg.addUser({ first_name: 'Stranger' });
    const other = await post({ name: 'Fourth lead' });
    void other;
    const strangerQuery = await (async () => {
      const m = await until(() => tg.messages.find((x) => x.text.includes('Fourth lead')));
      tg.messages.push({ ...m, chatId: stranger.id, message_id: 999_999, edits: [] });
      return tg.press(OWN, stranger.id, 999_999, m.replyMarkup!.inline_keyboard[0]![0]!.callback_data!);
    })();
    expect(tg.callbackQueries.find((q) => q.id === strangerQuery)!.answer?.text).toBe('Цього ліда вже немає');

    // The lead log and the speed-to-lead report show the press.
    const logged = (await call('GET', `/api/hook/${h1}`, alice)).json();
    expect(logged.reactions).toEqual([expect.objectContaining({ kind: 'taken', via: 'telegram', byName: winner })]);
    const report = (await call('GET', `/api/report/speed-to-lead?integrationId=${source.id}`, alice)).json();
    const reacted = report.rows.reduce((n: number, r: { reacted: number }) => n + r.reacted, 0);
    expect(reacted).toBe(1);
  });

  it('a lead nobody takes in time passes on: the next manager gets a card, the first card says it was passed on', async () => {
    const bot = await telegramIntegration(bob, { mode: 'own', botToken: OTHER });
    const sales = await managers(bob, ['Oksana', 'Dmytro']);
    await call('PUT', `/api/integrations/${bot}/update`, bob, { distributionId: sales._id });
    const oksana = (await link(bob, bot, sales._id, sales.items[0]!.id, OTHER)).manager;
    const dmytro = (await link(bob, bot, sales._id, sales.items[1]!.id, OTHER)).manager;
    const accountId = await accountIdOf(t.app.db, bob.login);
    // Nobody has hours: always on duty; a lead not taken within 15 minutes passes on.
    const source = await createSource(t.app.db, accountId, {
      destinationIds: [bot],
      distributionId: sales._id,
      options: { routing: { whenNobody: 'wait', escalateAfterMinutes: 15 } },
    });
    const hookId = (await t.app.inject({ method: 'POST', url: source.url, payload: { name: 'Passed Lead' } })).json()
      .hookId as string;
    await t.app.deliveryWorker.drain();
    await until(() => tg.messages.find((m) => m.chatId === oksana.id && m.text.includes('Passed Lead')));
    const [hook] = await t.app.db.select({ leadId: hooks.leadId }).from(hooks).where(eq(hooks.id, hookId));
    const leadId = hook!.leadId!;

    // The escalation task, as the scheduler runs it: enrol now, pass 16 minutes later.
    const [task] = escalationTasks(
      { mailer: t.app.mailer, publicUrl: 'http://app.test', log: t.app.log },
      t.app.events,
    );
    const run = (at: Date) => t.app.db.transaction((tx) => task!.run(tx as never, at)) as Promise<EscalationOutcome>;
    await run(new Date(Date.now() + 60_000));
    const outcome = await run(new Date(Date.now() + 16 * 60_000));
    expect(outcome.passes.filter((p) => p.leadId === leadId)).toEqual([
      expect.objectContaining({ from: 'Oksana', to: 'Dmytro' }),
    ]);
    const [lead] = await t.app.db.select({ assignee: leads.assignee }).from(leads).where(eq(leads.id, leadId));
    expect(lead?.assignee).toMatchObject({ name: 'Dmytro' });
    // The re-queued card is due at the task's (future) instant: bring it to now and let the worker send it.
    await t.app.db.update(deliveries).set({ nextAttemptAt: new Date() }).where(eq(deliveries.leadId, leadId));
    await t.app.deliveryWorker.drain();
    const second = await until(() => tg.messages.find((m) => m.chatId === dmytro.id && m.text.includes('Passed Lead')));
    expect(second.replyMarkup?.inline_keyboard.flat().map((b) => b.callback_data)).toEqual([
      `t:${leadId}`,
      `c:${leadId}`,
    ]);
    // Oksana's card now says whom it went to, and has no buttons left to press.
    const first = await until(() =>
      tg.messages.find(
        (m) => m.chatId === oksana.id && m.text.includes('Passed Lead') && m.text.includes('Передано далі'),
      ),
    );
    expect(first.text).toContain('Dmytro');
    expect(first.replyMarkup?.inline_keyboard.flat() ?? []).toEqual([]);
    // Two cards of the lead are known, so a press on either is recorded once for the lead.
    expect(await t.app.db.select().from(telegramCards).where(eq(telegramCards.leadId, leadId))).toHaveLength(2);
  });
});
