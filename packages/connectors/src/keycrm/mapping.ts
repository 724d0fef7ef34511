// A lead as a KeyCRM pipeline card (POST /pipelines/cards): its title, its contact (an existing
// buyer's client_id, or the lead's name, phone and e-mail), source, UTM fields, manager and the
// manager comment that carries everything else and our mark, which a retry looks for.
import { createHash } from 'node:crypto';
import { type Lead, setOwn } from '@leadrelay/shared';
import { samePhone } from '../kit/phone-match';
import type { KeycrmSettings } from './schema';

export const DEFAULT_TITLE = 'Лід: {name}';
const MAX_TITLE = 250;
/** KeyCRM's manager comment is a text field; a long raw payload is cut so the card stays readable. */
const MAX_COMMENT = 4000;

/** The mark a card carries at the end of its manager comment: the same for every attempt of one delivery. */
export function markerOf(idempotencyKey: string): string {
  return `LR-${createHash('sha256').update(idempotencyKey).digest('hex').slice(0, 16)}`;
}

export function titleOf(lead: Lead, template?: string): string {
  const who = lead.name?.trim() || lead.phone || lead.email || '';
  const filled = (template?.trim() || DEFAULT_TITLE)
    .replace(/\{name\}/g, who)
    .replace(/\{phone\}/g, lead.phone ?? '')
    .replace(/\{email\}/g, lead.email ?? '')
    .replace(/\{source\}/g, lead.utm?.source ?? '')
    .replace(/\s+/g, ' ')
    .trim();
  const clean = filled.replace(/[:\-–—]\s*$/, '').trim();
  return (/[\p{L}\p{N}]/u.test(clean) ? clean : 'Заявка').slice(0, MAX_TITLE);
}

/** Everything the lead brought, in Ukrainian (KeyCRM's users read it), ending with our mark. */
export function commentOf(lead: Lead, raw: unknown, marker: string): string {
  const lines = ['Заявка з LeadRelay'];
  const add = (label: string, v: string | undefined) => {
    if (v?.trim()) lines.push(`${label}: ${v.trim()}`);
  };
  add("Ім'я", lead.name);
  add('Телефон', lead.phone);
  add('E-mail', lead.email);
  add('Коментар', lead.comment);
  for (const [k, v] of Object.entries(lead.custom ?? {})) add(k, v);
  if (raw !== undefined && raw !== null) {
    let text: string;
    try {
      text = JSON.stringify(raw, null, 2);
    } catch {
      text = String(raw);
    }
    lines.push('', 'Заявка як надійшла:', text);
  }
  return `${lines.join('\n').slice(0, MAX_COMMENT)}\n\nLeadRelay · ${marker}`;
}

/** The card's own UTM fields (KeyCRM has utm_source … utm_content on a card). */
export function utmOf(lead: Lead): Record<string, string> {
  const out: Record<string, string> = {};
  for (const key of ['source', 'medium', 'campaign', 'term', 'content'] as const) {
    const v = lead.utm?.[key]?.trim();
    if (v) setOwn(out, `utm_${key}`, v.slice(0, 255));
  }
  return out;
}

/** The e-mail when it looks like one: a malformed one would make KeyCRM refuse the whole card (it stays in the comment). */
export function validEmail(email: string | undefined): string | undefined {
  const e = email?.trim();
  return e && e.length <= 254 && /^[^@\s]+@[^@\s]+\.[^@\s]+$/.test(e) ? e : undefined;
}

export interface CardBody {
  title: string;
  pipeline_id?: number;
  source_id?: number;
  manager_id?: number;
  manager_comment: string;
  contact: { client_id: number } | { full_name?: string; phone?: string; email?: string };
  [utm: `utm_${string}`]: string;
}

export function cardBody(
  lead: Lead,
  settings: KeycrmSettings,
  parts: { buyerId?: number; managerId?: number; raw?: unknown; marker: string },
): CardBody {
  const email = validEmail(lead.email);
  const name = lead.name?.trim().slice(0, 255);
  // A lead whose only contact is an e-mail KeyCRM would refuse keeps it as the buyer's name (and in the comment).
  const fullName = name || (!lead.phone && !email ? lead.email?.trim().slice(0, 255) : undefined);
  const contact = parts.buyerId
    ? { client_id: parts.buyerId }
    : {
        ...(fullName ? { full_name: fullName } : {}),
        ...(lead.phone ? { phone: lead.phone } : {}),
        ...(email ? { email } : {}),
      };
  return {
    title: titleOf(lead, settings.title),
    ...(settings.pipelineId ? { pipeline_id: settings.pipelineId } : {}),
    ...(settings.sourceId ? { source_id: settings.sourceId } : {}),
    ...(parts.managerId ? { manager_id: parts.managerId } : {}),
    manager_comment: commentOf(lead, parts.raw, parts.marker),
    contact,
    ...utmOf(lead),
  };
}

// ---- Buyers (GET /buyer?filter[buyer_phone]=… answers KeyCRM's match; we confirm it here) ----

/** A buyer as GET /buyer lists it: phone and email are lists of strings. */
export interface RawBuyer {
  id?: unknown;
  full_name?: unknown;
  phone?: unknown;
  email?: unknown;
}

const texts = (v: unknown): string[] =>
  (Array.isArray(v) ? v : [v]).flatMap((x) => {
    if (typeof x === 'string') return [x];
    if (x && typeof x === 'object' && typeof (x as { value?: unknown }).value === 'string') {
      return [(x as { value: string }).value];
    }
    return [];
  });

export function buyerMatches(buyer: RawBuyer, by: { phone?: string; email?: string }): boolean {
  if (typeof buyer.id !== 'number' || !Number.isInteger(buyer.id) || buyer.id <= 0) return false;
  if (by.phone) return texts(buyer.phone).some((p) => samePhone(p, by.phone!));
  if (by.email) {
    const wanted = by.email.trim().toLowerCase();
    return texts(buyer.email).some((e) => e.trim().toLowerCase() === wanted);
  }
  return false;
}

/** The manager: the distribution's assignee when KeyCRM has that user, else the settings' manager. */
export function managerOf(
  assigneeId: string | undefined,
  settings: Pick<KeycrmSettings, 'managerId'>,
  userIds: ReadonlySet<number>,
): number | undefined {
  const id = assigneeId?.trim();
  if (id && /^\d{1,10}$/.test(id) && userIds.has(Number(id))) return Number(id);
  if (settings.managerId && userIds.has(settings.managerId)) return settings.managerId;
  return undefined;
}

/** "2026-11-29 10:00:00" (KeyCRM's filters take UTC times so). */
export function utcTime(at: Date): string {
  return at.toISOString().slice(0, 19).replace('T', ' ');
}

/** Laravel-style 422 errors ({message, errors: {field: [text]}}) as "field: text; …". */
export function fieldMessages(body: unknown): { fields: string[]; text: string } {
  const errors = (body as { errors?: unknown } | null | undefined)?.errors;
  const fields: string[] = [];
  const parts: string[] = [];
  if (errors && typeof errors === 'object' && !Array.isArray(errors)) {
    for (const [field, v] of Object.entries(errors)) {
      fields.push(field);
      const msgs = texts(v)
        .map((m) => m.trim())
        .filter(Boolean);
      parts.push(msgs.length ? `${field}: ${msgs.join(' ')}` : field);
    }
  }
  const message = (body as { message?: unknown } | null | undefined)?.message;
  const text = parts.length ? parts.join('; ') : typeof message === 'string' ? message.trim() : '';
  return { fields, text: text.replace(/\s+/g, ' ').slice(0, 500) };
}
