// The only file of the Horoshop source that does HTTP (always through ctx.fetch). Horoshop's API is
// JSON POST to https://<shop>/api/<function>/ (the trailing slash is part of the path) with the token
// in the body, never in a header; answers are {status, response} inside HTTP 200 whatever happened,
// except hooks/*, which answer bare JSON with a meaningful HTTP status (201 made, 410 removed).
//
// Tokens live 600 s. A call renews the token when less than a minute of it is left, and once more
// when the shop answers UNAUTHORIZED anyway (its clock, a token revoked); a renewal goes through
// ctx.rotateAuth, so across every worker one renewal happens and the new token is stored sealed.
// A connection made with a token alone cannot renew it: once the shop refuses it, TOKEN_EXPIRED.
import { requiredText } from '@leadrelay/shared';
import { z } from 'zod';
import { fetchWithTrace } from '../kit/client-kit';
import { PermanentError, RetryableError } from '../kit/errors';
import { parseRetryAfter, redactUrl } from '../kit/http-errors';
import type { AttemptTrace, ConnectorContext } from '../kit/types';
import type { HoroshopOrder, HoroshopSettings } from './schema';

/**
 * What is stored (sealed) for a connection: the API admin's login and password, and/or a token.
 * `tokenExpiresAt` (epoch ms) is set for tokens we asked for; a token the user typed in has none.
 */
export const ZHoroshopAuth = z
  .object({
    login: requiredText().max(200).optional(),
    password: requiredText().max(500).optional(),
    token: requiredText().max(500).optional(),
    tokenExpiresAt: z.number().int().optional(),
  })
  .refine((a) => (!!a.login && !!a.password) || !!a.token, { message: 'REQUIRED' });
export type HoroshopAuth = z.infer<typeof ZHoroshopAuth>;
export type HoroshopContext = ConnectorContext<HoroshopAuth, HoroshopSettings>;

/** How long the shop keeps a token (external-apis 6.1 [C]). */
export const TOKEN_TTL_MS = 600_000;
/** A token with less than this left is renewed before the call, not after the shop refuses it. */
export const TOKEN_MARGIN_MS = 60_000;
/** The event whose webhook brings new orders. */
export const ORDER_EVENT = 'order_created';

const AUTH_STATUSES = new Set(['UNAUTHORIZED', 'AUTHORIZATION_ERROR']);
const MAX_MESSAGE = 300;

/** The reasons a Horoshop failure carries in `code` (the server turns them into HOROSHOP_* keys). */
export type HoroshopFailure =
  | 'AUTH'
  | 'TOKEN_EXPIRED'
  | 'NOT_A_SHOP'
  | 'REFUSED'
  | 'NOT_CONNECTED'
  | 'EXCEPTION'
  | 'RATE_LIMITED'
  | 'HTTP_5XX';

export const hasPassword = (auth: HoroshopAuth): boolean => !!auth.login && !!auth.password;

/** The shop's API base: the settings' shop address (ctx.baseUrl only in bare tests). */
export function shopUrlOf(ctx: HoroshopContext): string {
  const url = ctx.settings.shopUrl ?? ctx.baseUrl;
  if (!url) throw new PermanentError('The Horoshop shop is not connected yet', { code: 'NOT_CONNECTED' });
  return url.replace(/\/+$/, '');
}

interface Answer {
  httpStatus: number;
  /** Parsed JSON, or undefined when the body was empty or not JSON. */
  body: unknown;
  isJson: boolean;
  trace: AttemptTrace;
}

const isRecord = (v: unknown): v is Record<string, unknown> => !!v && typeof v === 'object' && !Array.isArray(v);

/** The shop's own words, with our secrets taken out should it echo them. */
function shopMessage(ctx: HoroshopContext, body: unknown): string {
  const response = isRecord(body) ? body.response : undefined;
  const raw = isRecord(response) && typeof response.message === 'string' ? response.message : '';
  let text = raw.replace(/\s+/g, ' ').trim().slice(0, MAX_MESSAGE);
  for (const secret of [ctx.auth.password, ctx.auth.token]) {
    if (secret && secret.length >= 4) text = text.split(secret).join('[redacted]');
  }
  return text;
}

/** The shop's own words about a failure (never ours, never a secret): what a screen shows beside our text. */
export function shopWordsOf(error: unknown): string | undefined {
  const words = (error as { shopWords?: unknown } | null)?.shopWords;
  return typeof words === 'string' && words ? words : undefined;
}

function withWords<E extends Error>(error: E, words: string): E {
  if (words) Object.assign(error, { shopWords: words });
  return error;
}

