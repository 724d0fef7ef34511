// Pure: what the amoCRM destination sends (API v4 leads/complex and notes), from our lead and the
// integration's settings. No I/O here, so every rule is unit-tested on its own.
import { type Assignee, getLeadField, type Lead } from '@leadrelay/shared';
import { phoneQuery, samePhone } from '../kit/phone-match';
import type { AmoFieldMapping, AmoSettings } from './schema';

export interface AmoFieldValue {
  value?: string;
  enum_id?: number;
  enum_code?: string;
}
export interface AmoCustomField {
  field_id?: number;
  field_code?: string;
  values: AmoFieldValue[];
}
export interface AmoNewContact {
  name?: string;
  first_name?: string;
  last_name?: string;
  responsible_user_id?: number;
  custom_fields_values?: AmoCustomField[];
}
export interface AmoComplexLead {
  name: string;
  pipeline_id?: number;
  status_id?: number;
  responsible_user_id?: number;
  custom_fields_values?: AmoCustomField[];
  _embedded: {
    tags?: { name: string }[];
    contacts: (AmoNewContact | { id: number; is_main?: boolean })[];
  };
}

export const DEFAULT_LEAD_NAME = 'Lead: {name}';
/** amoCRM's limit on values per entity. */
export const MAX_FIELD_VALUES = 40;
const MAX_NAME = 255;
const MAX_NOTE = 15_000;

/** A value of our lead by path: name, phone, email, comment, utm.<key>, custom.<key>. */
export function valueAt(lead: Lead, path: string): string | undefined {
  if (!/^(name|phone|email|comment|utm\..+|custom\..+)$/.test(path)) return undefined;
  // Own fields only (getLeadField): custom.__proto__ is the lead's field or nothing.
  const trimmed = getLeadField(lead, path)?.trim();
  return trimmed === '' ? undefined : trimmed;
}

/** The lead's name from the template: {name}, {phone}, {email}, {source} (utm.source) filled in. */
export function leadName(template: string | undefined, lead: Lead): string {
  const who = lead.name?.trim() || lead.phone || lead.email || '';
  const filled = (template?.trim() || DEFAULT_LEAD_NAME)
    .replace(/\{name\}/g, who)
    .replace(/\{phone\}/g, lead.phone ?? '')
    .replace(/\{email\}/g, lead.email ?? '')
    .replace(/\{source\}/g, lead.utm?.source ?? '')
    .replace(/\s+/g, ' ')
    .trim();
  return (filled.replace(/[:\-–—]\s*$/, '').trim() || 'Lead').slice(0, MAX_NAME);
}

/**
 * One mapped field's value. With `enums` (select, multiselect, radiobutton) the value is matched
 * case-insensitively: first as a whole, else split on , ; | into several choices (multiselect).
 * Values that match no enum are skipped; a field left with nothing is not sent.
 */
export function fieldValue(mapping: AmoFieldMapping, lead: Lead): AmoCustomField | undefined {
  const value = valueAt(lead, mapping.from);
  if (value === undefined) return undefined;
  if (!mapping.enums) return { field_id: mapping.fieldId, values: [{ value }] };
  const enums = new Map(Object.entries(mapping.enums).map(([k, id]) => [k.trim().toLowerCase(), id]));
  const whole = enums.get(value.toLowerCase());
  const ids =
    whole !== undefined
      ? [whole]
      : value
          .split(/[,;|]/)
          .map((part) => enums.get(part.trim().toLowerCase()))
          .filter((id): id is number => id !== undefined);
  const unique = [...new Set(ids)];
  return unique.length ? { field_id: mapping.fieldId, values: unique.map((enum_id) => ({ enum_id })) } : undefined;
}

function mappedFields(settings: AmoSettings, lead: Lead, entity: 'lead' | 'contact'): AmoCustomField[] {
  return (settings.fields ?? [])
    .filter((m) => m.entity === entity)
    .map((m) => fieldValue(m, lead))
    .filter((f): f is AmoCustomField => f !== undefined);
}

/** PHONE and EMAIL (multitext, enum_code WORK) and the contact fields the settings map. */
export function contactFields(lead: Lead, settings: AmoSettings): AmoCustomField[] {
  const out: AmoCustomField[] = [];
  if (lead.phone) out.push({ field_code: 'PHONE', values: [{ value: lead.phone, enum_code: 'WORK' }] });
  if (lead.email) out.push({ field_code: 'EMAIL', values: [{ value: lead.email, enum_code: 'WORK' }] });
  return [...out, ...mappedFields(settings, lead, 'contact')].slice(0, MAX_FIELD_VALUES);
}

