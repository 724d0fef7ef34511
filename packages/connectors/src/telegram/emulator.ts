// A stateful fake of the Telegram Bot API (core.telegram.org/bots/api) for our tests, the demo and
// the end-to-end suite (issue 19: the manager bot). Methods under /bot<token>/<method>, JSON or form
// bodies, answers as Telegram does: {ok:true,result} or {ok:false,error_code,description} (a 429
// with parameters.retry_after). It keeps bots (a token each), users with their private chats, the
// messages a bot sent (with every edit), and one webhook per bot, to which it delivers updates with
// the X-Telegram-Bot-Api-Secret-Token header, retrying (pending_update_count, last_error_message)
// until the receiver answers 2xx.
// Methods: getMe, setWebhook, deleteWebhook, getWebhookInfo, sendMessage, editMessageText,
// editMessageReplyMarkup, answerCallbackQuery. A user who blocked the bot gets 403 "Forbidden: bot
// was blocked by the user"; an unknown chat 400 "chat not found"; text with HTML Telegram cannot
// parse 400 "can't parse entities"; an edit that changes nothing 400 "message is not modified".
// Control API under /__emulator: reset, fault ({status, retryAfter, method?, times}), latency,
// bots (add a token), users (add a user), send (a user writes to the bot), press (a user presses an
// inline button: a callback query), block (a user blocks or unblocks the bot), state.
import Fastify from 'fastify';
import { createEmulatorKit, listenEmulator, registerControlRoutes } from '../kit/emulator-kit';

export interface TelegramFault {
  /** 429 answers "Too Many Requests: retry after N" with parameters.retry_after. */
  status: number;
  retryAfter?: number;
  /** Only this method (e.g. sendMessage); every method when absent. */
  method?: string;
  times?: number;
}

export interface TelegramUser {
  id: number;
  is_bot: false;
  first_name: string;
  username?: string;
  language_code?: string;
}

interface InlineButton {
  text: string;
  callback_data?: string;
  url?: string;
}

export interface EmulatedMessage {
  message_id: number;
  chatId: number;
  /** The bot's id (its token's number). */
  botId: number;
  text: string;
  parseMode?: string;
  replyMarkup?: { inline_keyboard: InlineButton[][] };
  date: number;
  /** Earlier versions, oldest first. */
  edits: { text: string; replyMarkup?: { inline_keyboard: InlineButton[][] }; at: number }[];
}

export interface EmulatedCallbackQuery {
  id: string;
  botId: number;
  from: TelegramUser;
  messageId: number;
  chatId: number;
  data: string;
  /** Set once the bot answered it (answerCallbackQuery). */
  answer?: { text?: string; showAlert?: boolean };
}

export interface TelegramRequest {
  botId: number | null;
  method: string;
  params: Record<string, unknown>;
  status: number;
  receivedAt: string;
}

interface Bot {
  id: number;
  token: string;
  username: string;
  firstName: string;
  webhook?: { url: string; secretToken?: string };
  pending: Record<string, unknown>[];
  lastErrorDate?: number;
  lastErrorMessage?: string;
  nextUpdateId: number;
}

export interface TelegramEmulatorOptions {
  port?: number;
  host?: string;
  /** Bot tokens known from the start (more through /__emulator/bots). */
  tokens?: string[];
  /** Between two deliveries of a webhook update the receiver refused (default 200 ms). */
  redeliverMs?: number;
}

export interface TelegramEmulator {
  url: string;
  port: number;
  /** The apiRoot to give a client: `${url}` (methods are at /bot<token>/<method>). */
  apiRoot: string;
  requests: TelegramRequest[];
  messages: EmulatedMessage[];
  callbackQueries: EmulatedCallbackQuery[];
  addBot(token: string, username?: string): void;
  addUser(user: Partial<TelegramUser> & { first_name: string }): TelegramUser;
  /** A user writes `text` to the bot; resolves once the webhook took the update (or gave up). */
  userSends(token: string, userId: number, text: string): Promise<void>;
  /** A user presses the inline button carrying `data` on a message; the callback query's id. */
  press(token: string, userId: number, messageId: number, data: string): Promise<string>;
  block(userId: number, botToken: string, blocked?: boolean): void;
  setFault(fault: TelegramFault | null): void;
  setLatency(ms: number): void;
  reset(): void;
  close(): Promise<void>;
}

