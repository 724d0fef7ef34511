// The only file of the Pipedrive connector that does HTTP. Every call goes through ctx.fetch (the
// engine's safe fetch) to the company's api_domain: v2 for persons, organizations, deals, activities,
// pipelines and stages, v1 for leads, notes, users, activity types, fields and webhooks.
import { sleep as sleepOrAbort } from '../kit/client-kit';
import { PermanentError, RetryableError } from '../kit/errors';
import { classifyResponse, parseRetryAfter, redact, redactUrl } from '../kit/http-errors';
import type { AttemptTrace, ConnectorContext, OAuthClient } from '../kit/types';
import type { PipedriveSettings } from './mapping';

export type PipedriveAuth =
  | {
      kind: 'oauth';
      accessToken: string;
      refreshToken: string;
      /** Epoch milliseconds. */
      expiresAt: number;
      /** e.g. https://acme.pipedrive.com (from the token answer, checked against the allowed hosts on connect). */
      apiDomain: string;
    }
  | { kind: 'token'; apiToken: string; apiDomain: string };

export type PipedriveContext = ConnectorContext<PipedriveAuth, PipedriveSettings>;

/** Refresh this long before the access token's stated expiry. */
const EXPIRY_MARGIN_MS = 60_000;
/** A rate-limit wait up to this long happens inside the call; a longer one becomes a RetryableError. */
export const MAX_INLINE_WAIT_MS = 3_000;
const PAGE_LIMIT = 500;
const MAX_PAGES = 20;

// When a company's burst budget is spent (x-ratelimit-remaining: 0), the next call to it waits until
// the window resets. Per api_domain, module-wide: every delivery to that company shares the budget.
const resumeAt = new Map<string, number>();

/** Test hook: forget every company's rate-limit wait. */
export function resetRateLimitState(): void {
  resumeAt.clear();
}

/** v1 offset paging, nested under `pagination` or flat in `additional_data` (see listV1). */
interface V1Paging {
  start?: number;
  limit?: number;
  more_items_in_collection?: boolean;
  next_start?: number;
}

export interface PipedriveEnvelope<T> {
  success: boolean;
  data: T;
  additional_data?:
    | ({
        next_cursor?: string | null;
        pagination?: V1Paging;
      } & V1Paging)
    | null;
}

interface RequestOptions {
  query?: Record<string, string | number | boolean | undefined>;
  body?: unknown;
}

const sleep = (ms: number, signal?: AbortSignal) =>
  sleepOrAbort(ms, signal, () => new RetryableError('ABORTED: the call was cancelled', { code: 'ABORTED' }));

/** The wait a 429 asks for: Retry-After, else x-ratelimit-reset (seconds), else 2 s (Pipedrive's window). */
function retryAfterOf(headers: Headers): number {
  return parseRetryAfter(headers.get('retry-after')) ?? parseRetryAfter(headers.get('x-ratelimit-reset')) ?? 2_000;
}

function tokenUrlOf(oauth: OAuthClient): string {
  return oauth.tokenUrl ?? oauth.authorizeUrl.replace(/\/authorize\/?$/, '/token');
}

const basicAuth = (oauth: Pick<OAuthClient, 'clientId' | 'clientSecret'>) =>
  `Basic ${Buffer.from(`${oauth.clientId}:${oauth.clientSecret}`).toString('base64')}`;

export interface TokenAnswer {
  accessToken: string;
  refreshToken: string;
  expiresAt: number;
  apiDomain: string;
}

/**
 * POST {oauthUrl}/oauth/token with Basic client auth. 4xx → PermanentError (AUTH for invalid_grant),
 * 5xx/network → RetryableError. Never puts the secret, code or tokens in a message.
 */
