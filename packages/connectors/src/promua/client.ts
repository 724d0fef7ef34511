// The only file of the Prom.ua source that does HTTP (always through ctx.fetch). Prom's public API
// v1 is JSON over GET with the merchant's token as `Authorization: Bearer <token>` at
// https://my.prom.ua/api/v1 (the operator's PROMUA_API_URL; our emulator in tests and demos).
//
// Orders: GET /orders/list?date_from=…&limit=…&last_id=… answers {orders: [...]}, newest first; the
// next page is asked for with last_id (orders with ids no higher than it). GET /orders/{id} answers
// {order}. 401/403: the token is wrong, revoked or lacks the orders permission. 429 and 5xx are
// waited out a few times within one call (Retry-After honoured, bounded), then left to the next poll.

import { fetchWithTrace, sleep } from '../kit/client-kit';
import { PermanentError, RetryableError } from '../kit/errors';
import { parseRetryAfter, redactUrl } from '../kit/http-errors';
import type { AttemptTrace, ConnectorContext } from '../kit/types';
import { type PromOrder, promOrderId } from './mapping';
import type { PromuaAuth, PromuaSettings } from './schema';

export type PromuaContext = ConnectorContext<PromuaAuth, PromuaSettings>;

/** Prom's public API when the operator configures none. */
export const PROMUA_API_URL = 'https://my.prom.ua/api/v1';
/** Orders per page: Prom's documented maximum is assumed to be 100 (docs/connectors/promua.md). */
export const PAGE_SIZE = 100;
/** A 429 or 5xx is tried again this many times within one call before the poll gives up until its next run. */
export const RETRIES = 2;
/** However long Prom asks us to wait, one call waits at most this long before the next try. */
export const MAX_WAIT_MS = 5_000;
const MAX_WORDS = 300;

/** The reasons a Prom failure carries in `code` (source.ts turns them into PROMUA_* keys). */
export type PromuaFailure = 'AUTH' | 'REFUSED' | 'NOT_PROM' | 'RATE_LIMITED' | 'HTTP_5XX' | 'NETWORK' | 'TIMEOUT';

const isRecord = (v: unknown): v is Record<string, unknown> => !!v && typeof v === 'object' && !Array.isArray(v);

/** Prom's own words about a failure (never ours, never the token): what a screen shows beside our text. */
export function promWordsOf(error: unknown): string | undefined {
  const words = (error as { promWords?: unknown } | null)?.promWords;
  return typeof words === 'string' && words ? words : undefined;
}

/** The words of an error body ({error} or {message}, assumed), with the token taken out should Prom echo it. */
function wordsOf(ctx: Pick<PromuaContext, 'auth'>, body: unknown): string {
  const raw = isRecord(body) ? (body.error ?? body.message ?? body.detail) : undefined;
  let words = typeof raw === 'string' ? raw.replace(/\s+/g, ' ').trim().slice(0, MAX_WORDS) : '';
  const token = ctx.auth?.token;
  if (token && token.length >= 4) words = words.split(token).join('[redacted]');
  return words;
}

function withWords<E extends Error>(error: E, words: string): E {
  if (words) Object.assign(error, { promWords: words });
  return error;
}

function apiUrl(ctx: PromuaContext, path: string, query: Record<string, string | number | undefined>): string {
  const base = (ctx.baseUrl ?? PROMUA_API_URL).replace(/\/+$/, '');
  const params = new URLSearchParams();
  for (const [key, value] of Object.entries(query)) if (value !== undefined) params.set(key, String(value));
  const qs = params.toString();
  return `${base}${path}${qs ? `?${qs}` : ''}`;
}

