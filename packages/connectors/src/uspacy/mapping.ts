// Pure: what the Uspacy destination sends for a lead (contact, lead or deal bodies, mapped custom
// fields, the comment), how it recognises its own record again, and the portal's answers reduced to
// what the screens show. No I/O here, so every rule is unit-tested on its own.
import { createHash } from 'node:crypto';
import { getLeadField, type Lead, setOwn } from '@leadrelay/shared';
import { phoneQuery, samePhone } from '../kit/phone-match';
import type { UspacyEntity, UspacyField, UspacyFieldMapping, UspacyFunnel, UspacySettings } from './schema';

/** Uspacy is a Ukrainian CRM: what we write into it is in Ukrainian (titles, the comment's labels). */
export const DEFAULT_TITLE = 'Заявка: {name}';
const MAX_TITLE = 255;
const MAX_TEXT = 10_000;
const MAX_NOTE = 20_000;

/** Entity paths of the CRM API: /crm/v1/entities/{leads|deals|contacts}. */
export const ENTITY_PATH: Record<UspacyEntity, 'leads' | 'deals' | 'contacts'> = {
  lead: 'leads',
  deal: 'deals',
  contact: 'contacts',
};

/** A value of our lead by path: name, phone, email, comment, utm.<key>, custom.<key>. */
export function valueAt(lead: Lead, path: string): string | undefined {
  if (!/^(name|phone|email|comment|utm\..+|custom\..+)$/.test(path)) return undefined;
  // Own fields only (getLeadField): custom.__proto__ is the lead's field or nothing.
  const trimmed = getLeadField(lead, path)?.trim();
  return trimmed === '' ? undefined : trimmed;
}

/** The title template with {name}, {phone}, {email}, {source} (utm.source) filled in. */
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

/** "Olena Kovalenko" → first Olena, last Kovalenko; one word is the first name. */
export function splitName(name: string | undefined): { first_name?: string; last_name?: string } {
  const words = (name ?? '').trim().split(/\s+/).filter(Boolean);
  if (words.length === 0) return {};
  if (words.length === 1) return { first_name: words[0]!.slice(0, 100) };
  return { first_name: words[0]!.slice(0, 100), last_name: words.slice(1).join(' ').slice(0, 100) };
}

const contactValues = (lead: Lead) => ({
  ...(lead.phone ? { phone: [{ value: lead.phone, type: 'work' }] } : {}),
  ...(lead.email ? { email: [{ value: lead.email, type: 'work' }] } : {}),
});

const utmOf = (lead: Lead): Record<string, string> =>
  Object.fromEntries(
    Object.entries(lead.utm ?? {})
      .filter(([, v]) => typeof v === 'string' && v.trim())
      .map(([k, v]) => [`utm_${k}`, (v as string).trim().slice(0, 255)]),
  );

// ---- Recognising our own record (a retry after a timeout must not make a second one) ----

/** A short, stable mark of a delivery's idempotency key (its SHA-256, 16 hex digits). */
export function markerOf(idempotencyKey: string): string {
  return `LR-${createHash('sha256').update(idempotencyKey).digest('hex').slice(0, 16)}`;
}

/** The record's `comments` text: the lead's comment, then our mark on its own line. */
export function commentsWithMarker(comment: string | undefined, marker: string): string {
  const text = comment?.trim().slice(0, MAX_TEXT);
  return text ? `${text}\n\nLeadRelay · ${marker}` : `LeadRelay · ${marker}`;
}

/** Whether a record (lead or deal as Uspacy lists it) carries our mark. */
export const hasMarker = (record: { comments?: unknown }, marker: string): boolean =>
  typeof record.comments === 'string' && record.comments.includes(marker);

// ---- Bodies ----

export interface RecordRefs {
  title: string;
  owner?: number;
  contactId?: number;
  marker: string;
  /** Mapped custom values by field code. */
  fields: Record<string, unknown>;
}

