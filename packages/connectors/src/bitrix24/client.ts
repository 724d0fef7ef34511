// The only file of the Bitrix24 destination that does HTTP. Every call is a REST method POSTed as
// JSON to the inbound webhook's base (https://{portal}/rest/{user}/{code}/{method}.json) through
// ctx.fetch (the engine's safe fetch: private addresses refused unless the operator allows them).
// Bitrix24 answers {result, total?, next?, time} or {error, error_description} (apidocs.bitrix24.com
// error-codes.md); those become results or classified errors whose messages start with a code the
// web translates. The webhook's code is a credential: it never reaches a trace, a message or a log.
import { z } from 'zod';
import { sleep as sleepOrAbort } from '../kit/client-kit';
import { PermanentError, RetryableError } from '../kit/errors';
import { parseRetryAfter, redact } from '../kit/http-errors';
import type { AttemptTrace, ConnectorContext } from '../kit/types';
import { type InboundWebhook, parseInboundWebhook, webhookBase } from './schema';

/** What is stored (sealed): the inbound webhook's address, a secret in itself. */
export const ZBitrix24Auth = z.object({
  kind: z.literal('webhook'),
  webhookUrl: z.string().refine((u) => parseInboundWebhook(u) !== undefined, 'an inbound webhook address'),
});
export type Bitrix24Auth = z.infer<typeof ZBitrix24Auth>;
export type Bitrix24Context<S = unknown> = ConnectorContext<Bitrix24Auth, S>;

/** QUERY_LIMIT_EXCEEDED (2 requests a second, a leaky bucket): waited out once inside the call. */
export const LIMIT_WAIT_MS = 1_000;
/** A list page (Bitrix24 answers 50 at a time, `next` is the next `start`). */
const MAX_PAGES = 20;
/** OVERLOAD_LIMIT is a manual block until support lifts it: try again much later. */
const OVERLOAD_RETRY_MS = 30 * 60_000;

const sleep = (ms: number, signal?: AbortSignal) =>
  sleepOrAbort(ms, signal, () => new RetryableError('ABORTED: the call was cancelled', { code: 'ABORTED' }));

