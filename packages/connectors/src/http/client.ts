// The only file of the http destination that does HTTP. It always goes through ctx.fetch (the engine's safe fetch).
import { createHmac } from 'node:crypto';
import { fetchWithTrace } from '../kit/client-kit';
import { type ClassifiedResponse, classifyResponse, redact, redactUrl } from '../kit/http-errors';
import type { AttemptTrace, ConnectorContext } from '../kit/types';

export interface HttpAuth {
  secret?: string;
}
export interface HttpSettings {
  url: string;
  headers?: Record<string, string>;
  format?: 'lead' | 'lead+raw';
}
export type HttpContext = ConnectorContext<HttpAuth, HttpSettings>;

export const USER_AGENT = 'LeadRelay/1.0';
export const SIGNATURE_HEADER = 'X-LeadRelay-Signature';
export const TIMESTAMP_HEADER = 'X-LeadRelay-Timestamp';

/** `sha256=<hex>` over the exact body bytes, as a receiver recomputes it. */
export function sign(secret: string, body: string | Uint8Array): string {
  return `sha256=${createHmac('sha256', secret).update(body).digest('hex')}`;
}

export interface PostResult extends ClassifiedResponse {
  trace: AttemptTrace;
}

/** POSTs a JSON body to the user's URL, signed when a secret is set; throws classified errors. */
export async function postJson(ctx: HttpContext, payload: unknown, idempotencyKey: string): Promise<PostResult> {
  const body = JSON.stringify(payload);
  // User headers first, so ours (content type, key, signature) always win.
  const headers: Record<string, string> = { ...(ctx.settings.headers ?? {}) };
  headers['content-type'] = 'application/json';
  headers['user-agent'] = USER_AGENT;
  headers['idempotency-key'] = idempotencyKey;
  if (ctx.auth.secret) {
    headers[TIMESTAMP_HEADER.toLowerCase()] = String(Math.floor(Date.now() / 1000));
    headers[SIGNATURE_HEADER.toLowerCase()] = sign(ctx.auth.secret, body);
  }
  const trace: AttemptTrace = {
    request: { method: 'POST', url: redactUrl(ctx.settings.url), headers: redact(headers), body: payload },
  };
  // Safe fetch already classifies; attach our request trace. Anything else counts as a network failure.
  const init = { method: 'POST', headers, body, signal: ctx.signal };
  return classifyResponse(await fetchWithTrace(ctx.fetch, ctx.settings.url, init, trace), trace);
}

/** The destination's record id, when its JSON answer has one. */
export function externalIdOf(body: unknown): string | undefined {
  if (!body || typeof body !== 'object') return undefined;
  const id = (body as { id?: unknown }).id;
  return typeof id === 'string' || typeof id === 'number' ? String(id) : undefined;
}