/** POST /crm/v1/entities/contacts. */
export function contactBody(lead: Lead, opts: { owner?: number; fields: Record<string, unknown> }) {
  return {
    ...opts.fields,
    title: (lead.name?.trim() || lead.phone || lead.email || 'Контакт').slice(0, MAX_TITLE),
    ...splitName(lead.name),
    ...contactValues(lead),
    ...(opts.owner ? { owner: opts.owner } : {}),
  };
}

/**
 * POST /crm/v1/entities/leads or /deals: the title, the funnel and stage, the owner, the contact, the
 * UTM tags, the comment with our mark; a lead also carries the person's name, phone and e-mail.
 */
export function recordBody(
  target: UspacySettings['target'],
  lead: Lead,
  settings: Pick<UspacySettings, 'funnelId' | 'stageId'>,
  refs: RecordRefs,
): Record<string, unknown> {
  return {
    ...refs.fields,
    title: refs.title,
    ...(target === 'lead' ? { ...splitName(lead.name), ...contactValues(lead) } : {}),
    ...(settings.funnelId ? { funnel_id: settings.funnelId } : {}),
    ...(settings.funnelId && settings.stageId ? { kanban_stage_id: settings.stageId } : {}),
    ...(refs.owner ? { owner: refs.owner } : {}),
    ...(refs.contactId ? { contacts: [refs.contactId] } : {}),
    ...utmOf(lead),
    comments: commentsWithMarker(lead.comment, refs.marker),
  };
}

/** The responsible user: the distribution's assignee when it is a Uspacy user id, else the settings' one. */
export function ownerOf(assigneeId: string | undefined, settings: Pick<UspacySettings, 'ownerId'>): number | undefined {
  const id = assigneeId?.trim();
  if (id && /^\d{1,12}$/.test(id) && Number(id) > 0) return Number(id);
  return settings.ownerId;
}

// ---- Custom fields ----

/** A field as GET /crm/v1/entities/{entity}/fields describes it. */
export interface RawField {
  name?: unknown;
  code?: unknown;
  type?: unknown;
  required?: unknown;
  editable?: unknown;
  hidden?: unknown;
  multiple?: unknown;
  system_field?: unknown;
  values?: unknown;
}

/** Field types the connector knows how to write. */
export const WRITABLE_TYPES = new Set([
  'string',
  'textarea',
  'link',
  'integer',
  'float',
  'boolean',
  'list',
  'datetime',
  'money',
  'phone',
  'email',
]);

/** Fields the connector fills itself (or that are Uspacy's own bookkeeping): never offered for mapping. */
export const OWN_CODES = new Set([
  'id',
  'title',
  'first_name',
  'last_name',
  'phone',
  'email',
  'owner',
  'funnel_id',
  'kanban_stage_id',
  'kanban_status',
  'kanban_reason_id',
  'comments',
  'contacts',
  'companies',
  'created_at',
  'updated_at',
  'created_by',
  'changed_by',
  'utm_source',
  'utm_medium',
  'utm_campaign',
  'utm_content',
  'utm_term',
]);

/** A portal field in our shape (list options as {value, title}); undefined when it is not a field. */
export function toField(raw: RawField): UspacyField | undefined {
  if (typeof raw.code !== 'string' || !raw.code || typeof raw.type !== 'string') return undefined;
  const values = Array.isArray(raw.values)
    ? (raw.values as { value?: unknown; title?: unknown }[])
        .filter((v) => v && (typeof v.value === 'string' || typeof v.value === 'number'))
        .map((v) => ({ value: String(v.value), title: typeof v.title === 'string' ? v.title : String(v.value) }))
    : undefined;
  return {
    code: raw.code,
    name: typeof raw.name === 'string' && raw.name ? raw.name : raw.code,
    type: raw.type,
    required: raw.required === true,
    multiple: raw.multiple === true,
    ...(values?.length ? { values } : {}),
  };
}

/** The fields a lead's value may go into: visible, editable, of a type we write, not one we fill ourselves. */
export function mappableFields(raw: RawField[]): UspacyField[] {
  return raw
    .filter((f) => f.hidden !== true && f.editable !== false && typeof f.code === 'string' && !OWN_CODES.has(f.code))
    .map(toField)
    .filter((f): f is UspacyField => f !== undefined && WRITABLE_TYPES.has(f.type));
}

