// The only file of the Google Sheets destination that does HTTP: Google's OAuth token endpoint, the
// Sheets API v4 and Drive API v3 (files.list), through ctx.fetch. It refreshes the access token
// through ctx.rotateAuth (one refresh across every worker), and turns Google's answers
// ({"error": {"code", "message", "status"}}) into results or classified errors whose message starts
// with one of the folder's reason codes (codes.ts).
import { fetchWithTrace } from '../kit/client-kit';
import { PermanentError, RetryableError } from '../kit/errors';
import { classifyResponse, parseRetryAfter, redact, redactUrl } from '../kit/http-errors';
import type { AttemptTrace, ConnectorContext, OAuthClient } from '../kit/types';
import type { SheetsAuth, SheetsSettings } from './schema';

export type SheetsContext = ConnectorContext<SheetsAuth, SheetsSettings>;

export const GOOGLE_SHEETS_URL = 'https://sheets.googleapis.com';
/** Drive API v3's host (developers.google.com/drive/api/reference/rest/v3/files/list). */
export const GOOGLE_DRIVE_URL = 'https://www.googleapis.com';
export const GOOGLE_AUTHORIZE_URL = 'https://accounts.google.com/o/oauth2/v2/auth';
export const GOOGLE_TOKEN_URL = 'https://oauth2.googleapis.com/token';
/**
 * The least that lists the person's spreadsheets and writes to the one chosen: spreadsheets (read
 * and write any spreadsheet the person can) and drive.metadata.readonly (files.list: names only,
 * never contents). drive.file alone would not see a spreadsheet the person made before connecting.
 */
export const SHEETS_SCOPES = [
  'https://www.googleapis.com/auth/spreadsheets',
  'https://www.googleapis.com/auth/drive.metadata.readonly',
] as const;

/** Refresh this long before the stored expiry, so a token does not lapse between check and call. */
const EXPIRY_SKEW_MS = 60_000;

/**
 * Drive's host: Google's own when Sheets is Google's; anything else (the emulator, a proxy the
 * operator set in GOOGLESHEETS_API_URL) serves both APIs on one host.
 */
export const driveUrlOf = (sheetsUrl: string) => (sheetsUrl === GOOGLE_SHEETS_URL ? GOOGLE_DRIVE_URL : sheetsUrl);

// ---- OAuth ----

/** The consent page: offline access (a refresh token) and the consent screen every time (so one is always given). */
export function authorizeUrl(client: OAuthClient, state: string): string {
  const url = new URL(client.authorizeUrl);
  url.searchParams.set('client_id', client.clientId);
  url.searchParams.set('redirect_uri', client.redirectUri);
  url.searchParams.set('response_type', 'code');
  url.searchParams.set('scope', SHEETS_SCOPES.join(' '));
  url.searchParams.set('access_type', 'offline');
  url.searchParams.set('prompt', 'consent');
  url.searchParams.set('include_granted_scopes', 'true');
  url.searchParams.set('state', state);
  return url.toString();
}

type Grant =
  | { grant_type: 'authorization_code'; code: string }
  | { grant_type: 'refresh_token'; refresh_token: string };

interface TokenCall {
  fetch: typeof fetch;
  oauth: OAuthClient;
  signal?: AbortSignal;
}

/**
 * POST the token endpoint (form-encoded, the client in the body). A refusal (invalid_grant: the
 * person revoked our access, the token expired unused, a spent code) is PermanentError AUTH with
 * SHEETS_REFRESH_FAILED; 429/5xx/network are retryable. Codes, tokens and the secret stay out of errors.
 */
export async function requestTokens(call: TokenCall, grant: Grant, current?: SheetsAuth): Promise<SheetsAuth> {
  const url = call.oauth.tokenUrl ?? GOOGLE_TOKEN_URL;
  const form = new URLSearchParams({
    client_id: call.oauth.clientId,
    client_secret: call.oauth.clientSecret,
    ...(grant.grant_type === 'authorization_code' ? { redirect_uri: call.oauth.redirectUri } : {}),
    ...grant,
  });
  const trace: AttemptTrace = { request: { method: 'POST', url: redactUrl(url) } };
  const res = await fetchWithTrace(
    call.fetch,
    url,
    {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded', accept: 'application/json' },
      body: form.toString(),
      signal: call.signal,
    },
    trace,
  );
  let parsed: unknown;
  try {
    parsed = JSON.parse(await res.text());
  } catch {
    parsed = undefined;
  }
  if (res.status === 429 || res.status >= 500) {
    throw new RetryableError(`SHEETS_UNAVAILABLE: Google's token endpoint answered HTTP ${res.status}`, {
      ...trace,
      httpStatus: res.status,
      code: res.status === 429 ? 'RATE_LIMITED' : 'HTTP_5XX',
      retryAfterMs: parseRetryAfter(res.headers.get('retry-after')),
    });
  }
  const t = (parsed ?? {}) as {
    access_token?: unknown;
    refresh_token?: unknown;
    expires_in?: unknown;
    error?: unknown;
  };
  // Google's refresh answer carries no new refresh token: the one we have stays good.
  const refreshToken = typeof t.refresh_token === 'string' ? t.refresh_token : current?.refreshToken;
  if (!res.ok || typeof t.access_token !== 'string' || !refreshToken) {
    // Only Google's fixed error code (invalid_grant …), never the body: it could echo what we sent.
    const error = typeof t.error === 'string' ? t.error.slice(0, 60) : `HTTP ${res.status}`;
    const what = grant.grant_type === 'refresh_token' ? 'SHEETS_REFRESH_FAILED' : 'SHEETS_CONSENT_FAILED';
    throw new PermanentError(`${what}: ${error}`, { ...trace, httpStatus: 401, code: 'AUTH' });
  }
  const expiresIn = typeof t.expires_in === 'number' && t.expires_in > 0 ? t.expires_in : 3600;
  return { accessToken: t.access_token, refreshToken, expiresAt: Date.now() + expiresIn * 1000 };
}