export async function requestToken(
  fetchFn: typeof fetch,
  oauth: Pick<OAuthClient, 'clientId' | 'clientSecret'> & { tokenUrl: string },
  form: Record<string, string>,
  signal?: AbortSignal,
): Promise<TokenAnswer> {
  let res: Response;
  try {
    res = await fetchFn(oauth.tokenUrl, {
      method: 'POST',
      headers: {
        authorization: basicAuth(oauth),
        'content-type': 'application/x-www-form-urlencoded',
        accept: 'application/json',
      },
      body: new URLSearchParams(form).toString(),
      signal,
    });
  } catch (err) {
    if (err instanceof PermanentError || err instanceof RetryableError) throw err;
    throw new RetryableError(`NETWORK: the token endpoint did not answer: ${(err as Error).message}`, {
      code: 'NETWORK',
    });
  }
  const trace: AttemptTrace = { request: { method: 'POST', url: redactUrl(oauth.tokenUrl) } };
  let body: unknown;
  try {
    ({ body } = await classifyResponse(res, trace));
  } catch (err) {
    if (err instanceof PermanentError) {
      // The response body may echo nothing secret, but keep only Pipedrive's short reason.
      throw new PermanentError(`OAuth token refused (${err.httpStatus}): ${err.message.replace(/^HTTP \d+: /, '')}`, {
        httpStatus: err.httpStatus,
        code: 'AUTH',
      });
    }
    throw err;
  }
  const t = (body ?? {}) as Record<string, unknown>;
  if (typeof t.access_token !== 'string' || typeof t.refresh_token !== 'string') {
    throw new PermanentError('OAuth token answer without tokens', { code: 'AUTH', httpStatus: res.status });
  }
  const expiresIn = typeof t.expires_in === 'number' ? t.expires_in : 3599;
  return {
    accessToken: t.access_token,
    refreshToken: t.refresh_token,
    expiresAt: Date.now() + expiresIn * 1000,
    apiDomain: typeof t.api_domain === 'string' ? t.api_domain.replace(/\/+$/, '') : '',
  };
}

/** The consent page: {oauthUrl}/oauth/authorize?client_id&redirect_uri&state. */
export function authorizeUrl(oauth: Pick<OAuthClient, 'clientId' | 'authorizeUrl' | 'redirectUri'>, state: string) {
  const url = new URL(oauth.authorizeUrl);
  url.searchParams.set('client_id', oauth.clientId);
  url.searchParams.set('redirect_uri', oauth.redirectUri);
  url.searchParams.set('state', state);
  return url.toString();
}

/** Trades the OAuth return's code for tokens and the company's api_domain. */
export function exchangeCode(fetchFn: typeof fetch, oauth: OAuthClient, code: string, signal?: AbortSignal) {
  return requestToken(
    fetchFn,
    { ...oauth, tokenUrl: tokenUrlOf(oauth) },
    { grant_type: 'authorization_code', code, redirect_uri: oauth.redirectUri },
    signal,
  );
}

export class PipedriveClient {
  private auth: PipedriveAuth;
  /** The last successful call's request and response (redacted), for the delivery's attempt record. */
  lastTrace: AttemptTrace = {};

  constructor(private readonly ctx: PipedriveContext) {
    this.auth = ctx.auth;
  }

  private get domain(): string {
    return this.auth.apiDomain.replace(/\/+$/, '');
  }

  /** v1 lives at {api_domain}/api/v1 for OAuth and at {api host}/v1 for API tokens. */
  private urlOf(path: string, query?: RequestOptions['query']): string {
    let full: string;
    if (path.startsWith('/v1/'))
      full = this.auth.kind === 'oauth' ? `${this.domain}/api${path}` : `${this.domain}${path}`;
    else full = `${this.domain}${path}`;
    const url = new URL(full);
    for (const [k, v] of Object.entries(query ?? {})) if (v !== undefined) url.searchParams.set(k, String(v));
    return url.toString();
  }

  /** Text without this connection's credentials: fetch echoes a header value it cannot send (a pasted token). */
  private scrub(text: string): string {
    const secrets = this.auth.kind === 'oauth' ? [this.auth.accessToken, this.auth.refreshToken] : [this.auth.apiToken];
    return secrets.reduce((out, secret) => (secret ? out.split(secret).join('[redacted]') : out), text);
  }

