// Turns a destination's HTTP answer into a result or a classified error, and keeps secrets out of traces.
import { setOwn } from '@leadrelay/shared';
import { PermanentError, RetryableError } from './errors';
import type { AttemptTrace } from './types';

/** Longest body text kept in a trace or an error message. */
export const MAX_TRACE_BODY = 4000;
const REDACTED = '[redacted]';

// Header names whose values are credentials: Authorization, Cookie, X-*-Signature, api keys, tokens, secrets.
const SENSITIVE_HEADER =
  /^(authorization|proxy-authorization|cookie|set-cookie|x-.*-signature|.*signature.*|.*api[-_]?key.*|.*token.*|.*secret.*|.*passw(or)?d.*|.*session.*|x-auth.*|.*credential.*)$/i;
const SENSITIVE_PARAM =
  /^(.*api[-_]?key.*|.*token.*|.*secret.*|.*passw(or)?d.*|.*signature.*|sig|key|auth|code|client_secret)$/i;

export function isSensitiveHeader(name: string): boolean {
  return SENSITIVE_HEADER.test(name);
}

/** Header values safe to store: credential-like headers keep their name with the value '[redacted]'. */
export function redact(
  headers: Headers | Record<string, string | string[] | undefined> | undefined,
): Record<string, string> {
  const out: Record<string, string> = {};
  if (!headers) return out;
  // Duck-typed: undici's own Headers (safe fetch) is not the global Headers class.
  const entries: [string, string][] =
    typeof (headers as Headers).entries === 'function' && typeof (headers as Headers).get === 'function'
      ? [...(headers as Headers).entries()]
      : Object.entries(headers as Record<string, string | string[] | undefined>).flatMap(([k, v]) =>
          v === undefined ? [] : [[k, Array.isArray(v) ? v.join(', ') : v]],
        );
  // Header names are the remote's: a `__proto__` header is kept as one, not taken as the prototype.
  for (const [name, value] of entries) setOwn(out, name.toLowerCase(), isSensitiveHeader(name) ? REDACTED : value);
  return out;
}

/** A URL safe to store: no user info, credential-like query values replaced. */
export function redactUrl(input: string | URL): string {
  let url: URL;
  try {
    url = new URL(input);
  } catch {
    return String(input);
  }
  if (url.username || url.password) {
    url.username = '';
    url.password = '';
  }
  for (const key of [...url.searchParams.keys()]) {
    if (SENSITIVE_PARAM.test(key)) url.searchParams.set(key, REDACTED);
  }
  return url.toString();
}

/** Retry-After in seconds or as an HTTP date, in milliseconds from now (never negative). */
export function parseRetryAfter(value: string | null | undefined, now = Date.now()): number | undefined {
  if (!value) return undefined;
  const trimmed = value.trim();
  if (/^\d+(\.\d+)?$/.test(trimmed)) return Math.round(Number(trimmed) * 1000);
  const at = Date.parse(trimmed);
  return Number.isNaN(at) ? undefined : Math.max(0, at - now);
}

function truncate(text: string): string {
  return text.length > MAX_TRACE_BODY ? `${text.slice(0, MAX_TRACE_BODY)}…` : text;
}

/** The body as JSON when it parses, else the (truncated) text. */
function parseBody(text: string): unknown {
  if (!text) return undefined;
  try {
    return JSON.parse(text);
  } catch {
    return truncate(text);
  }
}

/** A short human message from a destination's error body: message/error/detail fields, else the trimmed text. */
export function destinationMessage(body: unknown): string {
  if (body && typeof body === 'object') {
    const o = body as Record<string, unknown>;
    for (const key of ['message', 'error_description', 'error', 'detail', 'title', 'errors']) {
      const v = o[key];
      if (typeof v === 'string' && v.trim()) return v.trim().slice(0, 300);
      if (v && typeof v === 'object') {
        const nested = destinationMessage(v);
        if (nested) return nested;
        return JSON.stringify(v).slice(0, 300);
      }
    }
    return JSON.stringify(body).slice(0, 300);
  }
  return typeof body === 'string' ? body.trim().replace(/\s+/g, ' ').slice(0, 300) : '';
}

export interface ClassifiedResponse {
  status: number;
  /** Parsed JSON, or text, or undefined for an empty body. */
  body: unknown;
  /** The caller's trace with the (redacted) response added. */
  trace: AttemptTrace;
}

/**
 * 2xx → the parsed answer; 408/425/429/5xx → RetryableError (429 and 503 carry Retry-After as
 * retryAfterMs); other statuses → PermanentError with the destination's own message.
 * The trace passed in should already be redacted (request side); the response side is redacted here.
 */
export async function classifyResponse(res: Response, trace: AttemptTrace = {}): Promise<ClassifiedResponse> {
  let text: string;
  try {
    text = await res.text();
  } catch (err) {
    // The body timed out or the connection dropped mid-answer.
    const timedOut = (err as Error).name === 'TimeoutError' || (err as Error).name === 'AbortError';
    throw new RetryableError(
      `${timedOut ? 'TIMEOUT' : 'NETWORK'}: the answer's body did not arrive (${res.status}): ${(err as Error).message}`,
      { code: timedOut ? 'TIMEOUT' : 'NETWORK', httpStatus: res.status, ...trace, cause: err },
    );
  }
  const body = parseBody(text);
  const full: AttemptTrace = {
    ...trace,
    response: { status: res.status, headers: redact(res.headers), body },
  };
  const status = res.status;
  if (status >= 200 && status < 300) return { status, body, trace: full };

  const message = destinationMessage(body) || res.statusText || 'no message';
  const details = { httpStatus: status, request: full.request, response: full.response };
  if (status === 429 || status === 503) {
    const retryAfterMs = parseRetryAfter(res.headers.get('retry-after'));
    throw new RetryableError(`HTTP ${status}: ${message}`, {
      ...details,
      retryAfterMs,
      code: status === 429 ? 'RATE_LIMITED' : 'HTTP_5XX',
    });
  }
  if (status === 408 || status === 425 || status >= 500) {
    throw new RetryableError(`HTTP ${status}: ${message}`, {
      ...details,
      code: status >= 500 ? 'HTTP_5XX' : 'HTTP_4XX',
    });
  }
  if (status === 401 || status === 403)
    throw new PermanentError(`HTTP ${status}: ${message}`, { ...details, code: 'AUTH' });
  throw new PermanentError(`HTTP ${status}: ${message}`, {
    ...details,
    code: status >= 400 ? 'HTTP_4XX' : 'HTTP_UNEXPECTED',
  });
}
