// The only file of the KeyCRM connector that does HTTP (always through ctx.fetch, paced by pace.ts).
// KeyCRM's OpenAPI (https://openapi.keycrm.app/v1): Bearer API key; lists are paginated
// ({total, current_page, per_page, data, next_page_url}, limit ≤ 50, page); filters are
// `filter[name]=value`. Its answers become our classes:
//   401/403 → PermanentError KEYCRM_KEY_REJECTED (AUTH: connect again);
//   422     → PermanentError KEYCRM_VALIDATION: <KeyCRM's field messages> (or the pipeline's or
//             status's own code when that field is the one refused);
//   429     → DeferredError KEYCRM_RATE_LIMITED until its Retry-After (pace.ts): no attempt burnt;
//   5xx, timeouts, network → RetryableError (kit/http-errors).
import { fetchWithTrace } from '../kit/client-kit';
import { PermanentError, RetryableError } from '../kit/errors';
import { classifyResponse, parseRetryAfter, redact, redactUrl } from '../kit/http-errors';
import type { AttemptTrace, ConnectorContext } from '../kit/types';
import { fieldMessages } from './mapping';
import { limiterOf, ownerOf } from './pace';
import type { KeycrmAuth } from './schema';

export const KEYCRM_API_URL = 'https://openapi.keycrm.app/v1';
export type KeycrmContext<S = unknown> = ConnectorContext<KeycrmAuth, S>;

/** When KeyCRM says 429 without Retry-After: its window is a minute. */
const DEFAULT_RETRY_AFTER_MS = 60_000;
/** Pages read of a list at most (50 each). */
const MAX_PAGES = 20;

const baseOf = (ctx: KeycrmContext) => (ctx.baseUrl ?? KEYCRM_API_URL).replace(/\/+$/, '');

export interface CallResult<T> {
  data: T;
  trace: AttemptTrace;
}

/** Which field of a refused request names what the code says is gone. */
const GONE: readonly [field: string, code: string][] = [
  ['pipeline_id', 'KEYCRM_PIPELINE_NOT_FOUND'],
  ['status_id', 'KEYCRM_STATUS_NOT_FOUND'],
  ['source_id', 'KEYCRM_SOURCE_NOT_FOUND'],
];

function refused(err: PermanentError): Error {
  const status = err.httpStatus;
  const details = { httpStatus: status, request: err.trace.request, response: err.trace.response, cause: err };
  if (status === 401 || status === 403) return new PermanentError('KEYCRM_KEY_REJECTED', { ...details, code: 'AUTH' });
  if (status === 422 || status === 400) {
    const { fields, text } = fieldMessages(err.trace.response?.body);
    const gone = GONE.find(([field]) => fields.includes(field));
    const code = gone ? gone[1] : 'KEYCRM_VALIDATION';
    return new PermanentError(text ? `${code}: ${text}` : code, { ...details, code: 'HTTP_4XX' });
  }
  return err;
}

/** One call: a paced slot, Bearer key, and KeyCRM's answers as our classes (above). */
export async function call<T = unknown>(
  ctx: KeycrmContext,
  method: 'GET' | 'POST' | 'PUT',
  path: string,
  options: { query?: Record<string, string | number | undefined>; body?: unknown } = {},
): Promise<CallResult<T>> {
  const url = new URL(`${baseOf(ctx)}${path}`);
  for (const [k, v] of Object.entries(options.query ?? {})) if (v !== undefined) url.searchParams.set(k, String(v));
  const headers: Record<string, string> = { accept: 'application/json', authorization: `Bearer ${ctx.auth.apiKey}` };
  if (options.body !== undefined) headers['content-type'] = 'application/json';
  const trace: AttemptTrace = {
    request: { method, url: redactUrl(url), headers: redact(headers), body: options.body },
  };
  const limiter = limiterOf(ctx);
  const owner = ownerOf(ctx);
  await limiter.take(ctx.signal, owner);
  const res = await fetchWithTrace(
    ctx.fetch,
    url.toString(),
    {
      method,
      headers,
      body: options.body === undefined ? undefined : JSON.stringify(options.body),
      signal: ctx.signal,
    },
    trace,
  );
  try {
    const { body, trace: full } = await classifyResponse(res, trace);
    return { data: body as T, trace: full };
  } catch (err) {
    if (err instanceof RetryableError && err.httpStatus === 429) {
      const wait = err.retryAfterMs ?? parseRetryAfter(res.headers.get('x-ratelimit-reset')) ?? DEFAULT_RETRY_AFTER_MS;
      limiter.close(Date.now() + Math.max(wait, 1000));
      limiter.defer(owner);
    }
    if (err instanceof PermanentError) throw refused(err);
    throw err;
  }
}