/** One POST to /api/<fn>/; network failures, 429 and 5xx throw retryable errors, the rest is answered. */
async function post(ctx: HoroshopContext, fn: string, payload: Record<string, unknown>): Promise<Answer> {
  const url = `${shopUrlOf(ctx)}/api/${fn}/`;
  const trace: AttemptTrace = { request: { method: 'POST', url: redactUrl(url) } };
  const res = await fetchWithTrace(
    ctx.fetch,
    url,
    {
      method: 'POST',
      headers: { 'content-type': 'application/json', accept: 'application/json' },
      body: JSON.stringify(payload),
      signal: ctx.signal,
    },
    trace,
  );
  let text: string;
  try {
    text = await res.text();
  } catch (err) {
    const timedOut = (err as Error).name === 'TimeoutError' || (err as Error).name === 'AbortError';
    throw new RetryableError(`${timedOut ? 'TIMEOUT' : 'NETWORK'}: the shop's answer did not arrive`, {
      ...trace,
      code: timedOut ? 'TIMEOUT' : 'NETWORK',
      httpStatus: res.status,
    });
  }
  const full: AttemptTrace = { ...trace, response: { status: res.status } };
  if (res.status === 429) {
    throw new RetryableError('The shop asks to slow down (HTTP 429)', {
      ...full,
      httpStatus: 429,
      code: 'RATE_LIMITED',
      retryAfterMs: parseRetryAfter(res.headers.get('retry-after')),
    });
  }
  if (res.status >= 500 || res.status === 408) {
    throw new RetryableError(`The shop answered HTTP ${res.status}`, {
      ...full,
      httpStatus: res.status,
      code: 'HTTP_5XX',
      retryAfterMs: parseRetryAfter(res.headers.get('retry-after')),
    });
  }
  try {
    return { httpStatus: res.status, body: text ? JSON.parse(text) : undefined, isJson: !!text, trace: full };
  } catch {
    return { httpStatus: res.status, body: undefined, isJson: false, trace: full };
  }
}

const statusOf = (answer: Answer): string | undefined =>
  isRecord(answer.body) && typeof answer.body.status === 'string' ? answer.body.status : undefined;

const isAuthRefusal = (answer: Answer) => AUTH_STATUSES.has(statusOf(answer) ?? '');

function notAShop(answer: Answer): PermanentError {
  return new PermanentError(`The address does not answer as a Horoshop API (HTTP ${answer.httpStatus})`, {
    ...answer.trace,
    httpStatus: answer.httpStatus,
    code: 'NOT_A_SHOP',
  });
}

/** The `response` of an enveloped answer; every status but OK, WARNING and EMPTY throws. */
function envelope(ctx: HoroshopContext, fn: string, answer: Answer): { status: string; response: unknown } {
  const status = statusOf(answer);
  // Every enveloped function answers {status, response}: anything else is not a Horoshop API.
  if (!status) throw notAShop(answer);
  const response = (answer.body as { response?: unknown }).response;
  if (status === 'OK' || status === 'WARNING' || status === 'EMPTY') return { status, response };
  const message = shopMessage(ctx, answer.body);
  const details = { ...answer.trace, httpStatus: answer.httpStatus };
  if (status === 'EXCEPTION') {
    throw withWords(
      new RetryableError(`Horoshop failed on ${fn}: ${message || status}`, { ...details, code: 'EXCEPTION' }),
      message,
    );
  }
  if (status === 'UNDEFINED_FUNCTION') {
    throw new PermanentError(`Horoshop has no function ${fn}`, { ...details, code: 'NOT_A_SHOP' });
  }
  if (AUTH_STATUSES.has(status)) {
    throw withWords(
      new PermanentError(`Horoshop refused the token: ${message || status}`, { ...details, code: 'AUTH' }),
      message,
    );
  }
  // ERROR (and anything unknown): a refusal inside HTTP 200.
  throw withWords(
    new PermanentError(`Horoshop refused ${fn}: ${message || status}`, { ...details, code: 'REFUSED' }),
    message,
  );
}

