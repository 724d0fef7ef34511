// The only file of the amoCRM destination that does HTTP (API v4 on the account's own host). It goes
// through ctx.fetch, refreshes the access token through ctx.rotateAuth (single-use refresh tokens:
// one refresh across every worker), keeps each account under amoCRM's 7 requests per second and
// turns amoCRM's answers into results or classified errors with its own validation messages.

import { fetchWithTrace, sleep } from '../kit/client-kit';
import { PermanentError, RetryableError } from '../kit/errors';
import { type ClassifiedResponse, classifyResponse, parseRetryAfter, redact, redactUrl } from '../kit/http-errors';
import type { AttemptTrace, ConnectorContext, OAuthClient } from '../kit/types';
import type { AmoSettings } from './schema';

export interface AmoAuth {
  accessToken: string;
  refreshToken: string;
  /** Epoch ms when the access token stops working. */
  expiresAt: number;
  /** The account's own origin, e.g. https://acme.amocrm.ru (the OAuth return's `referer`). */
  baseUrl: string;
}
export type AmoContext = ConnectorContext<AmoAuth, AmoSettings>;

/** Refresh this long before the stored expiry, so a token does not lapse between check and call. */
const EXPIRY_SKEW_MS = 60_000;
/** In-call 429 backoff: tries after the first, and the longest Retry-After we wait for in the call. */
const MAX_429_RETRIES = 2;
const MAX_INLINE_WAIT_MS = 2_000;
const BACKOFF_429_MS = 1_000;

// ---- Per-account request pacing ----
// amoCRM allows 7 requests per second per account. Calls to one account start at least 150 ms
// apart (6.7/s, a margin for network jitter). The pacing is per process (a module-level map keyed
// by the account's origin): several worker processes delivering to one account at once can still
// exceed it, and then the 429 backoff below takes over.
export const MIN_SPACING_MS = 150;
const nextSlot = new Map<string, number>();

// The spacing and the 429 backoff step in force: amoCRM's own, or shorter ones a test set to run
// against an emulator whose limiter window it shortened alike.
const waits = { spacingMs: MIN_SPACING_MS, backoff429Ms: BACKOFF_429_MS };

/** For tests: shorter waits between calls to one account and per 429 try; returns the undo. */
export function setAmoWaitsForTests(next: { spacingMs: number; backoff429Ms: number }): () => void {
  const before = { ...waits };
  Object.assign(waits, next);
  return () => Object.assign(waits, before);
}

async function takeSlot(account: string, signal?: AbortSignal): Promise<void> {
  const now = Date.now();
  if (nextSlot.size > 1000) {
    for (const [k, at] of nextSlot) if (at < now) nextSlot.delete(k);
  }
  const at = Math.max(now, nextSlot.get(account) ?? 0);
  nextSlot.set(account, at + waits.spacingMs);
  if (at > now) await sleep(at - now, signal);
}

// ---- Messages ----

/** amoCRM's own words for a refusal: each validation error's path and detail, else detail/title. */
export function amoMessage(body: unknown): string {
  if (!body || typeof body !== 'object') return typeof body === 'string' ? body.slice(0, 300) : '';
  const o = body as Record<string, unknown>;
  const parts: string[] = [];
  const groups = Array.isArray(o['validation-errors']) ? (o['validation-errors'] as unknown[]) : [];
  for (const group of groups) {
    const errors = (group as { errors?: unknown })?.errors;
    if (!Array.isArray(errors)) continue;
    for (const e of errors as { path?: unknown; detail?: unknown; code?: unknown }[]) {
      const detail = typeof e.detail === 'string' ? e.detail : typeof e.code === 'string' ? e.code : '';
      parts.push(typeof e.path === 'string' && e.path ? `${e.path}: ${detail}` : detail);
    }
  }
  const words = [o.title, o.detail, o.hint].filter((v): v is string => typeof v === 'string' && v.trim() !== '');
  const head = words[0];
  // Without validation errors the title alone ("Bad Request") says nothing: keep detail and hint too.
  const whole = [...new Set(words)].join(': ');
  const text = parts.length ? `${head ? `${head}: ` : ''}${parts.join('; ')}` : whole || JSON.stringify(body);
  return text.slice(0, 500);
}

// ---- OAuth ----

type Grant =
  | { grant_type: 'authorization_code'; code: string }
  | { grant_type: 'refresh_token'; refresh_token: string };

interface TokenCall {
  fetch: typeof fetch;
  oauth: OAuthClient;
  signal?: AbortSignal;
}

/**
 * POST {account}/oauth2/access_token. Client secret, code and tokens stay out of every error:
 * a refusal (4xx) is PermanentError code AUTH, 429/5xx/network are retryable.
 */