// ---- API calls ----

/** Google's error body: {"error": {"code": 403, "message": "...", "status": "PERMISSION_DENIED"}}. */
function googleError(body: unknown): { message: string; status: string } {
  const e = (body as { error?: unknown } | null | undefined)?.error;
  if (e && typeof e === 'object') {
    const o = e as { message?: unknown; status?: unknown };
    return {
      message: typeof o.message === 'string' ? o.message.slice(0, 300) : '',
      status: typeof o.status === 'string' ? o.status : '',
    };
  }
  return { message: typeof e === 'string' ? e.slice(0, 300) : '', status: '' };
}

/** A refusal in the folder's words: which reason, and whether the integration's settings must change. */
function refusal(err: PermanentError | RetryableError, what: string): Error {
  const status = err.httpStatus ?? 0;
  const { message, status: googleStatus } = googleError(err.trace.response?.body);
  const said = message || `HTTP ${status}`;
  const details = { ...err.trace, httpStatus: status };
  if (err instanceof RetryableError) {
    if (status === 429) {
      // Google's quotas refill each minute (developers.google.com/sheets/api/limits): a minute without Retry-After.
      return new RetryableError(`SHEETS_RATE_LIMITED: ${said}`, {
        ...details,
        code: 'RATE_LIMITED',
        retryAfterMs: err.retryAfterMs ?? 60_000,
      });
    }
    return new RetryableError(`SHEETS_UNAVAILABLE: ${said}`, {
      ...details,
      code: err.code,
      retryAfterMs: err.retryAfterMs,
    });
  }
  // Drive's per-user limits still answer 403 with a rate reason.
  if (status === 403 && /rate ?limit|quota/i.test(said)) {
    return new RetryableError(`SHEETS_RATE_LIMITED: ${said}`, { ...details, code: 'RATE_LIMITED' });
  }
  if (status === 401) return new PermanentError(`SHEETS_REFRESH_FAILED: ${said}`, { ...details, code: 'AUTH' });
  if (status === 403 || googleStatus === 'PERMISSION_DENIED') {
    return new PermanentError(`SHEETS_NO_ACCESS: ${said}`, { ...details, code: 'CONFIGURATION' });
  }
  if (status === 404 || googleStatus === 'NOT_FOUND') {
    return new PermanentError(`SHEETS_SPREADSHEET_NOT_FOUND: ${said}`, { ...details, code: 'CONFIGURATION' });
  }
  return new PermanentError(`SHEETS_REFUSED: ${what}: ${said}`, { ...details, code: 'HTTP_4XX' });
}

export class SheetsClient {
  private auth: SheetsAuth;
  /** The trace of the last call that answered (the delivery's attempt record). */
  lastTrace: AttemptTrace = {};

  constructor(private readonly ctx: SheetsContext) {
    this.auth = ctx.auth;
  }

  get sheetsUrl(): string {
    return this.ctx.baseUrl ?? GOOGLE_SHEETS_URL;
  }

  private async refresh(): Promise<void> {
    const { oauth, fetch, signal } = this.ctx;
    if (!oauth) {
      throw new PermanentError('SHEETS_REFRESH_FAILED: the Google app is not configured on this server', {
        httpStatus: 401,
        code: 'AUTH',
      });
    }
    const refresh = (current: SheetsAuth) =>
      requestTokens(
        { fetch, oauth, signal },
        { grant_type: 'refresh_token', refresh_token: current.refreshToken },
        current,
      );
    this.auth = this.ctx.rotateAuth ? await this.ctx.rotateAuth(this.auth, refresh) : await refresh(this.auth);
  }

  private async send(method: string, url: string, payload: unknown): Promise<{ body: unknown; trace: AttemptTrace }> {
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
    const init = {
      method,
      headers,
      body: payload === undefined ? undefined : JSON.stringify(payload),
      signal: this.ctx.signal,
    };
    const answer = await classifyResponse(await fetchWithTrace(this.ctx.fetch, url, init, trace), trace);
    this.lastTrace = answer.trace;
    return answer;
  }

  /** One call: refreshes an expiring token first, and once more on a 401; refusals in the folder's codes. */
  async request<T>(method: string, url: string, what: string, payload?: unknown): Promise<T> {
    if (this.auth.expiresAt - EXPIRY_SKEW_MS <= Date.now()) await this.refresh();
    let refreshed = false;
    for (;;) {
      try {
        return (await this.send(method, url, payload)).body as T;
      } catch (err) {
        if (err instanceof PermanentError && err.httpStatus === 401 && !refreshed) {
          refreshed = true;
          await this.refresh();
          continue;
        }
        if (err instanceof PermanentError || err instanceof RetryableError) {
          // A network failure or timeout (no answer) keeps its own code and words.
          if (err.httpStatus === undefined) throw err;
          throw refusal(err, what);
        }
        throw err;
      }
    }
  }

  sheets(path: string, query: Record<string, string> = {}): string {
    const url = new URL(`${this.sheetsUrl}/v4/spreadsheets${path}`);
    for (const [k, v] of Object.entries(query)) url.searchParams.set(k, v);
    return url.toString();
  }

  drive(path: string, query: Record<string, string> = {}): string {
    const url = new URL(`${driveUrlOf(this.sheetsUrl)}/drive/v3${path}`);
    for (const [k, v] of Object.entries(query)) url.searchParams.set(k, v);
    return url.toString();
  }
}