function toNumber(raw: string): number | undefined {
  const n = Number(raw.replace(/\s+/g, '').replace(',', '.'));
  return Number.isFinite(n) ? n : undefined;
}

/** Unix seconds from ISO dates, DD.MM.YYYY (Kyiv midnight is not assumed: UTC), or anything Date parses. */
export function toUnixSeconds(raw: string): number | undefined {
  const dmy = /^(\d{1,2})[./](\d{1,2})[./](\d{4})$/.exec(raw.trim());
  const ms = dmy ? Date.UTC(Number(dmy[3]), Number(dmy[2]) - 1, Number(dmy[1])) : Date.parse(raw);
  return Number.isNaN(ms) ? undefined : Math.floor(ms / 1000);
}

/** "900", "900 UAH", "USD 12,5" → {currency, value}; hryvnias when no currency is named. */
export function toMoney(raw: string): { currency: string; value: string } | undefined {
  const currency = /\b([A-Z]{3})\b/.exec(raw.toUpperCase())?.[1] ?? 'UAH';
  const amount = toNumber(raw.replace(/[A-Za-z]{3}|₴|грн\.?/gi, ''));
  return amount === undefined ? undefined : { currency, value: String(amount) };
}

function optionOf(field: Pick<UspacyField, 'values'>, raw: string): string | undefined {
  const want = raw.trim().toLowerCase();
  return (field.values ?? []).find((o) => o.value.toLowerCase() === want || o.title.trim().toLowerCase() === want)
    ?.value;
}

/**
 * Our text as the field's type wants it: list → the option's value (several for a multiple list,
 * split on , ; |), integer/float → numbers, boolean, datetime → unix seconds, money → {currency,
 * value}, phone/e-mail → [{value, type}], text → the text. Undefined when it does not fit (an
 * unknown option, "abc" for a number): the field is left out.
 */
export function fieldValue(field: Pick<UspacyField, 'type' | 'multiple' | 'values'>, raw: string): unknown {
  switch (field.type) {
    case 'list': {
      if (!field.multiple) return optionOf(field, raw);
      const whole = optionOf(field, raw);
      const values = whole
        ? [whole]
        : raw
            .split(/[,;|]/)
            .map((part) => optionOf(field, part))
            .filter((v): v is string => v !== undefined);
      return values.length ? [...new Set(values)] : undefined;
    }
    case 'integer': {
      const n = toNumber(raw);
      return n === undefined ? undefined : Math.round(n);
    }
    case 'float':
      return toNumber(raw);
    case 'boolean':
      return /^(1|true|yes|так|да|on)$/i.test(raw.trim());
    case 'datetime':
      return toUnixSeconds(raw);
    case 'money':
      return toMoney(raw);
    case 'phone':
    case 'email':
      return [{ value: raw.slice(0, 255), type: 'work' }];
    default:
      return raw.slice(0, MAX_TEXT);
  }
}

/** The mapped values of one entity by field code; mappings to fields the portal no longer has are skipped. */
export function mapFields(
  lead: Lead,
  mappings: UspacyFieldMapping[] | undefined,
  entity: UspacyEntity,
  fields: UspacyField[],
): Record<string, unknown> {
  const byCode = new Map(fields.map((f) => [f.code, f]));
  const out: Record<string, unknown> = {};
  for (const m of mappings ?? []) {
    if (m.entity !== entity) continue;
    const field = byCode.get(m.code);
    const raw = valueAt(lead, m.from);
    if (!field || raw === undefined) continue;
    const value = fieldValue(field, raw);
    // m.code is the portal's field code: `__proto__` is a field, not the prototype.
    if (value !== undefined) setOwn(out, m.code, value);
  }
  return out;
}

// ---- The comment ----

