// The only file of the Uspacy destination that does HTTP. Every call goes through ctx.fetch (the
// engine's safe fetch) to the portal, in one of two ways:
// - password: Authorization: Bearer <jwt> against https://{portal}.uspacy.ua; the JWT is refreshed
//   once on expiry or on a 401 (POST /auth/v1/auth/refresh_token/ with the refresh token as the
//   bearer) through ctx.rotateAuth, so one refresh serves every worker and is stored sealed;
// - webhook: the incoming webhook's secret base URL with the API path appended, no token at all.
// Answers become results or classified errors whose messages start with a code the web translates;
// the webhook key, tokens and passwords never reach a trace, a message or a log.
import { decodeJwt } from 'jose';
import { z } from 'zod';
import { sleep as sleepOrAbort } from '../kit/client-kit';
import { PermanentError, RetryableError } from '../kit/errors';
import { classifyResponse, parseRetryAfter, redact, redactUrl } from '../kit/http-errors';
import type { AttemptTrace, ConnectorContext } from '../kit/types';

const ZOrigin = z
  .string()
  .url()
  .refine((u) => /^https?:\/\//i.test(u), 'http or https only');

/**
 * password: what signing in gave (the password itself is never kept: a refused refresh asks the user
 * to sign in again). webhook: the incoming webhook's URL, a secret in itself.
 */
export const ZUspacyAuth = z.discriminatedUnion('kind', [
  z.object({
    kind: z.literal('password'),
    /** The portal's origin, e.g. https://acme.uspacy.ua (checked against the allowed hosts on connect). */
    portal: ZOrigin,
    email: z.string().min(1).max(200),
    jwt: z.string().min(1),
    refreshToken: z.string().min(1),
    /** Epoch ms. */
    expiresAt: z.number(),
    /** The signed-in user's id (the JWT's `id`): the author of the comments we add. */
    userId: z.number().int().positive().optional(),
  }),
  z.object({ kind: z.literal('webhook'), webhookUrl: ZOrigin }),
]);
export type UspacyAuth = z.infer<typeof ZUspacyAuth>;
export type UspacyContext<S = unknown> = ConnectorContext<UspacyAuth, S>;

/** Refresh this long before the JWT's expiry, so it does not lapse between the check and the call. */
const EXPIRY_MARGIN_MS = 60_000;
/** A 429 asking for at most this long is waited out inside the call (once); longer ones are retried later. */
export const MAX_INLINE_WAIT_MS = 2_000;
const PAGE_SIZE = 100;
const MAX_PAGES = 20;

const sleep = (ms: number, signal?: AbortSignal) =>
  sleepOrAbort(ms, signal, () => new RetryableError('ABORTED: the call was cancelled', { code: 'ABORTED' }));

/** The incoming webhook's key in a URL, replaced: the URL is a credential. */
export function redactWebhookUrl(url: string): string {
  return redactUrl(url.replace(/(\/incoming_webhooks\/run\/)[^/?#]+/, '$1[redacted]'));
}

/** Uspacy's own words for a refusal: Laravel's {message, errors:{field:[…]}}, else message/error. */
export function uspacyMessage(body: unknown): string {
  if (!body || typeof body !== 'object') return typeof body === 'string' ? body.trim().slice(0, 300) : '';
  const o = body as { message?: unknown; error?: unknown; errors?: unknown };
  const parts: string[] = [];
  if (o.errors && typeof o.errors === 'object' && !Array.isArray(o.errors)) {
    for (const [field, list] of Object.entries(o.errors as Record<string, unknown>)) {
      const texts = (Array.isArray(list) ? list : [list]).filter((v): v is string => typeof v === 'string');
      if (texts.length) parts.push(`${field}: ${texts.join(' ')}`);
    }
  }
  if (parts.length) return parts.join('; ').slice(0, 500);
  for (const v of [o.message, o.error]) if (typeof v === 'string' && v.trim()) return v.trim().slice(0, 300);
  return JSON.stringify(body).slice(0, 300);
}

// ---- Signing in ----

interface TokenAnswer {
  jwt?: unknown;
  refreshToken?: unknown;
  expiresInSeconds?: unknown;
  expireInSeconds?: unknown;
}

/** The JWT's claims we use; an unreadable token gives none (Uspacy's answer still counts). */
function claimsOf(jwt: string): { exp?: number; id?: number; domain?: string } {
  try {
    const c = decodeJwt(jwt);
    return {
      exp: typeof c.exp === 'number' ? c.exp : undefined,
      id: typeof c.id === 'number' && c.id > 0 ? c.id : undefined,
      domain: typeof c.domain === 'string' && c.domain ? c.domain : undefined,
    };
  } catch {
    return {};
  }
}

/** When the token stops working: its `exp`, else the answer's lifetime (SDKs spell it two ways), else an hour. */
function expiryOf(jwt: string, answer: TokenAnswer): number {
  const { exp } = claimsOf(jwt);
  if (exp) return exp * 1000;
  const seconds = [answer.expiresInSeconds, answer.expireInSeconds].find((v) => typeof v === 'number' && v > 0);
  return Date.now() + ((seconds as number | undefined) ?? 3600) * 1000;
}

interface AuthCall {
  fetch: typeof fetch;
  signal?: AbortSignal;
}

/**
 * One POST to the auth service. Refusals (4xx) are PermanentError `${refusedCode}: HTTP n` with code
 * AUTH; 429, 5xx and the network are RetryableError. Nothing sent (password, tokens) goes into a message.
 */
async function tokenCall(
  call: AuthCall,
  url: string,
  init: { headers: Record<string, string>; body?: string },
  refusedCode: string,
): Promise<{ jwt: string; refreshToken: string; expiresAt: number }> {
  const trace: AttemptTrace = { request: { method: 'POST', url: redactUrl(url) } };
  let res: Response;
  try {
    res = await call.fetch(url, {
      method: 'POST',
      headers: { accept: 'application/json', ...init.headers },
      body: init.body,
      signal: call.signal,
    });
  } catch (err) {
    if (err instanceof PermanentError) throw new PermanentError(err.message, { ...trace, code: err.code });
    const timedOut = ['TimeoutError', 'AbortError'].includes((err as Error).name);
    const code = err instanceof RetryableError ? err.code : timedOut ? 'TIMEOUT' : 'NETWORK';
    throw new RetryableError(`${code}: Uspacy's sign-in service did not answer`, {
      ...trace,
      code,
      retryAfterMs: err instanceof RetryableError ? err.retryAfterMs : undefined,
    });
  }
  let answer: TokenAnswer | undefined;
  try {
    answer = JSON.parse(await res.text()) as TokenAnswer;
  } catch {
    answer = undefined;
  }
  const response = { status: res.status, headers: redact(res.headers) };
  if (res.status === 429 || res.status >= 500) {
    throw new RetryableError(`${res.status === 429 ? 'RATE_LIMITED' : 'HTTP_5XX'}: HTTP ${res.status}`, {
      ...trace,
      response,
      httpStatus: res.status,
      code: res.status === 429 ? 'RATE_LIMITED' : 'HTTP_5XX',
      retryAfterMs: parseRetryAfter(res.headers.get('retry-after')),
    });
  }
  if (!res.ok || typeof answer?.jwt !== 'string' || typeof answer.refreshToken !== 'string') {
    throw new PermanentError(`${refusedCode}: HTTP ${res.status}`, {
      ...trace,
      response,
      httpStatus: res.status,
      code: 'AUTH',
    });
  }
  return { jwt: answer.jwt, refreshToken: answer.refreshToken, expiresAt: expiryOf(answer.jwt, answer) };
}

/**
 * POST {portal}/auth/v1/auth/sign_in/ {email, password, code?}: the password is used this once.
 * Answers the credentials to store and the portal's domain as the JWT names it (the caller checks it).
 */
export async function signIn(
  call: AuthCall,
  portal: string,
  credentials: { email: string; password: string; code?: string },
): Promise<{ auth: Extract<UspacyAuth, { kind: 'password' }>; domain?: string }> {
  const body = JSON.stringify({
    email: credentials.email,
    password: credentials.password,
    ...(credentials.code ? { code: credentials.code } : {}),
  });
  const tokens = await tokenCall(
    call,
    `${portal}/auth/v1/auth/sign_in/`,
    { headers: { 'content-type': 'application/json' }, body },
    'USPACY_SIGN_IN_FAILED',
  );
  const claims = claimsOf(tokens.jwt);
  return {
    auth: { kind: 'password', portal, email: credentials.email, ...tokens, userId: claims.id },
    domain: claims.domain,
  };
}

/** POST {portal}/auth/v1/auth/refresh_token/ with the refresh token as the bearer: a new pair. */
export async function refreshTokens(
  call: AuthCall,
  current: Extract<UspacyAuth, { kind: 'password' }>,
): Promise<Extract<UspacyAuth, { kind: 'password' }>> {
  const tokens = await tokenCall(
    call,
    `${current.portal}/auth/v1/auth/refresh_token/`,
    { headers: { authorization: `Bearer ${current.refreshToken}` } },
    'USPACY_REFRESH_FAILED',
  );
  return { ...current, ...tokens, userId: claimsOf(tokens.jwt).id ?? current.userId };
}

// ---- API calls ----

export interface RequestOptions {
  query?: Record<string, string | number | undefined>;
  body?: unknown;
}

export interface UspacyPage<T> {
  data?: T[];
  meta?: { last_page?: number; lastPage?: number; total?: number };
}

export class UspacyClient {
  private auth: UspacyAuth;
  /** The last successful call's request and response (redacted), for the delivery's attempt record. */
  lastTrace: AttemptTrace = {};

  constructor(private readonly ctx: UspacyContext) {
    this.auth = ctx.auth;
  }

  /** The portal's origin (password) or the webhook's base: what API paths are appended to. */
  get base(): string {
    return (this.auth.kind === 'password' ? this.auth.portal : this.auth.webhookUrl).replace(/\/+$/, '');
  }

  /** The signed-in user's id, when signed in with a password. */
  get userId(): number | undefined {
    return this.auth.kind === 'password' ? this.auth.userId : undefined;
  }

  /** Text without this connection's secrets (fetch errors can echo a URL or a header value). */
  private scrub(text: string): string {
    const secrets =
      this.auth.kind === 'password'
        ? [this.auth.jwt, this.auth.refreshToken]
        : [this.auth.webhookUrl.split('/incoming_webhooks/run/')[1] ?? ''];
    return secrets.reduce((out, s) => (s.length > 3 ? out.split(s).join('[redacted]') : out), text);
  }

  private async refresh(): Promise<void> {
    const stale = this.auth;
    if (stale.kind !== 'password') return;
    const { fetch, signal } = this.ctx;
    const refresh = async (current: UspacyAuth): Promise<UspacyAuth> =>
      current.kind === 'password' ? refreshTokens({ fetch, signal }, current) : current;
    // rotateAuth refreshes once across every worker and stores the new pair sealed; without it
    // (one-off calls, tests) the pair lives in memory on the context.
    this.auth = this.ctx.rotateAuth ? await this.ctx.rotateAuth(stale, refresh) : await refresh(stale);
    if (!this.ctx.rotateAuth) this.ctx.auth = this.auth;
  }

  private urlOf(path: string, query?: RequestOptions['query']): string {
    const url = new URL(`${this.base}${path}`);
    for (const [k, v] of Object.entries(query ?? {})) if (v !== undefined) url.searchParams.set(k, String(v));
    return url.toString();
  }

  /** A refusal as the delivery records it: a code first (the web translates it), Uspacy's words after. */
  private refusal(err: PermanentError): PermanentError {
    const status = err.httpStatus ?? 0;
    const body = err.trace.response?.body;
    const details = { ...err.trace, httpStatus: status };
    if (status === 401 || status === 403) {
      // A webhook that was deleted or switched off in Uspacy; a token Uspacy no longer takes.
      const code = this.auth.kind === 'webhook' ? 'USPACY_WEBHOOK_REFUSED' : 'AUTH';
      return new PermanentError(`${code}: HTTP ${status}`, { ...details, code: 'AUTH' });
    }
    if (status === 400 || status === 422) {
      const text = this.scrub(uspacyMessage(body));
      return new PermanentError(`USPACY_VALIDATION: ${text}`, { ...details, code: 'HTTP_4XX' });
    }
    return new PermanentError(`HTTP_4XX: HTTP ${status}: ${this.scrub(uspacyMessage(body))}`, {
      ...details,
      code: err.code,
    });
  }

  /** One call: refreshes an expiring JWT first and once more on a 401; waits out one short 429. */
  async request<T = unknown>(method: string, path: string, options: RequestOptions = {}): Promise<T> {
    if (this.auth.kind === 'password' && this.auth.expiresAt - EXPIRY_MARGIN_MS <= Date.now()) await this.refresh();
    let refreshed = false;
    let waited = false;
    for (;;) {
      const url = this.urlOf(path, options.query);
      const headers: Record<string, string> = { accept: 'application/json' };
      if (this.auth.kind === 'password') headers.authorization = `Bearer ${this.auth.jwt}`;
      if (options.body !== undefined) headers['content-type'] = 'application/json';
      const trace: AttemptTrace = {
        request: {
          method,
          url: redactWebhookUrl(url),
          headers: redact(headers),
          ...(options.body === undefined ? {} : { body: options.body }),
        },
      };
      let res: Response;
      try {
        res = await this.ctx.fetch(url, {
          method,
          headers,
          body: options.body === undefined ? undefined : JSON.stringify(options.body),
          signal: this.ctx.signal,
        });
      } catch (err) {
        const message = this.scrub((err as Error).message);
        if (err instanceof PermanentError) throw new PermanentError(message, { ...trace, code: err.code });
        if (err instanceof RetryableError) {
          throw new RetryableError(message, { ...trace, code: err.code, retryAfterMs: err.retryAfterMs });
        }
        const timedOut = ['TimeoutError', 'AbortError'].includes((err as Error).name);
        throw new RetryableError(`${timedOut ? 'TIMEOUT' : 'NETWORK'}: ${message}`, {
          ...trace,
          code: timedOut ? 'TIMEOUT' : 'NETWORK',
        });
      }
      if (res.status === 401 && this.auth.kind === 'password' && !refreshed) {
        await res.body?.cancel();
        refreshed = true;
        await this.refresh();
        continue;
      }
      if (res.status === 429 && !waited) {
        const wait = parseRetryAfter(res.headers.get('retry-after')) ?? 1_000;
        if (wait <= MAX_INLINE_WAIT_MS) {
          await res.body?.cancel();
          waited = true;
          this.ctx.logger.debug({ path, wait }, 'Uspacy rate limit: waiting');
          await sleep(wait, this.ctx.signal);
          continue;
        }
      }
      let answer: Awaited<ReturnType<typeof classifyResponse>>;
      try {
        answer = await classifyResponse(res, trace);
      } catch (err) {
        if (err instanceof PermanentError) throw this.refusal(err);
        if (err instanceof RetryableError) {
          // 429 and 5xx: the kit's code first, as every failure we record.
          const code = err.code ?? 'HTTP_5XX';
          throw new RetryableError(`${code}: ${this.scrub(err.message)}`, {
            ...err.trace,
            code,
            httpStatus: err.httpStatus,
            retryAfterMs: err.retryAfterMs,
          });
        }
        throw err;
      }
      this.lastTrace = answer.trace;
      // An error inside a 200: {status: false, message} (the SDK's IResponseWithMessage).
      const body = answer.body as { status?: unknown } | undefined;
      if (body && typeof body === 'object' && !Array.isArray(body) && body.status === false) {
        throw new PermanentError(`USPACY_REFUSED: ${this.scrub(uspacyMessage(body))}`, {
          ...answer.trace,
          httpStatus: res.status,
          code: 'HTTP_UNEXPECTED',
        });
      }
      return answer.body as T;
    }
  }

  get<T = unknown>(path: string, query?: RequestOptions['query']): Promise<T> {
    return this.request<T>('GET', path, { query });
  }

  post<T = unknown>(path: string, body: unknown): Promise<T> {
    return this.request<T>('POST', path, { body });
  }

  /** POST a new record; its id, or a PermanentError when the answer names none. */
  async create(path: string, body: unknown): Promise<{ id: number; record: Record<string, unknown> }> {
    const answer = await this.post<Record<string, unknown> | undefined>(path, body);
    const record = (answer?.data && typeof answer.data === 'object' ? answer.data : answer) as
      | Record<string, unknown>
      | undefined;
    const id = Number(record?.id);
    if (!record || !Number.isInteger(id) || id <= 0) {
      throw new PermanentError('HTTP_UNEXPECTED: Uspacy answered without the created record', {
        ...this.lastTrace,
        code: 'HTTP_UNEXPECTED',
      });
    }
    return { id, record };
  }

  /** A list's records: `{data, meta}` pages (page/list) up to MAX_PAGES, or a bare array. */
  async list<T>(path: string, query: RequestOptions['query'] = {}, pages = MAX_PAGES): Promise<T[]> {
    const all: T[] = [];
    for (let page = 1; page <= pages; page++) {
      const answer = await this.get<UspacyPage<T> | T[] | undefined>(path, { ...query, page, list: PAGE_SIZE });
      if (Array.isArray(answer)) return answer;
      const data = answer?.data ?? [];
      all.push(...data);
      const last = answer?.meta?.last_page ?? answer?.meta?.lastPage;
      if (data.length < PAGE_SIZE || last === undefined || page >= last) break;
    }
    return all;
  }
}

export const uspacyClient = (ctx: UspacyContext): UspacyClient => new UspacyClient(ctx);