export async function requestTokens(call: TokenCall, baseUrl: string, grant: Grant): Promise<AmoAuth> {
  const url = `${baseUrl}/oauth2/access_token`;
  const body = JSON.stringify({
    client_id: call.oauth.clientId,
    client_secret: call.oauth.clientSecret,
    redirect_uri: call.oauth.redirectUri,
    ...grant,
  });
  const trace: AttemptTrace = { request: { method: 'POST', url: redactUrl(url) } };
  let res: Response;
  try {
    res = await call.fetch(url, {
      method: 'POST',
      headers: { 'content-type': 'application/json', accept: 'application/json' },
      body,
      signal: call.signal,
    });
  } catch (err) {
    if (err instanceof PermanentError) throw new PermanentError(err.message, { ...trace, code: err.code });
    const code = err instanceof RetryableError ? err.code : 'NETWORK';
    throw new RetryableError(`amoCRM token endpoint unreachable: ${(err as Error).message}`, { ...trace, code });
  }
  let parsed: unknown;
  try {
    parsed = JSON.parse(await res.text());
  } catch {
    parsed = undefined;
  }
  if (res.status === 429 || res.status >= 500) {
    throw new RetryableError(`amoCRM token endpoint answered HTTP ${res.status}`, {
      ...trace,
      httpStatus: res.status,
      code: res.status === 429 ? 'RATE_LIMITED' : 'HTTP_5XX',
      retryAfterMs: parseRetryAfter(res.headers.get('retry-after')),
    });
  }
  const t = parsed as { access_token?: unknown; refresh_token?: unknown; expires_in?: unknown } | undefined;
  if (!res.ok || typeof t?.access_token !== 'string' || typeof t.refresh_token !== 'string') {
    // Only amoCRM's fixed wording (hint/title), never the body as a whole: it could echo what we sent.
    const o = (parsed ?? {}) as { hint?: unknown; title?: unknown };
    const reason = [o.hint, o.title].find((v) => typeof v === 'string') as string | undefined;
    throw new PermanentError(
      `AUTH: amoCRM refused the ${grant.grant_type === 'refresh_token' ? 'token refresh' : 'authorization code'} (HTTP ${res.status}${reason ? `: ${reason.slice(0, 200)}` : ''}); reconnect the integration`,
      { ...trace, httpStatus: 401, code: 'AUTH' },
    );
  }
  const expiresIn = typeof t.expires_in === 'number' && t.expires_in > 0 ? t.expires_in : 86_400;
  return {
    accessToken: t.access_token,
    refreshToken: t.refresh_token,
    expiresAt: Date.now() + expiresIn * 1000,
    baseUrl,
  };
}

// ---- API calls ----

export interface AmoResponse<T = unknown> extends ClassifiedResponse {
  body: T;
}

export class AmoClient {
  private auth: AmoAuth;

  constructor(private readonly ctx: AmoContext) {
    this.auth = ctx.auth;
  }

  /** The credentials after any refresh this client did (tests; callers that keep them in memory). */
  get credentials(): AmoAuth {
    return this.auth;
  }

  private async refresh(): Promise<void> {
    const { oauth, fetch, signal } = this.ctx;
    if (!oauth) {
      throw new PermanentError('AUTH: the amoCRM app is not configured on this server (OAUTH_NOT_CONFIGURED)', {
        httpStatus: 401,
        code: 'AUTH',
      });
    }
    const refresh = (current: AmoAuth) =>
      requestTokens({ fetch, oauth, signal }, current.baseUrl, {
        grant_type: 'refresh_token',
        refresh_token: current.refreshToken,
      });
    // rotateAuth stores the new pair once and hands later callers the stored one: two deliveries
    // never spend the same single-use refresh token. Without it (tests, one-off calls) in memory.
    this.auth = this.ctx.rotateAuth ? await this.ctx.rotateAuth(this.auth, refresh) : await refresh(this.auth);
  }

  private async send(method: string, path: string, payload: unknown): Promise<ClassifiedResponse> {
    const url = `${this.auth.baseUrl}${path}`;
    const headers: Record<string, string> = {
      authorization: `Bearer ${this.auth.accessToken}`,
      accept: 'application/json',
    };
    if (payload !== undefined) headers['content-type'] = 'application/json';
    const trace: AttemptTrace = {
      request: {
        method,
        url: redactUrl(url),
        headers: redact(headers),
        ...(payload === undefined ? {} : { body: payload }),
      },
    };
    await takeSlot(this.auth.baseUrl, this.ctx.signal);
    const init = {
      method,
      headers,
      body: payload === undefined ? undefined : JSON.stringify(payload),
      signal: this.ctx.signal,
    };
    return classifyResponse(await fetchWithTrace(this.ctx.fetch, url, init, trace), trace);
  }

  /** One API call: refreshes an expired token first, and once more on a 401; waits out short 429s. */
  async request<T = unknown>(method: string, path: string, payload?: unknown): Promise<AmoResponse<T>> {
    if (this.auth.expiresAt - EXPIRY_SKEW_MS <= Date.now()) await this.refresh();
    let refreshed = false;
    for (let attempt = 0; ; attempt++) {
      try {
        return (await this.send(method, path, payload)) as AmoResponse<T>;
      } catch (err) {
        if (err instanceof PermanentError && err.httpStatus === 401 && !refreshed) {
          refreshed = true;
          await this.refresh();
          continue;
        }
        if (err instanceof RetryableError && err.httpStatus === 429 && attempt < MAX_429_RETRIES) {
          const wait = err.retryAfterMs ?? waits.backoff429Ms * (attempt + 1);
          if (wait <= MAX_INLINE_WAIT_MS) {
            this.ctx.logger.debug({ path, wait }, 'amoCRM rate limit: backing off');
            await sleep(wait, this.ctx.signal);
            continue;
          }
        }
        if (err instanceof PermanentError && err.httpStatus === 400) {
          const body = err.trace.response?.body;
          throw new PermanentError(`amoCRM refused the request: ${amoMessage(body)}`, {
            ...err.trace,
            httpStatus: 400,
            code: 'VALIDATION',
          });
        }
        throw err;
      }
    }
  }

  get<T = unknown>(path: string): Promise<AmoResponse<T>> {
    return this.request<T>('GET', path);
  }

  post<T = unknown>(path: string, payload: unknown): Promise<AmoResponse<T>> {
    return this.request<T>('POST', path, payload);
  }
}