/** POST /api/auth/ with the login and password: a token that lives 600 s from the moment we asked. */
export async function signIn(ctx: HoroshopContext, auth: HoroshopAuth = ctx.auth): Promise<HoroshopAuth> {
  if (!hasPassword(auth)) {
    throw new PermanentError('The shop gave a token that has lapsed: connect with a login and password', {
      code: 'TOKEN_EXPIRED',
    });
  }
  const askedAt = Date.now();
  const answer = await post(ctx, 'auth', { login: auth.login, password: auth.password });
  const status = statusOf(answer);
  if (status === 'ERROR' || (status && AUTH_STATUSES.has(status))) {
    const message = shopMessage(ctx, answer.body);
    throw withWords(
      new PermanentError(`Horoshop refused the login and password${message ? `: ${message}` : ''}`, {
        ...answer.trace,
        httpStatus: answer.httpStatus,
        code: 'AUTH',
      }),
      message,
    );
  }
  const { response } = envelope(ctx, 'auth', answer);
  const token = isRecord(response) ? response.token : undefined;
  if (typeof token !== 'string' || !token) {
    throw new PermanentError('Horoshop answered the sign-in without a token', { ...answer.trace, code: 'NOT_A_SHOP' });
  }
  ctx.logger.debug({ shop: new URL(shopUrlOf(ctx)).host }, 'horoshop token issued');
  return { ...auth, token, tokenExpiresAt: askedAt + TOKEN_TTL_MS };
}

/** A token to call with: the stored one while it has a minute left, else a renewed one. */
async function tokenFor(ctx: HoroshopContext): Promise<string> {
  const { token, tokenExpiresAt } = ctx.auth;
  if (token && tokenExpiresAt !== undefined && tokenExpiresAt - TOKEN_MARGIN_MS > Date.now()) return token;
  // A token typed in has no known expiry: used until the shop refuses it, unless we can sign in.
  if (token && tokenExpiresAt === undefined && !hasPassword(ctx.auth)) return token;
  return renew(ctx);
}

/** Signs in again, once across every worker (ctx.rotateAuth), and keeps the new token on ctx. */
async function renew(ctx: HoroshopContext): Promise<string> {
  const stale = ctx.auth;
  if (!hasPassword(stale)) {
    throw new PermanentError('The shop no longer takes the token: connect with a login and password', {
      code: 'TOKEN_EXPIRED',
    });
  }
  const next = ctx.rotateAuth ? await ctx.rotateAuth(stale, (current) => signIn(ctx, current)) : await signIn(ctx);
  ctx.auth = next;
  if (!next.token) throw new PermanentError('Horoshop gave no token', { code: 'AUTH' });
  return next.token;
}

/**
 * One call with the token in its body: renewed before it lapses, and once more when the shop refuses
 * it anyway. The raw answer is returned (hooks/* are not enveloped); callers read it.
 */
async function call(ctx: HoroshopContext, fn: string, params: Record<string, unknown>): Promise<Answer> {
  let token = await tokenFor(ctx);
  let answer = await post(ctx, fn, { ...params, token });
  if (!isAuthRefusal(answer)) return answer;
  if (!hasPassword(ctx.auth)) {
    throw new PermanentError('The shop no longer takes the token: connect with a login and password', {
      ...answer.trace,
      code: 'TOKEN_EXPIRED',
    });
  }
  // Only renew when nobody did meanwhile: rotateAuth compares with what is stored.
  token = await renew(ctx);
  answer = await post(ctx, fn, { ...params, token });
  if (isAuthRefusal(answer)) {
    const message = shopMessage(ctx, answer.body);
    throw withWords(
      new PermanentError(`Horoshop refused a fresh token: ${message || 'UNAUTHORIZED'}`, {
        ...answer.trace,
        code: 'AUTH',
      }),
      message,
    );
  }
  return answer;
}

/** An enveloped function's `response` (OK, WARNING, EMPTY), or the classified failure. */
export async function callFunction(
  ctx: HoroshopContext,
  fn: string,
  params: Record<string, unknown> = {},
): Promise<{ status: string; response: unknown }> {
  return envelope(ctx, fn, await call(ctx, fn, params));
}

// ---- Orders ----

/** "YYYY-MM-DD HH:mm:ss" in Kyiv time: how orders/get takes `from` and `to` (Horoshop ≥ 3.30). */
export function shopDateTime(at: Date): string {
  let format: Intl.DateTimeFormat;
  try {
    format = new Intl.DateTimeFormat('en-CA', { timeZone: 'Europe/Kyiv', hourCycle: 'h23', ...PARTS });
  } catch {
    format = new Intl.DateTimeFormat('en-CA', { timeZone: 'Europe/Kiev', hourCycle: 'h23', ...PARTS });
  }
  const p = Object.fromEntries(format.formatToParts(at).map((x) => [x.type, x.value]));
  return `${p.year}-${p.month}-${p.day} ${p.hour}:${p.minute}:${p.second}`;
}
const PARTS = {
  year: 'numeric',
  month: '2-digit',
  day: '2-digit',
  hour: '2-digit',
  minute: '2-digit',
  second: '2-digit',
} as const;