  private authHeaders(): Record<string, string> {
    return this.auth.kind === 'oauth'
      ? { authorization: `Bearer ${this.auth.accessToken}` }
      : { 'x-api-token': this.auth.apiToken };
  }

  /** Replaces the access token once across every worker (ctx.rotateAuth), or in memory without it. */
  private async refresh(): Promise<void> {
    const stale = this.auth;
    if (stale.kind !== 'oauth') return;
    const oauth = this.ctx.oauth;
    const refresh = async (current: PipedriveAuth): Promise<PipedriveAuth> => {
      if (current.kind !== 'oauth') return current;
      if (!oauth) {
        throw new PermanentError('The Pipedrive access token expired and no OAuth client is configured', {
          code: 'AUTH',
        });
      }
      const t = await requestToken(
        this.ctx.fetch,
        { ...oauth, tokenUrl: tokenUrlOf(oauth) },
        { grant_type: 'refresh_token', refresh_token: current.refreshToken },
        this.ctx.signal,
      );
      // The api_domain stays the one checked on connect.
      return { ...current, accessToken: t.accessToken, refreshToken: t.refreshToken, expiresAt: t.expiresAt };
    };
    this.auth = this.ctx.rotateAuth ? await this.ctx.rotateAuth(stale, refresh) : await refresh(stale);
    if (!this.ctx.rotateAuth) this.ctx.auth = this.auth;
  }

  private async waitForBudget(): Promise<void> {
    const until = resumeAt.get(this.domain);
    if (until === undefined) return;
    const wait = until - Date.now();
    if (wait <= 0) {
      resumeAt.delete(this.domain);
      return;
    }
    if (wait > MAX_INLINE_WAIT_MS) {
      throw new RetryableError('RATE_LIMITED: the Pipedrive company used up its request budget', {
        code: 'RATE_LIMITED',
        retryAfterMs: wait,
      });
    }
    await sleep(wait, this.ctx.signal);
  }

  private noteBudget(headers: Headers): void {
    if (headers.get('x-ratelimit-remaining') !== '0') return;
    const reset = parseRetryAfter(headers.get('x-ratelimit-reset')) ?? 2_000;
    resumeAt.set(this.domain, Date.now() + reset);
  }

  /** One call; the answer's `data`. Refreshes on expiry or one 401, waits out a short 429 once. */
  async request<T>(method: string, path: string, options: RequestOptions = {}): Promise<PipedriveEnvelope<T>> {
    if (this.auth.kind === 'oauth' && this.auth.expiresAt - EXPIRY_MARGIN_MS <= Date.now()) await this.refresh();
    let refreshed = false;
    let waited = false;
    for (;;) {
      await this.waitForBudget();
      const url = this.urlOf(path, options.query);
      const headers: Record<string, string> = { accept: 'application/json', ...this.authHeaders() };
      if (options.body !== undefined) headers['content-type'] = 'application/json';
      const trace: AttemptTrace = {
        request: { method, url: redactUrl(url), headers: redact(headers), body: options.body },
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
        if (err instanceof PermanentError) throw new PermanentError(err.message, { ...trace, code: err.code });
        if (err instanceof RetryableError) {
          throw new RetryableError(err.message, { ...trace, code: err.code, retryAfterMs: err.retryAfterMs });
        }
        const name = (err as Error).name;
        const timedOut = name === 'TimeoutError' || name === 'AbortError';
        throw new RetryableError(`${timedOut ? 'TIMEOUT' : 'NETWORK'}: ${this.scrub((err as Error).message)}`, {
          ...trace,
          code: timedOut ? 'TIMEOUT' : 'NETWORK',
        });
      }
      this.noteBudget(res.headers);
      if (res.status === 401 && this.auth.kind === 'oauth' && !refreshed) {
        await res.body?.cancel();
        refreshed = true;
        await this.refresh();
        continue;
      }
      if (res.status === 429) {
        const retryAfterMs = retryAfterOf(res.headers);
        if (!waited && retryAfterMs <= MAX_INLINE_WAIT_MS) {
          await res.body?.cancel();
          waited = true;
          await sleep(retryAfterMs, this.ctx.signal);
          continue;
        }
        try {
          await classifyResponse(res, trace);
        } catch (err) {
          const e = err as RetryableError;
          throw new RetryableError(e.message, { ...e.trace, httpStatus: 429, code: 'RATE_LIMITED', retryAfterMs });
        }
      }
      const { body, trace: full } = await classifyResponse(res, trace);
      this.lastTrace = full;
      const envelope = (body ?? {}) as PipedriveEnvelope<T>;
      if (envelope.success === false) {
        throw new PermanentError(`Pipedrive refused: ${(body as { error?: string }).error ?? 'no message'}`, {
          ...trace,
          httpStatus: res.status,
          code: 'HTTP_4XX',
        });
      }
      return envelope;
    }
  }