/** The comment on the record: the lead's fields, its UTM, its custom values and the raw payload, with our mark. */
export function noteText(lead: Lead, raw: unknown, marker: string): string {
  const lines = ['Заявка з LeadRelay'];
  const add = (label: string, v: string | undefined) => {
    if (v?.trim()) lines.push(`${label}: ${v.trim()}`);
  };
  add("Ім'я", lead.name);
  add('Телефон', lead.phone);
  add('E-mail', lead.email);
  add('Коментар', lead.comment);
  const utm = Object.entries(lead.utm ?? {}).filter(([, v]) => typeof v === 'string' && v.trim());
  if (utm.length) lines.push(`UTM: ${utm.map(([k, v]) => `utm_${k}=${v}`).join(', ')}`);
  for (const [k, v] of Object.entries(lead.custom ?? {})) add(k, v);
  if (raw !== undefined && raw !== null) {
    let text: string;
    try {
      text = JSON.stringify(raw, null, 2);
    } catch {
      text = String(raw);
    }
    lines.push('', 'Заявка як надійшла:', text.slice(0, MAX_NOTE));
  }
  const body = lines.join('\n').slice(0, MAX_NOTE);
  return `${body}\n\nLeadRelay · ${marker}`;
}

// ---- Contacts (Uspacy's list filters are a text search: the match is confirmed here) ----

export { phoneQuery, samePhone };

export interface ContactRecord {
  id: number;
  phone?: unknown;
  email?: unknown;
}

/** A contact's phones or e-mails: Uspacy gives [{value, type}], older records a plain string. */
function valuesOf(value: unknown): string[] {
  if (typeof value === 'string') return [value];
  if (!Array.isArray(value)) return [];
  return value
    .map((v) => (typeof v === 'string' ? v : (v as { value?: unknown } | null)?.value))
    .filter((v): v is string => typeof v === 'string');
}

/** The oldest contact whose phone (or e-mail) really is ours, among the search's hits. */
export function matchContact(
  contacts: ContactRecord[],
  by: { phone?: string; email?: string },
): ContactRecord | undefined {
  const hits = contacts.filter((c) => {
    if (by.phone) return valuesOf(c.phone).some((p) => samePhone(p, by.phone!));
    if (by.email) return valuesOf(c.email).some((e) => e.trim().toLowerCase() === by.email!.trim().toLowerCase());
    return false;
  });
  return hits.sort((a, b) => a.id - b.id)[0];
}

// ---- Funnels ----

interface RawStage {
  id?: unknown;
  title?: unknown;
  sort?: unknown;
  stage_code?: unknown;
  system_stage?: unknown;
  funnel_id?: unknown;
}
export interface RawFunnel {
  id?: unknown;
  title?: unknown;
  default?: unknown;
  active?: unknown;
  stages?: unknown;
}

export function toStages(raw: RawStage[]): UspacyFunnel['stages'] {
  return raw
    .filter((s) => typeof s.id === 'number')
    .map((s) => ({
      id: s.id as number,
      title: typeof s.title === 'string' ? s.title : String(s.id),
      sort: Number(s.sort) || 0,
      ...(typeof s.stage_code === 'string' && s.stage_code ? { code: s.stage_code } : {}),
      isSystem: s.system_stage === true,
    }))
    .sort((a, b) => a.sort - b.sort || a.id - b.id);
}

/** Active funnels with their stages in the portal's order (stages: listed with the funnel, or `stagesOf`). */
export function toFunnels(raw: RawFunnel[], stagesOf: (id: number) => RawStage[] = () => []): UspacyFunnel[] {
  return raw
    .filter((f) => typeof f.id === 'number' && f.active !== false)
    .map((f) => ({
      id: f.id as number,
      title: typeof f.title === 'string' ? f.title : String(f.id),
      isDefault: f.default === true,
      stages: toStages(Array.isArray(f.stages) ? (f.stages as RawStage[]) : stagesOf(f.id as number)),
    }));
}

/** A user's display name: first and last name, else the e-mail, else the id. */
export function userName(u: { id: number; firstName?: unknown; lastName?: unknown; email?: unknown }): string {
  const name = [u.firstName, u.lastName]
    .filter((v) => typeof v === 'string' && v.trim())
    .join(' ')
    .trim();
  return name || primaryEmail(u.email) || `#${u.id}`;
}

export function primaryEmail(email: unknown): string | undefined {
  return valuesOf(email)[0];
}