/** The responsible user: the distribution's assignee when it is an amoCRM user id, else the settings' one. */
export function responsibleUserId(assignee: Assignee | undefined, settings: AmoSettings): number | undefined {
  const id = assignee?.id?.trim();
  if (id && /^\d{1,15}$/.test(id) && Number(id) > 0) return Number(id);
  return settings.responsibleUserId;
}

export interface ComplexLeadInput {
  lead: Lead;
  settings: AmoSettings;
  responsibleUserId?: number;
  /** An existing contact to link (policy attach, found by phone or e-mail); otherwise a new one is embedded. */
  contactId?: number;
}

/** One item of POST /api/v4/leads/complex. */
export function toComplexLead({
  lead,
  settings,
  responsibleUserId: owner,
  contactId,
}: ComplexLeadInput): AmoComplexLead {
  const fields = mappedFields(settings, lead, 'lead').slice(0, MAX_FIELD_VALUES);
  let contact: AmoComplexLead['_embedded']['contacts'][number];
  if (contactId !== undefined) {
    contact = { id: contactId, is_main: true };
  } else {
    const c: AmoNewContact = { name: lead.name?.trim() || lead.phone || lead.email || 'Contact' };
    if (owner !== undefined) c.responsible_user_id = owner;
    const cf = contactFields(lead, settings);
    if (cf.length) c.custom_fields_values = cf;
    contact = c;
  }
  const body: AmoComplexLead = { name: leadName(settings.leadName, lead), _embedded: { contacts: [contact] } };
  if (settings.pipelineId !== undefined) body.pipeline_id = settings.pipelineId;
  if (settings.statusId !== undefined) body.status_id = settings.statusId;
  if (owner !== undefined) body.responsible_user_id = owner;
  if (fields.length) body.custom_fields_values = fields;
  const tags = [...new Set((settings.tags ?? []).map((t) => t.trim()).filter(Boolean))];
  if (tags.length) body._embedded.tags = tags.map((name) => ({ name }));
  return body;
}

/** The note on the lead: its fields, its UTM and the source's raw payload, as plain text. */
export function noteText(lead: Lead, raw?: unknown): string {
  const lines = ['LeadRelay'];
  const add = (label: string, v: string | undefined) => {
    if (v?.trim()) lines.push(`${label}: ${v.trim()}`);
  };
  add('Name', lead.name);
  add('Phone', lead.phone);
  add('E-mail', lead.email);
  add('Comment', lead.comment);
  const utm = Object.entries(lead.utm ?? {}).filter(([, v]) => typeof v === 'string' && v.trim());
  if (utm.length) lines.push(`UTM: ${utm.map(([k, v]) => `utm_${k}=${v}`).join(', ')}`);
  const custom = Object.entries(lead.custom ?? {});
  for (const [k, v] of custom) add(k, v);
  if (raw !== undefined && raw !== null) {
    let text: string;
    try {
      text = JSON.stringify(raw, null, 2);
    } catch {
      text = String(raw);
    }
    lines.push('', 'Raw lead:', text);
  }
  const note = lines.join('\n');
  return note.length > MAX_NOTE ? `${note.slice(0, MAX_NOTE - 1)}…` : note;
}

// ---- Contact matching (amoCRM's query is a substring search; we confirm the match ourselves) ----

export { phoneQuery, samePhone };

export interface AmoContactRecord {
  id: number;
  custom_fields_values?: { field_code?: string | null; values?: { value?: unknown }[] }[] | null;
}

function valuesOf(contact: AmoContactRecord, code: 'PHONE' | 'EMAIL'): string[] {
  return (contact.custom_fields_values ?? [])
    .filter((f) => f.field_code === code)
    .flatMap((f) => (f.values ?? []).map((v) => (typeof v.value === 'string' ? v.value : String(v.value ?? ''))));
}

/** The oldest contact whose PHONE (or EMAIL) really equals ours, among amoCRM's search hits. */
export function matchContact(
  contacts: AmoContactRecord[],
  by: { phone?: string; email?: string },
): AmoContactRecord | undefined {
  const hits = contacts.filter((c) => {
    if (by.phone) return valuesOf(c, 'PHONE').some((p) => samePhone(p, by.phone!));
    if (by.email) return valuesOf(c, 'EMAIL').some((e) => e.trim().toLowerCase() === by.email!.trim().toLowerCase());
    return false;
  });
  return hits.sort((a, b) => a.id - b.id)[0];
}
