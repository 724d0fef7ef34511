// The Telegram Bot API emulator as grammY (the framework the manager bot is built on) sees it:
// calls through grammY's Api with the emulator as apiRoot, updates through grammY's own webhook
// handler guarded by the secret token.
import Fastify, { type FastifyInstance } from 'fastify';
import { Bot, GrammyError, InlineKeyboard, webhookCallback } from 'grammy';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { parseTelegramHtml, startTelegramEmulator, type TelegramEmulator } from './emulator';

const TOKEN = '7000000001:AAH-emulated-token-0123456789abcdefghij';
const SECRET = 'webhook-secret_42';
let tg: TelegramEmulator;
let receiver: FastifyInstance;
let bot: Bot;
/** What the bot's handlers saw. */
const seen: { starts: string[]; presses: { data: string; from: number }[] } = { starts: [], presses: [] };

beforeAll(async () => {
  tg = await startTelegramEmulator({ tokens: [TOKEN], redeliverMs: 50 });
  bot = new Bot(TOKEN, { client: { apiRoot: tg.apiRoot } });
  bot.command('start', async (ctx) => {
    seen.starts.push(ctx.match);
    await ctx.reply(`Linked: <b>${ctx.match}</b>`, { parse_mode: 'HTML' });
  });
  bot.on('callback_query:data', async (ctx) => {
    seen.presses.push({ data: ctx.callbackQuery.data, from: ctx.from.id });
    await ctx.answerCallbackQuery({ text: 'Taken' });
    await ctx.editMessageText(`${ctx.callbackQuery.message?.text ?? ''}\nTaken by ${ctx.from.first_name}`);
  });
  receiver = Fastify();
  receiver.post('/telegram', webhookCallback(bot, 'fastify', { secretToken: SECRET }));
  await receiver.listen({ port: 0, host: '127.0.0.1' });
});
afterAll(async () => {
  await receiver.close();
  await tg.close();
});
afterEach(() => {
  tg.setFault(null);
});

const receiverUrl = () => `http://127.0.0.1:${(receiver.server.address() as { port: number }).port}/telegram`;

describe('Telegram Bot API emulator', () => {
  it('knows its bots: getMe for the token, 401 for a forged one', async () => {
    const me = await bot.api.getMe();
    expect(me).toMatchObject({ id: 7000000001, is_bot: true });
    const forged = new Bot('7000000001:AAH-not-the-token-0123456789abcdefghij', { client: { apiRoot: tg.apiRoot } });
    await expect(forged.api.getMe()).rejects.toMatchObject({ error_code: 401, description: 'Unauthorized' });
  });

  it('delivers a user’s /start with a code to the webhook with the secret header, and shows the reply', async () => {
    await bot.api.setWebhook(receiverUrl(), { secret_token: SECRET });
    const user = tg.addUser({ first_name: 'Olena', language_code: 'uk' });
    await tg.userSends(TOKEN, user.id, '/start LINK-7Q2X');
    expect(seen.starts).toEqual(['LINK-7Q2X']);
    const reply = tg.messages.find((m) => m.chatId === user.id);
    expect(reply).toMatchObject({ text: 'Linked: LINK-7Q2X', parseMode: 'HTML' });
    expect((await bot.api.getWebhookInfo()).pending_update_count).toBe(0);
  });

  it('refuses a webhook receiver without the secret: grammY answers 401 and the update stays pending', async () => {
    await bot.api.setWebhook(receiverUrl(), { secret_token: 'another-secret' });
    const user = tg.addUser({ first_name: 'Taras' });
    await tg.userSends(TOKEN, user.id, '/start NOPE');
    const info = await bot.api.getWebhookInfo();
    expect(info.pending_update_count).toBe(1);
    expect(info.last_error_message).toContain('401');
    expect(seen.starts).not.toContain('NOPE');
    // With the right secret the pending update arrives.
    await bot.api.setWebhook(receiverUrl(), { secret_token: SECRET });
    for (let i = 0; i < 50 && !seen.starts.includes('NOPE'); i++) await new Promise((r) => setTimeout(r, 20));
    expect(seen.starts).toContain('NOPE');
  });

  it('sends a card with buttons; a press reaches the bot, which answers and edits the card', async () => {
    await bot.api.setWebhook(receiverUrl(), { secret_token: SECRET });
    const user = tg.addUser({ first_name: 'Iryna' });
    const card = await bot.api.sendMessage(
      user.id,
      '<b>New lead</b>\nOlha, <a href="tel:+380501234567">+380 50 123 4567</a>',
      {
        parse_mode: 'HTML',
        reply_markup: new InlineKeyboard().text('Беру', 'take:1').text('Передзвонив', 'called:1'),
      },
    );
    expect(card.text).toBe('New lead\nOlha, +380 50 123 4567');
    const queryId = await tg.press(TOKEN, user.id, card.message_id, 'take:1');
    expect(seen.presses.at(-1)).toEqual({ data: 'take:1', from: user.id });
    const stored = tg.messages.find((m) => m.message_id === card.message_id)!;
    expect(stored.text).toBe('New lead\nOlha, +380 50 123 4567\nTaken by Iryna');
    expect(stored.edits).toHaveLength(1);
    expect(tg.callbackQueries.find((q) => q.id === queryId)?.answer).toEqual({ text: 'Taken' });
    // An answer twice, or an edit that changes nothing, is refused as Telegram does.
    await expect(bot.api.answerCallbackQuery(queryId)).rejects.toMatchObject({ error_code: 400 });
    await expect(bot.api.editMessageText(user.id, card.message_id, stored.text)).rejects.toThrow(/not modified/);
  });

  it('answers 429 with retry_after, 403 for a user who blocked the bot, 400 for HTML it cannot parse', async () => {
    const user = tg.addUser({ first_name: 'Petro' });
    tg.setFault({ status: 429, retryAfter: 3, method: 'sendMessage', times: 1 });
    const limited = await bot.api.sendMessage(user.id, 'hello').catch((e: unknown) => e);
    expect(limited).toBeInstanceOf(GrammyError);
    expect(limited).toMatchObject({ error_code: 429, parameters: { retry_after: 3 } });
    // The fault was spent: the next call goes through.
    await expect(bot.api.sendMessage(user.id, 'hello')).resolves.toMatchObject({ text: 'hello' });

    tg.block(user.id, TOKEN);
    await expect(bot.api.sendMessage(user.id, 'hello')).rejects.toMatchObject({
      error_code: 403,
      description: 'Forbidden: bot was blocked by the user',
    });
    tg.block(user.id, TOKEN, false);

    await expect(bot.api.sendMessage(user.id, 'Tom & Jerry <3', { parse_mode: 'HTML' })).rejects.toThrow(
      /can't parse entities/,
    );
    await expect(bot.api.sendMessage(999, 'hello')).rejects.toMatchObject({
      description: 'Bad Request: chat not found',
    });
  });
});

describe('Telegram HTML', () => {
  it('reads the tags and entities Telegram takes and refuses the rest', () => {
    expect(parseTelegramHtml('<b>Лід</b> &amp; <i>форма</i> &lt;1&gt;')).toBe('Лід & форма <1>');
    expect(() => parseTelegramHtml('<div>x</div>')).toThrow(/Unsupported start tag/);
    expect(() => parseTelegramHtml('<b>x')).toThrow(/end tag/);
    expect(() => parseTelegramHtml('<b>x</i>')).toThrow(/Unmatched end tag/);
  });
});