  async data<T>(method: string, path: string, options?: RequestOptions): Promise<T> {
    return (await this.request<T>(method, path, options)).data;
  }

  /** Reading stopped at MAX_PAGES with more left: said in the log, never silent. */
  private truncated(path: string, read: number): void {
    this.ctx.logger.warn({ path, read, pages: MAX_PAGES }, 'pipedrive list longer than the pages we read');
  }

  /**
   * Every page of a v1 list (start/limit), up to MAX_PAGES. Pipedrive's pagination guide and
   * captured answers put the paging in `additional_data.pagination {…, next_start}`; the official
   * client's models (GetFieldsResponse, GetLeadsResponse) put `start, limit, more_items_in_collection`
   * flat in `additional_data`, without next_start. Both are read (docs/connectors/pipedrive.md "Lists").
   */
  async listV1<T>(path: string, query: RequestOptions['query'] = {}): Promise<T[]> {
    const all: T[] = [];
    let start = 0;
    for (let page = 0; page < MAX_PAGES; page++) {
      const env = await this.request<T[] | null>('GET', path, { query: { ...query, start, limit: PAGE_LIMIT } });
      const rows = env.data ?? [];
      all.push(...rows);
      const extra = env.additional_data;
      const p = extra?.pagination ?? extra;
      if (!p?.more_items_in_collection || !rows.length) return all;
      start = typeof p.next_start === 'number' && p.next_start > start ? p.next_start : start + rows.length;
    }
    this.truncated(path, all.length);
    return all;
  }

  /** Every page of a v2 list (cursor in `additional_data.next_cursor`, null at the end), up to MAX_PAGES. */
  async listV2<T>(path: string, query: RequestOptions['query'] = {}): Promise<T[]> {
    const all: T[] = [];
    let cursor: string | undefined;
    for (let page = 0; page < MAX_PAGES; page++) {
      const env = await this.request<T[] | null>('GET', path, { query: { ...query, cursor, limit: PAGE_LIMIT } });
      all.push(...(env.data ?? []));
      const next = env.additional_data?.next_cursor;
      if (!next) return all;
      cursor = next;
    }
    this.truncated(path, all.length);
    return all;
  }

  /** A person as the widget shows it (v2 GET /persons/{id}). */
  async getPerson(id: number): Promise<{ id: number; name: string; phones: string[]; emails: string[] }> {
    const p = await this.data<{
      id: number;
      name: string;
      phones?: { value: string }[] | null;
      emails?: { value: string }[] | null;
    }>('GET', `/api/v2/persons/${encodeURIComponent(String(id))}`);
    return {
      id: p.id,
      name: p.name,
      phones: (p.phones ?? []).map((x) => x.value).filter(Boolean),
      emails: (p.emails ?? []).map((x) => x.value).filter(Boolean),
    };
  }
}

/** The client over a context: what the loaders, delivery and the widget use. */
export function pipedriveClient(ctx: PipedriveContext): PipedriveClient {
  return new PipedriveClient(ctx);
}
