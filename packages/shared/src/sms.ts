// How long an SMS is, in the parts an operator bills: the same count on an SMS destination's live
// preview and in the server's SMS log. Text that fits the GSM 03.38 alphabet is 7-bit: 160
// characters in one part, 153 per part once split (the rest carries the joining header); a
// character of the GSM extension table (€ [ ] { } \ ^ ~ | and form feed) takes two. Anything else
// (Cyrillic, emoji) is UCS-2: 70 UTF-16 units in one part, 67 per part when split. A split never
// cuts an extension character's escape from it, nor a surrogate pair in two.

import { ownValue } from './own';

const GSM_BASIC =
  '@£$¥èéùìòÇ\nØø\rÅåΔ_ΦΓΛΩΠΨΣΘΞÆæßÉ !"#¤%&\'()*+,-./0123456789:;<=>?¡ABCDEFGHIJKLMNOPQRSTUVWXYZÄÖÑÜ§¿abcdefghijklmnopqrstuvwxyzäöñüà';
const GSM_EXTENSION = '^{}\\[~]|€\f';
const BASIC = new Set(GSM_BASIC);
const EXTENSION = new Set(GSM_EXTENSION);

export const SMS_LIMITS = {
  'GSM-7': { single: 160, multi: 153 },
  'UCS-2': { single: 70, multi: 67 },
} as const;

export type SmsEncoding = keyof typeof SMS_LIMITS;

export interface SmsCount {
  encoding: SmsEncoding;
  /** Septets (GSM-7) or UTF-16 units (UCS-2) the text takes. */
  units: number;
  /** Parts the operator sends and bills; 0 for empty text. */
  parts: number;
  /** Units one part holds at this length: 160/70 while it fits one, else 153/67. */
  perPart: number;
  /** Units left in the last part before another one starts. */
  remaining: number;
}

/** True when every character is in the GSM 03.38 alphabet (its extension table included). */
export function isGsm7(text: string): boolean {
  for (const ch of text) if (!BASIC.has(ch) && !EXTENSION.has(ch)) return false;
  return true;
}

/** The cost of each character (whole code points, so a surrogate pair stays one). */
function costs(text: string, encoding: SmsEncoding): number[] {
  const out: number[] = [];
  for (const ch of text) out.push(encoding === 'GSM-7' ? (EXTENSION.has(ch) ? 2 : 1) : ch.length);
  return out;
}

/** How many parts `text` takes (see the file's head for the rules). */
export function countSms(text: string): SmsCount {
  const encoding: SmsEncoding = isGsm7(text) ? 'GSM-7' : 'UCS-2';
  const { single, multi } = SMS_LIMITS[encoding];
  const each = costs(text, encoding);
  const units = each.reduce((a, b) => a + b, 0);
  if (units === 0) return { encoding, units, parts: 0, perPart: single, remaining: single };
  if (units <= single) return { encoding, units, parts: 1, perPart: single, remaining: single - units };
  // Greedy: a character that does not fit whole starts the next part.
  let parts = 1;
  let used = 0;
  for (const cost of each) {
    if (used + cost > multi) {
      parts++;
      used = 0;
    }
    used += cost;
  }
  return { encoding, units, parts, perPart: multi, remaining: multi - used };
}

// ---- Templates ----

/** Placeholders a template may use: the lead's fields by name, and custom fields as {custom.key}. */
export const SMS_PLACEHOLDERS = [
  'name',
  'phone',
  'email',
  'comment',
  'utm_source',
  'utm_medium',
  'utm_campaign',
  'utm_content',
  'utm_term',
] as const;

const PLACEHOLDER = /\{([^{}\s]{1,80})\}/g;
const CUSTOM = /^custom\.[A-Za-z0-9_.-]{1,64}$/;

export function isKnownPlaceholder(name: string): boolean {
  return (SMS_PLACEHOLDERS as readonly string[]).includes(name) || CUSTOM.test(name);
}

/** The placeholders of a template that are neither a lead field nor {custom.key}, in order of appearance. */
export function unknownPlaceholders(template: string): string[] {
  const out: string[] = [];
  for (const [, name] of template.matchAll(PLACEHOLDER)) {
    if (name && !isKnownPlaceholder(name) && !out.includes(name)) out.push(name);
  }
  return out;
}

/** What a template's lead fields are read from: a Lead's shape, loosely (the web previews a sample). */
export interface TemplateLead {
  name?: string;
  phone?: string;
  email?: string;
  comment?: string;
  utm?: Partial<Record<'source' | 'medium' | 'campaign' | 'content' | 'term', string>>;
  custom?: Record<string, string>;
}

function fieldOf(lead: TemplateLead, name: string): string | undefined {
  // {custom.constructor} names a custom field, never what every object inherits.
  const v = name.startsWith('utm_')
    ? ownValue(lead.utm, name.slice(4))
    : name.startsWith('custom.')
      ? ownValue(lead.custom, name.slice(7))
      : ownValue(lead, name);
  return typeof v === 'string' ? v : undefined;
}

/**
 * The text of a template for a lead: each known placeholder becomes the lead's value (empty when the
 * lead has none), unknown ones stay as written; runs of spaces a missing value leaves collapse.
 */
export function renderSmsTemplate(template: string, lead: TemplateLead): string {
  const text = template.replace(PLACEHOLDER, (whole, name: string) =>
    isKnownPlaceholder(name) ? (fieldOf(lead, name) ?? '').trim() : whole,
  );
  return text
    .split('\n')
    .map((line) => line.replace(/[ \t]{2,}/g, ' ').trimEnd())
    .join('\n')
    .trim();
}