/** Telegram's token shape: the bot's id, a colon, 35 characters. */
const TOKEN = /^(\d{1,20}):[A-Za-z0-9_-]{30,}$/;
const SECRET = /^[A-Za-z0-9_-]{1,256}$/;
const MAX_TEXT = 4096;
const MAX_CALLBACK_DATA = 64;
/** The tags Telegram's HTML parse mode takes. */
const HTML_TAGS = new Set([
  'b',
  'strong',
  'i',
  'em',
  'u',
  'ins',
  's',
  'strike',
  'del',
  'a',
  'code',
  'pre',
  'tg-spoiler',
  'span',
  'blockquote',
]);

class ApiError extends Error {
  constructor(
    readonly code: number,
    readonly description: string,
    readonly retryAfter?: number,
  ) {
    super(description);
  }
}

/** The text Telegram shows for HTML parse mode, or the error it answers. */
export function parseTelegramHtml(text: string): string {
  const open: string[] = [];
  let plain = '';
  let i = 0;
  while (i < text.length) {
    const c = text[i]!;
    if (c === '<') {
      const end = text.indexOf('>', i);
      if (end < 0) throw new ApiError(400, `Bad Request: can't parse entities: Unclosed start tag at byte offset ${i}`);
      const tag = text.slice(i + 1, end).trim();
      const closing = tag.startsWith('/');
      const name = (closing ? tag.slice(1) : tag).split(/\s/)[0]!.toLowerCase();
      if (!HTML_TAGS.has(name)) {
        throw new ApiError(
          400,
          `Bad Request: can't parse entities: Unsupported start tag "${name}" at byte offset ${i}`,
        );
      }
      if (closing) {
        if (open.pop() !== name) {
          throw new ApiError(400, `Bad Request: can't parse entities: Unmatched end tag at byte offset ${i}`);
        }
      } else open.push(name);
      i = end + 1;
      continue;
    }
    if (c === '&') {
      const m = /^&(lt|gt|amp|quot|#\d+|#x[0-9a-f]+);/i.exec(text.slice(i));
      if (!m)
        throw new ApiError(400, `Bad Request: can't parse entities: Character '&' is reserved at byte offset ${i}`);
      // own-keys: the pattern lets through lt, gt, amp, quot or a number only
      plain += ({ lt: '<', gt: '>', amp: '&', quot: '"' } as Record<string, string>)[m[1]!.toLowerCase()] ?? '?';
      i += m[0].length;
      continue;
    }
    plain += c;
    i += 1;
  }
  if (open.length)
    throw new ApiError(400, "Bad Request: can't parse entities: Can't find end tag corresponding to start tag");
  return plain;
}

function keyboardOf(value: unknown): { inline_keyboard: InlineButton[][] } | undefined {
  if (value === undefined || value === null || value === '') return undefined;
  const markup = typeof value === 'string' ? (JSON.parse(value) as unknown) : value;
  const rows = (markup as { inline_keyboard?: unknown })?.inline_keyboard;
  if (!Array.isArray(rows) || !rows.every(Array.isArray)) {
    throw new ApiError(400, 'Bad Request: inline keyboard expected');
  }
  for (const button of rows.flat() as InlineButton[]) {
    if (typeof button?.text !== 'string' || !button.text)
      throw new ApiError(400, 'Bad Request: text buttons are unallowed in the inline keyboard');
    if (button.callback_data !== undefined && Buffer.byteLength(String(button.callback_data)) > MAX_CALLBACK_DATA) {
      throw new ApiError(400, 'Bad Request: BUTTON_DATA_INVALID');
    }
  }
  return { inline_keyboard: rows as InlineButton[][] };
}

export async function startTelegramEmulator(options: TelegramEmulatorOptions = {}): Promise<TelegramEmulator> {
  const app = Fastify({ logger: false });
  const kit = createEmulatorKit<TelegramFault, TelegramRequest>({ maxLog: 10_000 });
  const redeliverMs = options.redeliverMs ?? 200;
  const bots = new Map<number, Bot>();
  const users = new Map<number, TelegramUser>();
  /** `${botId}:${userId}` of users who blocked a bot. */
  const blocked = new Set<string>();
  const messages: EmulatedMessage[] = [];
  const callbackQueries: EmulatedCallbackQuery[] = [];
  let nextMessageId = 1;
  let nextUserId = 100_000_001;
  let nextQueryId = 1;
  let closed = false;
  const now = () => Math.floor(Date.now() / 1000);

  const addBot = (token: string, username?: string) => {
    const m = TOKEN.exec(token);
    if (!m) throw new Error(`not a bot token: ${token}`);
    const id = Number(m[1]);
    if (bots.get(id)?.token === token) return;
    bots.set(id, {
      id,
      token,
      username: username ?? `leadrelay_${id}_bot`,
      firstName: 'LeadRelay',
      pending: [],
      nextUpdateId: 1,
    });
  };
  for (const token of options.tokens ?? []) addBot(token);

  const botOf = (token: string) => {
    const m = TOKEN.exec(token);
    const bot = m ? bots.get(Number(m[1])) : undefined;
    if (!bot || bot.token !== token) throw new ApiError(401, 'Unauthorized');
    return bot;
  };
  const userOf = (id: number) => {
    const user = users.get(id);
    if (!user) throw new Error(`no such user: ${id}`);
    return user;
  };
  const chatOf = (bot: Bot, chatId: unknown) => {
    const id = Number(chatId);
    const user = Number.isSafeInteger(id) ? users.get(id) : undefined;
    if (!user) throw new ApiError(400, 'Bad Request: chat not found');
    if (blocked.has(`${bot.id}:${id}`)) throw new ApiError(403, 'Forbidden: bot was blocked by the user');
    return user;
  };
  const chatView = (user: TelegramUser) => ({
    id: user.id,
    type: 'private',
    first_name: user.first_name,
    ...(user.username ? { username: user.username } : {}),
  });
  const messageView = (bot: Bot, m: EmulatedMessage) => ({
    message_id: m.message_id,
    from: { id: bot.id, is_bot: true, first_name: bot.firstName, username: bot.username },
    chat: chatView(userOf(m.chatId)),
    date: m.date,
    ...(m.edits.length ? { edit_date: m.edits.at(-1)!.at } : {}),
    text: m.text,
    ...(m.replyMarkup ? { reply_markup: m.replyMarkup } : {}),
  });
  const textOf = (params: Record<string, unknown>) => {
    const raw = String(params.text ?? '');
    const text = params.parse_mode === 'HTML' ? parseTelegramHtml(raw) : raw;
    if (!text.trim()) throw new ApiError(400, 'Bad Request: message text is empty');
    if (text.length > MAX_TEXT) throw new ApiError(400, 'Bad Request: message is too long');
    return text;
  };
  const messageOf = (bot: Bot, params: Record<string, unknown>) => {
    const user = chatOf(bot, params.chat_id);
    const m = messages.find(
      (x) => x.botId === bot.id && x.chatId === user.id && x.message_id === Number(params.message_id),
    );
    if (!m) throw new ApiError(400, 'Bad Request: message to edit not found');
    return m;
  };
  const edit = (m: EmulatedMessage, text: string, replyMarkup: EmulatedMessage['replyMarkup']) => {
    if (text === m.text && JSON.stringify(replyMarkup) === JSON.stringify(m.replyMarkup)) {
      throw new ApiError(
        400,
        'Bad Request: message is not modified: specified new message content and reply markup are exactly the same as a current content and reply markup of the message',
      );
    }
    m.edits.push({ text: m.text, replyMarkup: m.replyMarkup, at: now() });
    m.text = text;
    m.replyMarkup = replyMarkup;
  };

  const methods: Record<string, (bot: Bot, params: Record<string, unknown>) => unknown> = {
    getMe: (bot) => ({
      id: bot.id,
      is_bot: true,
      first_name: bot.firstName,
      username: bot.username,
      can_join_groups: true,
      can_read_all_group_messages: false,
      supports_inline_queries: false,
    }),
    setWebhook: (bot, params) => {
      const url = String(params.url ?? '');
      if (!url) {
        bot.webhook = undefined;
        return true;
      }
      if (!/^https?:\/\//.test(url))
        throw new ApiError(400, 'Bad Request: bad webhook: An HTTPS URL must be provided for webhook');
      const secretToken = params.secret_token === undefined ? undefined : String(params.secret_token);
      if (secretToken !== undefined && !SECRET.test(secretToken)) {
        throw new ApiError(400, 'Bad Request: bad webhook: secret token contains unallowed characters');
      }
      bot.webhook = { url, ...(secretToken ? { secretToken } : {}) };
      if (params.drop_pending_updates === true || params.drop_pending_updates === 'true') bot.pending = [];
      void flush(bot);
      return true;
    },
    deleteWebhook: (bot, params) => {
      bot.webhook = undefined;
      if (params.drop_pending_updates === true || params.drop_pending_updates === 'true') bot.pending = [];
      return true;
    },
    getWebhookInfo: (bot) => ({
      url: bot.webhook?.url ?? '',
      has_custom_certificate: false,
      pending_update_count: bot.pending.length,
      ...(bot.lastErrorDate ? { last_error_date: bot.lastErrorDate, last_error_message: bot.lastErrorMessage } : {}),
    }),
    sendMessage: (bot, params) => {
      const user = chatOf(bot, params.chat_id);
      const m: EmulatedMessage = {
        message_id: nextMessageId++,
        chatId: user.id,
        botId: bot.id,
        text: textOf(params),
        ...(params.parse_mode ? { parseMode: String(params.parse_mode) } : {}),
        replyMarkup: keyboardOf(params.reply_markup),
        date: now(),
        edits: [],
      };
      messages.push(m);
      return messageView(bot, m);
    },
    editMessageText: (bot, params) => {
      const m = messageOf(bot, params);
      edit(m, textOf(params), params.reply_markup === undefined ? undefined : keyboardOf(params.reply_markup));
      return messageView(bot, m);
    },
    editMessageReplyMarkup: (bot, params) => {
      const m = messageOf(bot, params);
      edit(m, m.text, keyboardOf(params.reply_markup));
      return messageView(bot, m);
    },
    answerCallbackQuery: (bot, params) => {
      const q = callbackQueries.find((x) => x.botId === bot.id && x.id === String(params.callback_query_id));
      if (!q || q.answer) {
        throw new ApiError(400, 'Bad Request: query is too old and response timeout expired or query ID is invalid');
      }
      q.answer = {
        ...(params.text ? { text: String(params.text) } : {}),
        ...(params.show_alert ? { showAlert: params.show_alert === true || params.show_alert === 'true' } : {}),
      };
      return true;
    },
  };

  /** Delivers the bot's pending updates in order; a refused one is tried again after redeliverMs. */
  const flushing = new Set<number>();
  /** Updates the webhook was called with at least once. */
  const attempted = new WeakSet<object>();
  async function flush(bot: Bot): Promise<void> {
    if (flushing.has(bot.id)) return;
    flushing.add(bot.id);
    try {
      while (!closed && bot.webhook && bot.pending.length) {
        const update = bot.pending[0]!;
        const { url, secretToken } = bot.webhook;
        let error: string | undefined;
        try {
          const res = await fetch(url, {
            method: 'POST',
            headers: {
              'content-type': 'application/json',
              ...(secretToken ? { 'x-telegram-bot-api-secret-token': secretToken } : {}),
            },
            body: JSON.stringify(update),
            signal: AbortSignal.timeout(10_000),
          });
          await res.arrayBuffer();
          if (!res.ok) error = `Wrong response from the webhook: ${res.status} ${res.statusText}`;
        } catch (e) {
          error = `Connection refused: ${(e as Error).message}`;
        }
        attempted.add(update);
        if (!error) {
          bot.pending.shift();
          continue;
        }
        bot.lastErrorDate = now();
        bot.lastErrorMessage = error;
        await kit.sleep(redeliverMs);
      }
    } finally {
      flushing.delete(bot.id);
    }
  }
  /**
   * Queues an update and waits until the webhook answered its first delivery (or there is no
   * webhook, or 10 s passed): a refused update stays pending and is delivered again.
   */
  async function deliver(bot: Bot, body: Record<string, unknown>): Promise<void> {
    const update = { update_id: bot.nextUpdateId++, ...body };
    bot.pending.push(update);
    void flush(bot);
    const deadline = Date.now() + 10_000;
    while (!closed && bot.webhook && !attempted.has(update) && Date.now() < deadline) await kit.sleep(5);
  }

  const emulator: TelegramEmulator = {
    url: '',
    port: 0,
    apiRoot: '',
    requests: kit.requests,
    messages,
    callbackQueries,
    addBot,
    addUser(user) {
      const full: TelegramUser = { id: user.id ?? nextUserId++, is_bot: false, ...user };
      users.set(full.id, full);
      return full;
    },
    async userSends(token, userId, text) {
      const bot = botOf(token);
      const user = userOf(userId);
      const command = /^\/[a-z_]+/i.exec(text);
      await deliver(bot, {
        message: {
          message_id: nextMessageId++,
          from: user,
          chat: chatView(user),
          date: now(),
          text,
          ...(command ? { entities: [{ type: 'bot_command', offset: 0, length: command[0].length }] } : {}),
        },
      });
    },
    async press(token, userId, messageId, data) {
      const bot = botOf(token);
      const user = userOf(userId);
      const m = messages.find((x) => x.botId === bot.id && x.message_id === messageId);
      if (!m) throw new Error(`no message ${messageId} of this bot`);
      if (!m.replyMarkup?.inline_keyboard.flat().some((b) => b.callback_data === data)) {
        throw new Error(`message ${messageId} has no button with data ${data}`);
      }
      const q: EmulatedCallbackQuery = {
        id: String(nextQueryId++),
        botId: bot.id,
        from: user,
        messageId,
        chatId: m.chatId,
        data,
      };
      callbackQueries.push(q);
      await deliver(bot, {
        callback_query: {
          id: q.id,
          from: user,
          message: messageView(bot, m),
          chat_instance: `${bot.id}${m.chatId}`,
          data,
        },
      });
      return q.id;
    },
    block(userId, token, isBlocked = true) {
      const key = `${botOf(token).id}:${userId}`;
      if (isBlocked) blocked.add(key);
      else blocked.delete(key);
    },
    setFault: kit.setFault,
    setLatency: kit.setLatency,
    reset() {
      kit.resetSwitches();
      messages.length = 0;
      callbackQueries.length = 0;
      blocked.clear();
      for (const bot of bots.values()) {
        bot.pending = [];
        bot.webhook = undefined;
        bot.lastErrorDate = undefined;
        bot.lastErrorMessage = undefined;
      }
    },
    async close() {
      closed = true;
      kit.clearTimers();
      await app.close();
    },
  };

  app.addContentTypeParser('application/x-www-form-urlencoded', { parseAs: 'string' }, (_req, body, done) =>
    done(null, Object.fromEntries(new URLSearchParams(String(body)))),
  );

  app.all('/bot:token/:method', async (req, reply) => {
    const { token, method } = req.params as { token: string; method: string };
    const params = {
      ...((req.query as Record<string, unknown>) ?? {}),
      ...((req.body && typeof req.body === 'object' ? req.body : {}) as Record<string, unknown>),
    };
    const entry = kit.log({
      botId: Number(TOKEN.exec(token)?.[1]) || null,
      method,
      params,
      status: 200,
      receivedAt: new Date().toISOString(),
    });
    await kit.delay();
    try {
      const bot = botOf(token);
      const fault = kit.takeFault((f) => !f.method || f.method === method);
      if (fault) {
        if (fault.status === 429) {
          throw new ApiError(429, `Too Many Requests: retry after ${fault.retryAfter ?? 1}`, fault.retryAfter ?? 1);
        }
        throw new ApiError(fault.status, fault.status >= 500 ? 'Internal Server Error' : 'Bad Request: emulated fault');
      }
      const handler = Object.hasOwn(methods, method) ? methods[method] : undefined;
      if (!handler) throw new ApiError(404, 'Not Found');
      return { ok: true, result: handler(bot, params) };
    } catch (error) {
      if (!(error instanceof ApiError)) throw error;
      entry.status = error.code;
      return reply.code(error.code).send({
        ok: false,
        error_code: error.code,
        description: error.description,
        ...(error.retryAfter !== undefined ? { parameters: { retry_after: error.retryAfter } } : {}),
      });
    }
  });

  registerControlRoutes(app, kit, { reset: () => emulator.reset() });
  const body = (req: { body: unknown }) => (req.body ?? {}) as Record<string, unknown>;
  app.post('/__emulator/bots', async (req) => {
    emulator.addBot(String(body(req).token ?? ''), body(req).username as string | undefined);
    return { ok: true };
  });
  app.post('/__emulator/users', async (req) => {
    const b = body(req);
    return emulator.addUser({
      first_name: String(b.first_name ?? 'Manager'),
      ...(b.id !== undefined ? { id: Number(b.id) } : {}),
      ...(b.username ? { username: String(b.username) } : {}),
      ...(b.language_code ? { language_code: String(b.language_code) } : {}),
    });
  });
  app.post('/__emulator/send', async (req) => {
    const b = body(req);
    await emulator.userSends(String(b.token), Number(b.userId), String(b.text ?? ''));
    return { ok: true };
  });
  app.post('/__emulator/press', async (req) => {
    const b = body(req);
    return {
      ok: true,
      callbackQueryId: await emulator.press(String(b.token), Number(b.userId), Number(b.messageId), String(b.data)),
    };
  });
  app.post('/__emulator/block', async (req) => {
    const b = body(req);
    emulator.block(Number(b.userId), String(b.token), b.blocked !== false);
    return { ok: true };
  });
  app.get('/__emulator/state', async () => ({
    bots: [...bots.values()].map((b) => ({
      id: b.id,
      username: b.username,
      webhook: b.webhook?.url ?? null,
      pending: b.pending.length,
    })),
    users: [...users.values()],
    messages,
    callbackQueries,
  }));

  const { port, url } = await listenEmulator(app, options);
  emulator.port = port;
  emulator.url = url;
  emulator.apiRoot = url;
  return emulator;
}