/** One GET, classified: 2xx JSON is answered; 401/403 AUTH; other 4xx REFUSED; 429, 5xx, network retryable. */
async function getOnce(ctx: PromuaContext, url: string): Promise<unknown> {
  const trace: AttemptTrace = { request: { method: 'GET', url: redactUrl(url) } };
  const res = await fetchWithTrace(
    ctx.fetch,
    url,
    {
      method: 'GET',
      headers: { authorization: `Bearer ${ctx.auth.token}`, accept: 'application/json', 'x-language': 'uk' },
      signal: ctx.signal,
    },
    trace,
  );
  let text: string;
  try {
    text = await res.text();
  } catch (err) {
    const timedOut = (err as Error).name === 'TimeoutError' || (err as Error).name === 'AbortError';
    throw new RetryableError(`${timedOut ? 'TIMEOUT' : 'NETWORK'}: Prom's answer did not arrive`, {
      ...trace,
      code: timedOut ? 'TIMEOUT' : 'NETWORK',
      httpStatus: res.status,
    });
  }
  const full: AttemptTrace = { ...trace, response: { status: res.status } };
  let body: unknown;
  try {
    body = text ? JSON.parse(text) : undefined;
  } catch {
    body = undefined;
  }
  const retryAfterMs = parseRetryAfter(res.headers.get('retry-after'));
  if (res.status === 429) {
    throw new RetryableError('Prom asks to slow down (HTTP 429)', {
      ...full,
      httpStatus: 429,
      code: 'RATE_LIMITED',
      retryAfterMs,
    });
  }
  if (res.status >= 500 || res.status === 408) {
    throw new RetryableError(`Prom answered HTTP ${res.status}`, {
      ...full,
      httpStatus: res.status,
      code: 'HTTP_5XX',
      retryAfterMs,
    });
  }
  if (res.status === 401 || res.status === 403) {
    const words = wordsOf(ctx, body);
    throw withWords(
      new PermanentError(`Prom refused the token (HTTP ${res.status})${words ? `: ${words}` : ''}`, {
        ...full,
        httpStatus: res.status,
        code: 'AUTH',
      }),
      words,
    );
  }
  if (res.status < 200 || res.status >= 300) {
    const words = wordsOf(ctx, body);
    throw withWords(
      new PermanentError(`Prom refused the request (HTTP ${res.status})${words ? `: ${words}` : ''}`, {
        ...full,
        httpStatus: res.status,
        code: res.status === 404 ? 'NOT_PROM' : 'REFUSED',
      }),
      words,
    );
  }
  if (!isRecord(body)) {
    throw new PermanentError(`The address does not answer as Prom's API (HTTP ${res.status})`, {
      ...full,
      httpStatus: res.status,
      code: 'NOT_PROM',
    });
  }
  return body;
}

/** A GET tried again after a 429 or 5xx, waiting what Prom asks (bounded) or a growing pause. */
async function get(ctx: PromuaContext, path: string, query: Record<string, string | number | undefined> = {}) {
  const url = apiUrl(ctx, path, query);
  for (let attempt = 0; ; attempt++) {
    try {
      return await getOnce(ctx, url);
    } catch (error) {
      const isLimited = error instanceof RetryableError && (error.code === 'RATE_LIMITED' || error.code === 'HTTP_5XX');
      if (!isLimited || attempt >= RETRIES) throw error;
      const wait = Math.min(error.retryAfterMs ?? 500 * 2 ** attempt, MAX_WAIT_MS);
      ctx.logger.debug({ attempt, wait, status: error.httpStatus }, 'prom asked to wait; trying again');
      await sleep(wait, ctx.signal);
    }
  }
}

/** "YYYY-MM-DDTHH:mm:ss" in UTC, as Prom's date filters take it (its example: 2015-04-28T12:50:34). */
export function promDateTime(at: Date): string {
  return at.toISOString().slice(0, 19);
}

/** One page of orders/list, newest first. */
export async function ordersPage(
  ctx: PromuaContext,
  query: { dateFrom?: Date; lastId?: string; limit: number },
): Promise<PromOrder[]> {
  const body = (await get(ctx, '/orders/list', {
    date_from: query.dateFrom ? promDateTime(query.dateFrom) : undefined,
    last_id: query.lastId,
    limit: query.limit,
  })) as Record<string, unknown>;
  if (!Array.isArray(body.orders)) {
    throw new PermanentError("The answer has no orders: not Prom's API", { code: 'NOT_PROM' });
  }
  return body.orders.filter((o): o is PromOrder => isRecord(o) && promOrderId(o.id) !== undefined);
}

/**
 * Orders created since `from`, newest first, page by page down the ids. `isComplete` is false when
 * maxPages ran out first: the caller must not move its cursor past orders it has not seen.
 */
export async function ordersSince(
  ctx: PromuaContext,
  from: Date,
  options: { pageSize?: number; maxPages?: number } = {},
): Promise<{ orders: PromOrder[]; isComplete: boolean }> {
  const pageSize = options.pageSize ?? PAGE_SIZE;
  const maxPages = options.maxPages ?? 50;
  // By id: whether last_id counts itself or not, an order read twice is kept once.
  const byId = new Map<string, PromOrder>();
  let lastId: string | undefined;
  for (let page = 0; page < maxPages; page++) {
    const batch = await ordersPage(ctx, { dateFrom: from, lastId, limit: pageSize });
    let fresh = 0;
    let lowest: bigint | undefined;
    for (const order of batch) {
      const id = promOrderId(order.id)!;
      if (!byId.has(id)) {
        byId.set(id, order);
        fresh++;
      }
      const n = BigInt(id);
      if (lowest === undefined || n < lowest) lowest = n;
    }
    if (batch.length < pageSize || fresh === 0 || lowest === undefined) {
      return { orders: [...byId.values()], isComplete: true };
    }
    lastId = String(lowest);
  }
  return { orders: [...byId.values()], isComplete: false };
}

/** A cheap call that proves the token is taken and may read orders. */
export async function checkToken(ctx: PromuaContext): Promise<void> {
  await ordersPage(ctx, { limit: 1 });
}