/** An address with the webhook's code (the path segment after /rest/{user}/) hidden. */
export function redactWebhookUrl(url: string): string {
  return url.replace(/(\/rest\/\d+\/)[^/?#]+/, '$1[redacted]');
}

interface Envelope {
  result?: unknown;
  total?: unknown;
  next?: unknown;
  error?: unknown;
  error_description?: unknown;
}

/** Bitrix24's error code and description (its description is not meant for end users: kept as detail). */
export function errorOf(body: unknown): { error: string; description: string } | undefined {
  if (!body || typeof body !== 'object' || Array.isArray(body)) return undefined;
  const { error, error_description } = body as Envelope;
  if (typeof error !== 'string' && typeof error_description !== 'string') return undefined;
  return {
    error: typeof error === 'string' ? error : '',
    description: typeof error_description === 'string' ? error_description.trim().slice(0, 300) : '',
  };
}

function parse(text: string): unknown {
  if (!text) return undefined;
  try {
    return JSON.parse(text);
  } catch {
    return text.slice(0, 500);
  }
}

export class Bitrix24Client {
  readonly webhook: InboundWebhook;
  /** The last successful call's request and response (redacted), for the delivery's attempt record. */
  lastTrace: AttemptTrace = {};

  constructor(private readonly ctx: Bitrix24Context) {
    const parsed = parseInboundWebhook(ctx.auth.webhookUrl);
    if (!parsed) throw new PermanentError('BITRIX24_WEBHOOK_URL_INVALID', { code: 'AUTH' });
    this.webhook = parsed;
  }

  /** Text without the webhook's code (a fetch error can echo the URL). */
  private scrub(text: string): string {
    return text.split(this.webhook.code).join('[redacted]');
  }

  /** One failed answer as the delivery records it: our code first, Bitrix24's words after. */
  private failure(method: string, status: number, body: unknown, headers: Headers, trace: AttemptTrace): Error {
    const { error = '', description = '' } = errorOf(body) ?? {};
    const detail = this.scrub([error, description].filter(Boolean).join(': ') || `HTTP ${status}`);
    const details = { ...trace, httpStatus: status };
    const retryAfterMs = parseRetryAfter(headers.get('retry-after'));
    if (error === 'QUERY_LIMIT_EXCEEDED' || status === 429) {
      return new RetryableError(`RATE_LIMITED: HTTP ${status}: ${detail}`, {
        ...details,
        code: 'RATE_LIMITED',
        retryAfterMs: retryAfterMs ?? LIMIT_WAIT_MS,
      });
    }
    if (error === 'OVERLOAD_LIMIT') {
      return new RetryableError(`BITRIX24_OVERLOADED: ${detail}`, {
        ...details,
        code: 'RATE_LIMITED',
        retryAfterMs: OVERLOAD_RETRY_MS,
      });
    }
    if (error === 'PORTAL_DELETED')
      return new PermanentError(`BITRIX24_PORTAL_GONE: ${detail}`, { ...details, code: 'CONFIGURATION' });
    if (error === 'insufficient_scope') {
      // The webhook lacks the scope of this method: CRM for crm.*, Users for user.*.
      const code = method.startsWith('user.') ? 'BITRIX24_NO_USER_SCOPE' : 'BITRIX24_NO_CRM_SCOPE';
      return new PermanentError(`${code}: ${detail}`, { ...details, code: 'AUTH' });
    }
    if (error === 'ACCESS_DENIED' && status === 403) {
      // "REST API is available only on commercial plans".
      return new PermanentError(`BITRIX24_PLAN_REQUIRED: ${detail}`, { ...details, code: 'CONFIGURATION' });
    }
    if (error === 'INVALID_CREDENTIALS' || error === 'user_access_error') {
      return new PermanentError(`BITRIX24_ACCESS_DENIED: ${detail}`, { ...details, code: 'AUTH' });
    }
    if (status === 401 || error === 'NO_AUTH_FOUND' || error === 'expired_token' || error === 'invalid_token') {
      return new PermanentError(`BITRIX24_WEBHOOK_REFUSED: HTTP ${status}`, { ...details, code: 'AUTH' });
    }
    if (status >= 500 || status === 408 || status === 425) {
      return new RetryableError(`HTTP_5XX: HTTP ${status}: ${detail}`, { ...details, code: 'HTTP_5XX', retryAfterMs });
    }
    if (status === 403) return new PermanentError(`BITRIX24_ACCESS_DENIED: ${detail}`, { ...details, code: 'AUTH' });
    if (status === 404 && !error) {
      // No REST at this address at all: the portal moved or was closed.
      return new PermanentError(`BITRIX24_PORTAL_GONE: HTTP 404`, { ...details, code: 'CONFIGURATION' });
    }
    return new PermanentError(`BITRIX24_REFUSED: ${detail}`, { ...details, code: 'HTTP_4XX' });
  }

  /** One REST method; waits out one QUERY_LIMIT_EXCEEDED. Answers the whole envelope. */
  async call(method: string, params: Record<string, unknown> = {}): Promise<Envelope> {
    const url = `${webhookBase(this.webhook)}${method}.json`;
    const headers = { accept: 'application/json', 'content-type': 'application/json' };
    const trace: AttemptTrace = {
      request: { method: 'POST', url: redactWebhookUrl(url), headers: redact(headers), body: params },
    };
    let waited = false;
    for (;;) {
      let res: Response;
      try {
        res = await this.ctx.fetch(url, {
          method: 'POST',
          headers,
          body: JSON.stringify(params),
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
      let text: string;
      try {
        text = await res.text();
      } catch (err) {
        const timedOut = ['TimeoutError', 'AbortError'].includes((err as Error).name);
        throw new RetryableError(`${timedOut ? 'TIMEOUT' : 'NETWORK'}: the answer did not arrive`, {
          ...trace,
          code: timedOut ? 'TIMEOUT' : 'NETWORK',
        });
      }
      const body = parse(text);
      const full: AttemptTrace = {
        ...trace,
        response: { status: res.status, headers: redact(res.headers), body },
      };
      const failed = !res.ok || errorOf(body) !== undefined;
      if (!failed) {
        this.lastTrace = full;
        if (!body || typeof body !== 'object' || !('result' in body)) {
          throw new PermanentError('HTTP_UNEXPECTED: Bitrix24 answered without a result', {
            ...full,
            httpStatus: res.status,
            code: 'HTTP_UNEXPECTED',
          });
        }
        return body as Envelope;
      }
      const err = this.failure(method, res.status, body, res.headers, full);
      const wait = err instanceof RetryableError ? (err.retryAfterMs ?? LIMIT_WAIT_MS) : Number.POSITIVE_INFINITY;
      if (errorOf(body)?.error === 'QUERY_LIMIT_EXCEEDED' && wait <= 2 * LIMIT_WAIT_MS && !waited) {
        waited = true;
        this.ctx.logger.debug({ method }, 'Bitrix24 request limit: waiting');
        await sleep(wait, this.ctx.signal);
        continue;
      }
      throw err;
    }
  }

  /** A method's `result`. */
  async result<T>(method: string, params: Record<string, unknown> = {}): Promise<T> {
    return (await this.call(method, params)).result as T;
  }

  /** A list method's items over its pages (`start`, `next`); `pick` reads the items out of one `result`. */
  async list<T>(
    method: string,
    params: Record<string, unknown>,
    pick: (result: unknown) => unknown = (r) => r,
  ): Promise<T[]> {
    const all: T[] = [];
    let start: number | undefined = 0;
    for (let page = 0; page < MAX_PAGES && start !== undefined; page++) {
      const answer = await this.call(method, { ...params, start });
      const items = pick(answer.result);
      if (Array.isArray(items)) all.push(...(items as T[]));
      start = typeof answer.next === 'number' && answer.next > start ? answer.next : undefined;
    }
    return all;
  }
}

export const bitrix24Client = (ctx: Bitrix24Context): Bitrix24Client => new Bitrix24Client(ctx);
