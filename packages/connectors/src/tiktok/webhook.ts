// TikTok's LEAD webhook (Subscription API, docs/connectors/tiktok.md): a POST {object: 1, entry:
// [...], time} signed with our app's secret in X-Open-Signature (HMAC-SHA256, lowercase hex) over the
// payload with non-ASCII characters escaped as \uXXXX. Ids are 19-digit numbers in the samples, past
// what a JS number holds, so the body is read with big integers kept as text.
import { createHmac, timingSafeEqual } from 'node:crypto';
import { idText, quoteBigIntegers } from './json';
import type { TiktokLeadEntry } from './lead';

export const SIGNATURE_HEADER = 'x-open-signature';
/** `object` of a lead notification (other subscriptions send other numbers). */
export const LEAD_OBJECT = 1;
/** TikTok batches at most 1000 updates per request. */
const MAX_ENTRIES = 1000;
const MAX_CHANGES = 200;
const MAX_VALUE = 2000;

/** Every character past ASCII as \uXXXX with lowercase hex (astral ones as their surrogate pair). */
export function escapeNonAscii(text: string): string {
  return text.replace(/[\u0080-\uffff]/g, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`);
}

/** X-Open-Signature of a body, as TikTok makes it. */
export function signBody(raw: string | Buffer, appSecret: string): string {
  const text = typeof raw === 'string' ? raw : raw.toString('utf8');
  return createHmac('sha256', appSecret).update(escapeNonAscii(text), 'utf8').digest('hex');
}

const sameHex = (a: string, b: string) => {
  const x = Buffer.from(a, 'utf8');
  const y = Buffer.from(b, 'utf8');
  return x.length === y.length && timingSafeEqual(x, y);
};

/**
 * The header is the HMAC of the escaped payload with our app secret. The body on the wire may be
 * escaped already or not (TikTok does not say): both readings are the same secret's signature.
 */
export function verifySignature(raw: Buffer, header: string | undefined, appSecret: string): boolean {
  if (!appSecret || typeof header !== 'string') return false;
  const given = header.trim().toLowerCase();
  if (!/^[0-9a-f]{64}$/.test(given)) return false;
  const escaped = signBody(raw, appSecret);
  const asSent = createHmac('sha256', appSecret).update(raw).digest('hex');
  return sameHex(given, escaped) || sameHex(given, asSent);
}

/** The body as a value (big ids as text); throws on malformed JSON. */
export { quoteBigIntegers };

export function parseTiktokJson(raw: Buffer | string): unknown {
  const text = typeof raw === 'string' ? raw : raw.toString('utf8');
  return JSON.parse(quoteBigIntegers(text));
}

const isRecord = (v: unknown): v is Record<string, unknown> => !!v && typeof v === 'object' && !Array.isArray(v);
// Control characters (NUL above all: PostgreSQL's jsonb refuses it) are no one's answer; tabs and line breaks stay.
// biome-ignore lint/suspicious/noControlCharactersInRegex: the control characters are what it removes
const CONTROL = /[\u0000-\u0008\u000b\u000c\u000e-\u001f\u007f]/g;
const clean = (v: string) => v.replace(CONTROL, '');
/** An id as text when it looks like one (digits in production; the emulator's too): anything else is no id. */
const safeId = (v: unknown) => {
  const id = idText(v);
  return /^[A-Za-z0-9_-]{1,64}$/.test(id) ? id : '';
};
const str = (v: unknown) => {
  const text = typeof v === 'string' ? clean(v).trim() : '';
  return text ? text.slice(0, 300) : undefined;
};

/** An answer's value as text: a string or number as it is, a list joined with ", ", anything else dropped. */
function valueText(v: unknown): string {
  if (typeof v === 'string') return clean(v).slice(0, MAX_VALUE);
  if (typeof v === 'number' || typeof v === 'boolean') return String(v);
  if (Array.isArray(v)) return v.map(valueText).filter(Boolean).join(', ').slice(0, MAX_VALUE);
  return '';
}

/**
 * The leads of a parsed body, each once, in the order sent: entries without a lead id or an
 * advertiser are skipped, and a body that is not a lead notification (another `object`) gives none.
 * Never throws.
 */
export function parseLeadWebhook(body: unknown): TiktokLeadEntry[] {
  if (!isRecord(body) || Number(body.object) !== LEAD_OBJECT || !Array.isArray(body.entry)) return [];
  const seen = new Set<string>();
  const out: TiktokLeadEntry[] = [];
  for (const e of body.entry.slice(0, MAX_ENTRIES)) {
    if (!isRecord(e)) continue;
    const id = safeId(e.id);
    const advertiserId = safeId(e.advertiser_id);
    if (!id || !advertiserId || seen.has(id)) continue;
    seen.add(id);
    const changes = (Array.isArray(e.changes) ? e.changes : []).slice(0, MAX_CHANGES).flatMap((ch) => {
      const field = typeof ch?.field === 'string' ? clean(ch.field).trim() : '';
      if (!isRecord(ch) || !field) return [];
      return [{ field: field.slice(0, 200), value: valueText(ch.value) }];
    });
    const createTime = Number(e.create_time);
    out.push({
      id,
      advertiserId,
      advertiserName: str(e.advertiser_name),
      pageId: safeId(e.page_id) || undefined,
      pageName: str(e.page_name),
      campaignId: safeId(e.campaign_id) || undefined,
      campaignName: str(e.campaign_name),
      adgroupId: safeId(e.adgroup_id) || undefined,
      adgroupName: str(e.adgroup_name),
      adId: safeId(e.ad_id) || undefined,
      adName: str(e.ad_name),
      createTime: Number.isFinite(createTime) && createTime > 0 ? createTime : undefined,
      leadSource: str(e.lead_source),
      changes,
    });
  }
  return out;
}
