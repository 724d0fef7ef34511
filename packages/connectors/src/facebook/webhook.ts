// Meta's leadgen webhook (external-apis 1.5): the signature over the exact raw bytes and the
// notifications a POST carries. Meta escapes non-ASCII as \uXXXX (and "/" as "\/"), so a body parsed
// and serialised again does not match: verify before parsing, on the bytes received.
import { createHmac, timingSafeEqual } from 'node:crypto';

export const SIGNATURE_256_HEADER = 'x-hub-signature-256';
export const SIGNATURE_SHA1_HEADER = 'x-hub-signature';

const toBuffer = (raw: Buffer | string) => (typeof raw === 'string' ? Buffer.from(raw, 'utf8') : raw);

/** The X-Hub-Signature-256 value Meta sends for this body: "sha256=<lowercase hex>". */
export function signBody(rawBody: Buffer | string, appSecret: string): string {
  return `sha256=${createHmac('sha256', appSecret).update(toBuffer(rawBody)).digest('hex')}`;
}

/** The legacy X-Hub-Signature value: "sha1=<lowercase hex>". */
export function signBodySha1(rawBody: Buffer | string, appSecret: string): string {
  return `sha1=${createHmac('sha1', appSecret).update(toBuffer(rawBody)).digest('hex')}`;
}

/** Whether X-Hub-Signature-256 matches the raw body; false when missing or malformed. Constant time. */
export function verifySignature(rawBody: Buffer | string, header: string | undefined, appSecret: string): boolean {
  if (!header || !appSecret) return false;
  const match = /^sha256=([0-9a-f]{64})$/i.exec(header.trim());
  if (!match?.[1]) return false;
  const given = Buffer.from(match[1].toLowerCase(), 'hex');
  const expected = createHmac('sha256', appSecret).update(toBuffer(rawBody)).digest();
  return given.length === expected.length && timingSafeEqual(given, expected);
}

export interface LeadgenNotification {
  leadgenId: string;
  pageId: string;
  formId?: string;
  adId?: string;
  /** Unix seconds. */
  createdTime?: number;
}

const idOf = (value: unknown): string | undefined => {
  if (typeof value === 'string' && value.trim() && value.length <= 64) return value.trim();
  if (typeof value === 'number' && Number.isSafeInteger(value) && value > 0) return String(value);
  return undefined;
};

const isRecord = (value: unknown): value is Record<string, unknown> =>
  value !== null && typeof value === 'object' && !Array.isArray(value);

/**
 * Every leadgen notification of a page webhook body: all entries, all changes with field "leadgen".
 * Anything else (other objects, other fields, junk) is ignored; never throws.
 */
export function parseLeadgenWebhook(body: unknown): LeadgenNotification[] {
  if (!isRecord(body) || body.object !== 'page' || !Array.isArray(body.entry)) return [];
  const out: LeadgenNotification[] = [];
  for (const entry of body.entry) {
    if (!isRecord(entry) || !Array.isArray(entry.changes)) continue;
    for (const change of entry.changes) {
      if (!isRecord(change) || change.field !== 'leadgen' || !isRecord(change.value)) continue;
      const value = change.value;
      const leadgenId = idOf(value.leadgen_id);
      const pageId = idOf(value.page_id) ?? idOf(entry.id);
      if (!leadgenId || !pageId) continue;
      const formId = idOf(value.form_id);
      const adId = idOf(value.ad_id) ?? idOf(value.adgroup_id);
      const created = typeof value.created_time === 'string' ? Number(value.created_time) : value.created_time;
      out.push({
        leadgenId,
        pageId,
        ...(formId ? { formId } : {}),
        ...(adId ? { adId } : {}),
        ...(typeof created === 'number' && Number.isFinite(created) ? { createdTime: created } : {}),
      });
    }
  }
  return out;
}

/** JSON as Meta writes it: non-ASCII as \uXXXX and "/" as "\/" (for the emulator and tests). */
export function metaJson(value: unknown): string {
  return JSON.stringify(value)
    .replace(/[\u007f-\uffff]/g, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`)
    .replace(/\//g, '\\/');
}