interface Page<T> {
  data?: T[];
  next_page_url?: unknown;
  current_page?: unknown;
  last_page?: unknown;
}

/** Every item of a paginated list (50 a page, at most MAX_PAGES pages). */
export async function list<T>(
  ctx: KeycrmContext,
  path: string,
  query: Record<string, string | number | undefined> = {},
  maxPages = MAX_PAGES,
): Promise<T[]> {
  const items: T[] = [];
  for (let page = 1; page <= maxPages; page++) {
    const { data } = await call<Page<T> | undefined>(ctx, 'GET', path, { query: { ...query, limit: 50, page } });
    const got = Array.isArray(data?.data) ? data.data : [];
    items.push(...got);
    if (!got.length || !data?.next_page_url) break;
  }
  return items;
}

// ---- What the connector reads and writes ----

export interface RawPipeline {
  id?: unknown;
  name?: unknown;
}
export interface RawStatus {
  id?: unknown;
  title?: unknown;
  name?: unknown;
  pipeline_id?: unknown;
}
export interface RawUser {
  id?: unknown;
  full_name?: unknown;
  email?: unknown;
  status?: unknown;
}
export interface RawSource {
  id?: unknown;
  name?: unknown;
}
export interface RawCard {
  id?: unknown;
  status_id?: unknown;
  pipeline_id?: unknown;
  contact_id?: unknown;
  manager_comment?: unknown;
  created_at?: unknown;
  status_changed_at?: unknown;
  /** With `include=status`. */
  status?: RawStatus | null;
}

export const pipelines = (ctx: KeycrmContext) => list<RawPipeline>(ctx, '/pipelines');
export const statuses = (ctx: KeycrmContext, pipelineId: number) =>
  list<RawStatus>(ctx, `/pipelines/${pipelineId}/statuses`);
export const users = (ctx: KeycrmContext) => list<RawUser>(ctx, '/users');
export const sources = (ctx: KeycrmContext) => list<RawSource>(ctx, '/order/source');

export async function findBuyers(ctx: KeycrmContext, filter: { buyer_phone?: string; buyer_email?: string }) {
  const query = {
    ...(filter.buyer_phone ? { 'filter[buyer_phone]': filter.buyer_phone } : {}),
    ...(filter.buyer_email ? { 'filter[buyer_email]': filter.buyer_email } : {}),
    limit: 50,
  };
  const { data } = await call<Page<unknown> | undefined>(ctx, 'GET', '/buyer', { query });
  return Array.isArray(data?.data) ? data.data : [];
}

export async function createCard(ctx: KeycrmContext, body: unknown): Promise<CallResult<RawCard>> {
  const made = await call<RawCard | undefined>(ctx, 'POST', '/pipelines/cards', { body });
  if (!made.data || typeof made.data.id !== 'number') {
    throw new PermanentError('KEYCRM_VALIDATION: no card in the answer', { ...made.trace, code: 'HTTP_UNEXPECTED' });
  }
  return { data: made.data, trace: made.trace };
}

export const moveCard = (ctx: KeycrmContext, cardId: number, statusId: number) =>
  call<RawCard | undefined>(ctx, 'PUT', `/pipelines/cards/${cardId}`, { body: { status_id: statusId } });

/** One card with its status (`include=status`: its title and pipeline_id); a card KeyCRM no longer has is a 404. */
export const getCard = (ctx: KeycrmContext, cardId: string) =>
  call<RawCard | undefined>(ctx, 'GET', `/pipelines/cards/${cardId}`, { query: { include: 'status' } });

/** Cards of a pipeline created between two times (UTC "Y-m-d H:i:s"), newest pages first as KeyCRM gives them. */
export const cardsCreatedBetween = (
  ctx: KeycrmContext,
  pipelineId: number | undefined,
  from: string,
  to: string,
  maxPages: number,
) =>
  list<RawCard>(
    ctx,
    '/pipelines/cards',
    { 'filter[created_between]': `${from}, ${to}`, 'filter[pipeline_id]': pipelineId },
    maxPages,
  );