/** One page of orders/get. EMPTY is an empty page. */
export async function ordersPage(
  ctx: HoroshopContext,
  query: { from?: Date; to?: Date; ids?: number[]; limit: number; offset: number },
): Promise<HoroshopOrder[]> {
  const { status, response } = await callFunction(ctx, 'orders/get', {
    ...(query.from ? { from: shopDateTime(query.from) } : {}),
    ...(query.to ? { to: shopDateTime(query.to) } : {}),
    ...(query.ids ? { ids: query.ids } : {}),
    // offset is ignored without limit (external-apis 6.2 [C]): limit always goes.
    limit: query.limit,
    offset: query.offset,
  });
  if (status === 'EMPTY' || !isRecord(response) || !Array.isArray(response.orders)) return [];
  return response.orders.filter(isRecord) as HoroshopOrder[];
}

/**
 * Orders created since `from` (inclusive), page by page. `isComplete` is false when maxPages ran
 * out first: the caller must not move its cursor past orders it has not seen.
 */
export async function ordersSince(
  ctx: HoroshopContext,
  from: Date,
  options: { pageSize?: number; maxPages?: number } = {},
): Promise<{ orders: HoroshopOrder[]; isComplete: boolean }> {
  const pageSize = options.pageSize ?? 100;
  const maxPages = options.maxPages ?? 50;
  const orders: HoroshopOrder[] = [];
  for (let page = 0; page < maxPages; page++) {
    const batch = await ordersPage(ctx, { from, limit: pageSize, offset: page * pageSize });
    orders.push(...batch);
    if (batch.length < pageSize) return { orders, isComplete: true };
  }
  return { orders, isComplete: false };
}

/** orders/get_available_statuses (Horoshop ≥ 4.0): the shop's order statuses. */
export async function orderStatuses(ctx: HoroshopContext): Promise<{ id: string; title: string }[]> {
  const { response } = await callFunction(ctx, 'orders/get_available_statuses');
  const list = isRecord(response) && Array.isArray(response.statuses) ? response.statuses : [];
  return list.filter(isRecord).map((s) => {
    const title = s.title;
    const text = typeof title === 'string' ? title : isRecord(title) ? (title.ua ?? title.uk ?? title.ru ?? '') : '';
    return { id: String(s.id ?? ''), title: String(text) };
  });
}

/** A cheap call that proves the address is a Horoshop API and the token (or login) is taken. */
export async function checkAccess(ctx: HoroshopContext): Promise<void> {
  await ordersPage(ctx, { limit: 1, offset: 0 });
}

// ---- Webhooks (hooks/subscribe, hooks/unSubscribe: not enveloped) ----

/** Registers `targetUrl` for `event`; Horoshop answers 201 {id}. */
export async function subscribe(ctx: HoroshopContext, targetUrl: string, event = ORDER_EVENT): Promise<{ id: string }> {
  const answer = await call(ctx, 'hooks/subscribe', { event, target_url: targetUrl });
  if (statusOf(answer)) envelope(ctx, 'hooks/subscribe', answer);
  const id = isRecord(answer.body) ? answer.body.id : undefined;
  if (answer.httpStatus >= 200 && answer.httpStatus < 300 && (typeof id === 'number' || typeof id === 'string')) {
    return { id: String(id) };
  }
  if (!answer.isJson || answer.httpStatus === 404) throw notAShop(answer);
  throw new PermanentError(`Horoshop did not register the webhook (HTTP ${answer.httpStatus})`, {
    ...answer.trace,
    httpStatus: answer.httpStatus,
    code: 'REFUSED',
  });
}

/** Removes a subscription; 410 Gone is Horoshop's success. One the shop no longer knows counts as removed. */
export async function unsubscribe(ctx: HoroshopContext, id: string, targetUrl: string): Promise<void> {
  const numeric = /^\d+$/.test(id) ? Number(id) : id;
  const answer = await call(ctx, 'hooks/unSubscribe', { id: numeric, target_url: targetUrl });
  if (answer.httpStatus === 410 || answer.httpStatus === 404) return;
  if (statusOf(answer)) {
    envelope(ctx, 'hooks/unSubscribe', answer);
    return;
  }
  if (answer.httpStatus >= 200 && answer.httpStatus < 300) return;
  throw new PermanentError(`Horoshop did not remove the webhook (HTTP ${answer.httpStatus})`, {
    ...answer.trace,
    httpStatus: answer.httpStatus,
    code: 'REFUSED',
  });
}
