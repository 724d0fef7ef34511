// Pure: the Measurement Protocol event a lead becomes. client_id comes from the lead's `_ga` cookie
// value when the form passed it (GA1.1.123.456 → 123.456), else it is derived from the lead (the
// same e-mail or phone gives the same id); values are cut to the protocol's 100 characters.

import { createHash } from 'node:crypto';
import { getLeadField, type Lead, setOwn, UTM_KEYS } from '@leadrelay/shared';
import { GA_LIMITS, type GaEvent, type GaPayload, type GaSettings } from './schema';

/** A lead path of the settings (name, utm.source, custom.key) read from the lead. */
const read = (lead: Lead, path: string | undefined) =>
  path ? getLeadField(lead, path)?.trim() || undefined : undefined;

/**
 * The client id in a `_ga` cookie value: GA1.1.1234567890.1700000000 (version, domain depth, random
 * number, first-visit time) → 1234567890.1700000000. A value already in that form is kept; anything
 * else is not a client id.
 */
export function clientIdFromCookie(value: string | undefined): string | undefined {
  const v = value?.trim();
  if (!v) return undefined;
  // The second field is the cookie's domain depth, or depth-path depth ("4-2") with a cookie path.
  const cookie = /^GA\d+\.[\d-]+\.(\d+\.\d+)$/.exec(v);
  if (cookie) return cookie[1];
  return /^\d+\.\d+$/.test(v) ? v : undefined;
}

/** A stable id in the _ga form for a lead without one: from its e-mail, else phone, else the delivery. */
export function derivedClientId(lead: Lead, idempotencyKey: string): string {
  const basis = lead.email?.trim().toLowerCase() || lead.phone?.replace(/\D+/g, '') || idempotencyKey.split(':')[0];
  const digest = createHash('sha256').update(`leadrelay-ga|${basis}`).digest();
  // Two unsigned 31-bit numbers, like the cookie's random part and time.
  return `${digest.readUInt32BE(0) >>> 1}.${digest.readUInt32BE(4) >>> 1}`;
}

/** A number from a lead field: "1 500,50" and "1500.5" alike; undefined when it is not one. */
export function amountOf(text: string | undefined): number | undefined {
  if (!text) return undefined;
  const cleaned = text.replace(/[\s\u00a0]/g, '').replace(/[^\d.,-]/g, '');
  const normal = /,\d{1,2}$/.test(cleaned) ? cleaned.replace(/\./g, '').replace(',', '.') : cleaned.replace(/,/g, '');
  const n = Number(normal);
  return normal && Number.isFinite(n) ? n : undefined;
}

const cut = (text: string) => text.slice(0, GA_LIMITS.paramValueLength);

/** The payload for one lead; nothing in it is the secret (that goes in the URL). */
export function toGaPayload(lead: Lead, settings: GaSettings, idempotencyKey: string): GaPayload {
  const params: GaEvent['params'] = {};
  const value = amountOf(read(lead, settings.valueField)) ?? settings.value;
  if (value !== undefined) {
    const currency = read(lead, settings.currencyField)?.toUpperCase();
    params.currency = currency && /^[A-Z]{3}$/.test(currency) ? currency : settings.currency;
    params.value = value;
  }
  if (settings.utm) {
    for (const key of UTM_KEYS) {
      const v = lead.utm?.[key]?.trim();
      if (v) setOwn(params, `utm_${key}`, cut(v));
    }
    if (lead.utm?.source?.trim()) params.lead_source = cut(lead.utm.source.trim());
  }
  for (const p of settings.params) {
    const v = read(lead, p.from);
    if (v) setOwn(params, p.name, cut(v));
  }
  const clientId = clientIdFromCookie(read(lead, settings.clientIdField)) ?? derivedClientId(lead, idempotencyKey);
  const userId = read(lead, settings.userIdField);
  return {
    client_id: clientId,
    ...(userId ? { user_id: userId } : {}),
    events: [{ name: settings.eventName, params }],
  };
}
