// The one fetch wrapper (spec section 7, request rules; section 4, session expiry).
import type { ApiError } from '@leadrelay/shared';
import { clearToken, getToken, isSignedOutOnPurpose, isTokenFresh, setToken } from './auth';
import { currentLocale, readLangCookie, stripLocale, withLocale } from './locale';

export class HttpError extends Error {
  readonly status: number;
  readonly code: string;
  readonly errors: { field: string; code: string }[];
  readonly retryAfter: number | null;
  /** The server's own message, empty when the body had none. */
  readonly serverMessage: string;

  constructor(status: number, body: Partial<ApiError> | null, retryAfter: number | null = null) {
    super(body?.message || `HTTP ${status}`);
    this.name = 'HttpError';
    this.status = status;
    this.code = body?.code ?? (status >= 500 ? 'INTERNAL_ERROR' : 'UNKNOWN');
    this.errors = body?.errors ?? [];
    this.retryAfter = retryAfter;
    this.serverMessage = body?.message ?? '';
  }
}

export const API_URL: string = (import.meta.env.VITE_API_URL as string | undefined) ?? '';

type Navigator = (url: string) => void;
let navigateTo: Navigator = (url) => window.location.assign(url);
/** The router registers its navigate so session expiry stays inside the SPA. */
export function setHttpNavigator(fn: Navigator): void {
  navigateTo = fn;
}

/** Paths where a 401 is part of the flow, not an expired session. */
const NO_SESSION_REDIRECT_CALLS = ['/api/auth/refresh', '/auth/refresh', '/api/auth/logout'];
const NO_SESSION_REDIRECT_PAGES = ['/signin', '/signup', '/recovery'];

/**
 * A 401 ends the session it was sent with. Not one that was ended on purpose (logout, account
 * removed: its calls in flight and the queries refetched after it answer 401 too), and not a newer
 * one: an answer to a call made with another token than the current one says nothing about it.
 */
function onSessionExpired(sentWith: string | null): void {
  if (isSignedOutOnPurpose() || sentWith !== getToken()) return;
  clearToken();
  const page = stripLocale(window.location.pathname);
  if (NO_SESSION_REDIRECT_PAGES.includes(page)) return;
  navigateTo(withLocale('/signin?message=session', currentLocale()));
}

export interface RequestOptions {
  method?: string;
  body?: unknown;
  headers?: Record<string, string>;
  query?: Record<string, string | number | undefined>;
  signal?: AbortSignal;
}

function buildUrl(path: string, query?: RequestOptions['query']): string {
  let url = API_URL + path;
  if (query) {
    const params = new URLSearchParams();
    for (const [k, v] of Object.entries(query)) if (v !== undefined) params.set(k, String(v));
    const s = params.toString();
    if (s) url += (url.includes('?') ? '&' : '?') + s;
  }
  return url;
}

async function parseBody(res: Response): Promise<unknown> {
  const text = await res.text();
  if (!text) return null;
  try {
    return JSON.parse(text);
  } catch {
    return { message: text };
  }
}

async function send(path: string, opts: RequestOptions): Promise<Response> {
  const headers: Record<string, string> = { Accept: 'application/json', ...opts.headers };
  const hasHeader = (name: string) => Object.keys(headers).some((k) => k.toLowerCase() === name.toLowerCase());
  const token = getToken();
  if (token && !hasHeader('authorization')) headers.Authorization = `Bearer ${token}`;
  const lang = readLangCookie();
  if (lang && !hasHeader('lang')) headers.Lang = lang;
  let body: BodyInit | undefined;
  if (opts.body instanceof FormData) body = opts.body;
  else if (opts.body !== undefined) {
    body = JSON.stringify(opts.body);
    if (!hasHeader('content-type')) headers['Content-Type'] = 'application/json';
  }
  return fetch(buildUrl(path, opts.query), {
    method: opts.method ?? (body ? 'POST' : 'GET'),
    credentials: 'include',
    headers,
    body,
    signal: opts.signal,
  });
}

let refreshing: Promise<string | null> | null = null;

/** GET /api/auth/refresh, deduplicated while in flight. Resolves to the new token or null. */
export function refreshAccessToken(): Promise<string | null> {
  refreshing ??= (async () => {
    try {
      const res = await send('/api/auth/refresh', { method: 'GET' });
      if (!res.ok) return null;
      const data = (await parseBody(res)) as { accessToken?: string } | null;
      if (!data?.accessToken) return null;
      setToken(data.accessToken);
      return data.accessToken;
    } catch (err) {
      console.warn('refresh failed', err);
      return null;
    } finally {
      refreshing = null;
    }
  })();
  return refreshing;
}

const isAuthCall = (path: string) => NO_SESSION_REDIRECT_CALLS.some((p) => path.startsWith(p));

async function sendChecked(path: string, opts: RequestOptions): Promise<Response> {
  // An access token about to expire is renewed first, so a long visit does not end in a 401.
  const token = getToken();
  if (token && !isAuthCall(path) && !isTokenFresh(token, 10)) await refreshAccessToken();
  const sentWith = getToken();
  const res = await send(path, opts);
  if (!res.ok) {
    const data = await parseBody(res);
    const retry = Number(res.headers.get('Retry-After'));
    const error = new HttpError(res.status, data as Partial<ApiError> | null, Number.isFinite(retry) ? retry : null);
    if (res.status === 401 && !isAuthCall(path)) onSessionExpired(sentWith);
    throw error;
  }
  return res;
}

/** JSON request; throws HttpError for non-2xx answers (after the 401 handling). */
export async function http<T = unknown>(path: string, opts: RequestOptions = {}): Promise<T> {
  const res = await sendChecked(path, opts);
  return (await parseBody(res)) as T;
}

/**
 * A file the API serves to the signed-in user (an invoice's PDF): the same authorisation and error
 * handling as `http`, the body as a blob and the file name the server suggests.
 */
export async function httpFile(
  path: string,
  opts: RequestOptions = {},
): Promise<{ blob: Blob; filename: string | null }> {
  const res = await sendChecked(path, { ...opts, headers: { Accept: '*/*', ...opts.headers } });
  const disposition = res.headers.get('Content-Disposition') ?? '';
  const match = /filename\*=UTF-8''([^;]+)|filename="?([^";]+)"?/i.exec(disposition);
  const raw = match?.[1] ?? match?.[2];
  let filename: string | null = null;
  if (raw) {
    try {
      filename = decodeURIComponent(raw);
    } catch {
      filename = raw;
    }
  }
  return { blob: await res.blob(), filename };
}

export const api = {
  get: <T>(path: string, query?: RequestOptions['query']) => http<T>(path, { method: 'GET', query }),
  post: <T>(path: string, body?: unknown) => http<T>(path, { method: 'POST', body: body ?? {} }),
  patch: <T>(path: string, body: unknown) => http<T>(path, { method: 'PATCH', body }),
  delete: <T>(path: string) => http<T>(path, { method: 'DELETE' }),
};
