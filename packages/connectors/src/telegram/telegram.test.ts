// The Telegram destination against the Bot API emulator: the card a manager gets (their language,
// HTML escaped, the phone a tel: link, the two buttons), a 429 waited out by its retry_after, a
// manager who blocked the bot failing their card only, and an escalation's earlier card edited.
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { describeConnectorContract, SAMPLE_LEAD } from '../kit/contract';
import { PermanentError, RetryableError } from '../kit/errors';
import { createSafeFetch } from '../kit/safe-fetch';
import type { ConnectorContext } from '../kit/types';
import { startTelegramEmulator, type TelegramEmulator } from './emulator';
import { parseCallbackData, type TelegramAuth, type TelegramDelivery, type TelegramRecord, telegram } from './index';

const TOKEN = '7000000002:AAH-connector-test-token-0123456789abcd';
const LEAD_ID = '3f1c2a6e-9b7d-4c1e-8a2b-5d6e7f809a1b';
let tg: TelegramEmulator;

beforeAll(async () => {
  tg = await startTelegramEmulator({ tokens: [TOKEN] });
});
afterAll(() => tg.close());
afterEach(() => tg.setFault(null));

const auth: TelegramAuth = {
  kind: 'own',
  botToken: TOKEN,
  webhookSecret: 'a-webhook-secret-of-enough-length',
  bot: { id: 7000000002, is_bot: true, first_name: 'LeadRelay', username: 'leadrelay_test_bot' },
};
const ctx = (): ConnectorContext<TelegramAuth, Record<string, never>> => ({
  auth,
  settings: {},
  baseUrl: tg.apiRoot,
  fetch,
  logger: { debug() {}, info() {}, warn() {} },
  signal: AbortSignal.timeout(10_000),
});
const extra = (chatId: number, language: 'uk' | 'en', others: TelegramDelivery['others'] = []): TelegramDelivery => ({
  leadId: LEAD_ID,
  leadUrl: 'https://app.leadrelay.test/admin/integrations/webhook/abc?lead=1&x=<2>',
  sourceName: 'Landing <"Spring"> & Co',
  recipient: { itemId: 'item-1', name: 'Olena', chatId, language },
  others,
});
const lead = {
  name: 'Taras <script>alert(1)</script>',
  phone: '+380 50 123 45 67',
  email: 'taras@example.com',
  utm: { source: 'facebook', campaign: 'spring & sale' },
  custom: { budget: '< 1000 $' },
};
const deliver = (e: TelegramDelivery) =>
  telegram.deliver!(ctx(), { lead, idempotencyKey: 'k', assignee: { id: 'u1', name: 'Olena' }, extra: e });

// The contract every destination passes (issue 29: Telegram too). A card is a message: Telegram has
// no idempotency key, so a repeat after a lost result is a second card (dedupes: false).
describeConnectorContract('telegram', async () => {
  const emulator = await startTelegramEmulator({ tokens: [TOKEN] });
  const manager = emulator.addUser({ first_name: 'Olena', language_code: 'uk' });
  const timeoutMs = 1000;
  const safeFetch = createSafeFetch({ allowPrivate: true, timeoutMs });
  return {
    connector: telegram,
    ctx: ({ logger, signal }) => ({ auth, settings: {}, baseUrl: emulator.apiRoot, fetch: safeFetch, logger, signal }),
    emulator: {
      recordCount: () => emulator.messages.length,
      setLatency: (ms) => emulator.setLatency(ms),
      setFault: (fault) => emulator.setFault(fault),
      reset: () => emulator.reset(),
      close: () => emulator.close(),
    },
    secrets: [TOKEN, auth.webhookSecret],
    timeoutMs,
    dedupes: false,
    input: (idempotencyKey) => ({
      lead: SAMPLE_LEAD,
      idempotencyKey,
      assignee: { id: 'u1', name: 'Olena' },
      extra: extra(manager.id, 'uk'),
    }),
  };
});

