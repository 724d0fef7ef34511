// The only file of the AlphaSMS connector that does HTTP (always through ctx.fetch). One endpoint,
// POST {base}/api/json.php with Content-Type: application/json and {auth, data: [items]}. AlphaSMS
// answers HTTP 200 to nearly everything: a refused key or a broken request is success:false at the
// top, a refused message success:false in its item, so the status alone proves nothing.

import { fetchWithTrace } from '../kit/client-kit';
import { PermanentError, RetryableError } from '../kit/errors';
import { classifyResponse, redact, redactUrl } from '../kit/http-errors';
import type { AttemptTrace, ConnectorContext } from '../kit/types';
import { alphaError } from './mapping';
import type { AlphaSmsAuth, AlphaSmsSettings } from './schema';

export type AlphaContext = ConnectorContext<AlphaSmsAuth, AlphaSmsSettings>;

/** Ukrainian accounts' host; alphasms.net serves the same API for the rest of the world. */
export const ALPHASMS_API_URL = 'https://alphasms.ua';

export interface ItemResult {
  success: boolean;
  error?: string;
  data?: Record<string, unknown>;
}

export interface CallResult {
  items: ItemResult[];
  trace: AttemptTrace;
}

const baseOf = (ctx: Pick<AlphaContext, 'baseUrl'>) => (ctx.baseUrl ?? ALPHASMS_API_URL).replace(/\/+$/, '');

/**
 * One call with these items; the per-item answers, in order. Throws PermanentError AUTH for a
 * refused key, a classified error for other top-level refusals and for 429/5xx, RetryableError for
 * an answer that is not AlphaSMS's JSON.
 */
export async function call(ctx: AlphaContext, items: Record<string, unknown>[]): Promise<CallResult> {
  const url = `${baseOf(ctx)}/api/json.php`;
  const headers = { 'content-type': 'application/json', accept: 'application/json' };
  const trace: AttemptTrace = {
    request: {
      method: 'POST',
      url: redactUrl(url),
      headers: redact(headers),
      body: { auth: '[redacted]', data: items },
    },
  };
  const res = await fetchWithTrace(
    ctx.fetch,
    url,
    { method: 'POST', headers, body: JSON.stringify({ auth: ctx.auth.apiKey, data: items }), signal: ctx.signal },
    trace,
  );
  const { status, body, trace: full } = await classifyResponse(res, trace);
  const envelope = body as { success?: unknown; error?: unknown; data?: unknown } | undefined;
  if (!envelope || typeof envelope !== 'object' || typeof envelope.success !== 'boolean') {
    throw new RetryableError('ALPHASMS_ERROR: the answer is not AlphaSMS JSON', {
      ...full,
      httpStatus: status,
      code: 'HTTP_UNEXPECTED',
    });
  }
  if (envelope.success === false) {
    const text = typeof envelope.error === 'string' ? envelope.error : '';
    const meaning = alphaError(text);
    // The provider's words stay in the trace; the message is the code the web translates.
    if (meaning.kind === 'auth') throw new PermanentError(meaning.code, { ...full, httpStatus: status, code: 'AUTH' });
    if (meaning.kind === 'configuration') {
      throw new PermanentError(meaning.code, { ...full, httpStatus: status, code: 'CONFIGURATION' });
    }
    throw new RetryableError(text ? `${meaning.code}: ${text.slice(0, 200)}` : meaning.code, {
      ...full,
      httpStatus: status,
      code: meaning.code,
    });
  }
  const data = Array.isArray(envelope.data) ? envelope.data : [];
  const results = items.map((_, i): ItemResult => {
    const item = data[i] as { success?: unknown; error?: unknown; data?: unknown } | undefined;
    if (!item || typeof item !== 'object') return { success: false, error: 'no answer for the item' };
    return {
      success: item.success === true,
      error: typeof item.error === 'string' ? item.error : undefined,
      data: item.data && typeof item.data === 'object' ? (item.data as Record<string, unknown>) : undefined,
    };
  });
  return { items: results, trace: full };
}

/** A number AlphaSMS sends as a number or a numeric string. */
export const numberOf = (v: unknown): number | undefined =>
  typeof v === 'number' && Number.isFinite(v)
    ? v
    : typeof v === 'string' && v.trim() && Number.isFinite(Number(v))
      ? Number(v)
      : undefined;

/** The account's balance (type "balance"). */
export async function balance(ctx: AlphaContext): Promise<{ amount: number; currency: string }> {
  const { items, trace } = await call(ctx, [{ type: 'balance' }]);
  const [item] = items;
  const amount = numberOf(item?.data?.amount);
  if (!item?.success || amount === undefined) {
    const meaning = alphaError(item?.error);
    throw new PermanentError(meaning.code, { ...trace, code: meaning.kind === 'auth' ? 'AUTH' : 'HTTP_UNEXPECTED' });
  }
  const currency = typeof item.data?.currency === 'string' ? item.data.currency : 'UAH';
  return { amount, currency };
}

export interface MessageStatus {
  msgId: string;
  /** AlphaSMS's word (DELIVERED, READ, UNDELIVERABLE …), upper case; undefined when it does not know the message. */
  status?: string;
  cost?: number;
}

/** The statuses of sent messages by their msg_id (type "status"), in one call. */
export async function statuses(ctx: AlphaContext, msgIds: string[]): Promise<MessageStatus[]> {
  if (!msgIds.length) return [];
  const { items } = await call(
    ctx,
    msgIds.map((id) => ({ type: 'status', id: numberOf(id) ?? id })),
  );
  return msgIds.map((msgId, i) => {
    const item = items[i];
    const status = item?.success && typeof item.data?.status === 'string' ? item.data.status.toUpperCase() : undefined;
    const cost = numberOf(item?.data?.price ?? item?.data?.cost);
    return { msgId, ...(status ? { status } : {}), ...(cost !== undefined ? { cost } : {}) };
  });
}