describe('telegram destination', () => {
  it('sends the assignee a Ukrainian card: escaped values, a tel: link, the lead link and both buttons', async () => {
    const manager = tg.addUser({ first_name: 'Olena', language_code: 'uk' });
    const result = await deliver(extra(manager.id, 'uk'));
    const card = tg.messages.find((m) => m.chatId === manager.id)!;
    expect(result.externalId).toBe(String(card.message_id));
    expect(card.parseMode).toBe('HTML');
    // The emulator parses Telegram's HTML: what the manager reads is the plain text.
    expect(card.text).toContain('Новий лід');
    expect(card.text).toContain('Ім’я: Taras <script>alert(1)</script>');
    expect(card.text).toContain('Джерело: Landing <"Spring"> & Co');
    expect(card.text).toContain('budget: < 1000 $');
    expect(card.text).toContain('campaign=spring & sale');
    expect(card.text).toContain('Відкрити в LeadRelay');
    const sent = tg.requests.find((r) => r.method === 'sendMessage' && Number(r.params.chat_id) === manager.id)!;
    expect(String(sent.params.text)).toContain('<a href="tel:+380501234567">+380 50 123 45 67</a>');
    expect(String(sent.params.text)).toContain(
      'href="https://app.leadrelay.test/admin/integrations/webhook/abc?lead=1&amp;x=&lt;2&gt;"',
    );
    const buttons = card.replyMarkup!.inline_keyboard.flat();
    expect(buttons.map((b) => b.text)).toEqual(['Беру', 'Передзвонив']);
    expect(buttons.map((b) => parseCallbackData(b.callback_data))).toEqual([
      { action: 't', leadId: LEAD_ID },
      { action: 'c', leadId: LEAD_ID },
    ]);
    expect(result.records).toEqual([
      expect.objectContaining({ kind: 'card', chatId: manager.id, messageId: card.message_id, itemId: 'item-1' }),
    ]);
  });

  it('writes the card in English for an English-speaking manager', async () => {
    const manager = tg.addUser({ first_name: 'John', language_code: 'en' });
    await deliver(extra(manager.id, 'en'));
    const card = tg.messages.find((m) => m.chatId === manager.id)!;
    expect(card.text).toContain('New lead');
    expect(card.replyMarkup!.inline_keyboard.flat().map((b) => b.text)).toEqual(['Take it', 'Called back']);
  });

  it('waits out a 429 for its retry_after, and sends nothing meanwhile', async () => {
    const manager = tg.addUser({ first_name: 'Iryna' });
    tg.setFault({ status: 429, retryAfter: 7, method: 'sendMessage', times: 1 });
    const error = await deliver(extra(manager.id, 'uk')).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(RetryableError);
    expect(error).toMatchObject({ retryAfterMs: 7000, httpStatus: 429 });
    expect(tg.messages.some((m) => m.chatId === manager.id)).toBe(false);
    // The next attempt goes through.
    await deliver(extra(manager.id, 'uk'));
    expect(tg.messages.filter((m) => m.chatId === manager.id)).toHaveLength(1);
  });

  it('fails only the card of a manager who blocked the bot, without marking the connection broken', async () => {
    const blocker = tg.addUser({ first_name: 'Blocker' });
    const other = tg.addUser({ first_name: 'Other' });
    tg.block(blocker.id, TOKEN);
    const error = await deliver(extra(blocker.id, 'uk')).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(PermanentError);
    // Not AUTH or CONFIGURATION: the engine keeps the destination working for everybody else.
    expect(error).toMatchObject({ code: 'TELEGRAM_BLOCKED' });
    await expect(deliver(extra(other.id, 'uk'))).resolves.toMatchObject({ externalId: expect.any(String) });
  });

  it('refuses a lead without an assignee or with one not linked: a coded error, not a crash', async () => {
    const none: TelegramDelivery = { ...extra(1, 'uk'), recipient: { problem: 'TELEGRAM_NO_ASSIGNEE' } };
    await expect(deliver(none)).rejects.toMatchObject({
      code: 'TELEGRAM_NO_ASSIGNEE',
      message: 'TELEGRAM_NO_ASSIGNEE',
    });
    const unlinked: TelegramDelivery = {
      ...extra(1, 'uk'),
      recipient: { problem: 'TELEGRAM_NOT_LINKED', name: 'Petro' },
    };
    await expect(deliver(unlinked)).rejects.toMatchObject({
      code: 'TELEGRAM_NOT_LINKED',
      message: 'TELEGRAM_NOT_LINKED: Petro',
    });
  });

  it('on a reassignment sends the new manager a card and edits the earlier one to say it was passed on', async () => {
    const first = tg.addUser({ first_name: 'First' });
    const second = tg.addUser({ first_name: 'Second' });
    const r1 = await deliver(extra(first.id, 'uk'));
    const old = (r1.records as TelegramRecord[])[0]! as Extract<TelegramRecord, { kind: 'card' }>;
    const r2 = await deliver({
      ...extra(second.id, 'en'),
      recipient: { itemId: 'item-2', name: 'Second', chatId: second.id, language: 'en' },
      others: [{ chatId: first.id, messageId: old.messageId, language: 'uk', text: old.text }],
    });
    expect(r2.records).toContainEqual({ kind: 'passed', leadId: LEAD_ID, chatId: first.id, messageId: old.messageId });
    const edited = tg.messages.find((m) => m.message_id === old.messageId)!;
    expect(edited.text).toContain('Передано далі: Second');
    expect(edited.replyMarkup).toBeUndefined();
    expect(tg.messages.some((m) => m.chatId === second.id && m.text.includes('New lead'))).toBe(true);
  });

  it('checks an own bot’s token with getMe', async () => {
    await expect(telegram.testConnection!(ctx())).resolves.toBeUndefined();
    const forged = { ...ctx(), auth: { ...auth, botToken: '7000000002:AAH-forged-token-0123456789abcdefghijk' } };
    await expect(telegram.testConnection!(forged)).rejects.toMatchObject({ code: 'AUTH' });
  });
});

describe('a card button press', () => {
  it('reads the action in any case as one of ours (it indexes the reaction kinds)', () => {
    const id = '0b7f4a56-1c2d-4e5f-8a9b-0c1d2e3f4a5b';
    expect(parseCallbackData(`T:${id}`)).toEqual({ action: 't', leadId: id });
    expect(parseCallbackData(`C:${id.toUpperCase()}`)).toEqual({ action: 'c', leadId: id });
    expect(parseCallbackData(`x:${id}`)).toBeNull();
  });
});
