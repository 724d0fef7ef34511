// Pure: what the Pipedrive connector sends for a lead. Persons, organizations, deals and activities
// are v2 bodies (custom_fields object); leads are v1 bodies (custom fields as top-level keys,
// organization_id not org_id); notes are v1 HTML.
import { createHash } from 'node:crypto';
import { getLeadField, type Lead, ownValue, setOwn } from '@leadrelay/shared';
import type { PipedriveFieldMapping, PipedriveSettings } from './schema';

export type { PipedriveSettings };

/** A field's metadata as v1 /dealFields, /personFields, /organizationFields describe it. */
export interface FieldMeta {
  key: string;
  name?: string;
  field_type: string;
  options?: { id: number | string; label: string }[] | null;
  /** v1: true for custom fields (the 40-hex keys). */
  edit_flag?: boolean;
}

export type Entity = PipedriveFieldMapping['entity'];

const CUSTOM_KEY = /^[0-9a-f]{40}$/i;
const DEFAULT_TITLE = 'Lead: {name}';

/** System keys a mapping may write, per entity, with the type their value takes. */
const SYSTEM_KEYS: Record<'deal' | 'lead' | 'person' | 'organization', Record<string, string>> = {
  deal: { value: 'double', probability: 'int', expected_close_date: 'date' },
  lead: { expected_close_date: 'date' },
  person: {},
  organization: { address: 'varchar' },
};

/** The lead's value at a mapping path (name, phone, utm.source, custom.city …), or undefined. */
export function valueAt(lead: Lead, path: string): string | undefined {
  // Own fields only: custom.constructor is the lead's field or nothing, never Object's constructor.
  const s = getLeadField(lead, path)?.trim();
  return s === '' ? undefined : s;
}

function toNumber(raw: string): number | undefined {
  const n = Number(raw.replace(/\s+/g, '').replace(',', '.'));
  return Number.isFinite(n) ? n : undefined;
}

/** YYYY-MM-DD from ISO dates, DD.MM.YYYY / DD/MM/YYYY, or anything Date parses; else undefined. */
export function toDate(raw: string): string | undefined {
  const iso = /^(\d{4})-(\d{2})-(\d{2})/.exec(raw);
  if (iso) return `${iso[1]}-${iso[2]}-${iso[3]}`;
  const dmy = /^(\d{1,2})[./](\d{1,2})[./](\d{4})$/.exec(raw);
  if (dmy) return `${dmy[3]}-${dmy[2]!.padStart(2, '0')}-${dmy[1]!.padStart(2, '0')}`;
  const t = Date.parse(raw);
  return Number.isNaN(t) ? undefined : new Date(t).toISOString().slice(0, 10);
}

function optionId(field: FieldMeta, raw: string): number | string | undefined {
  const want = raw.trim().toLowerCase();
  const option = (field.options ?? []).find(
    (o) => String(o.id) === raw.trim() || o.label.trim().toLowerCase() === want,
  );
  if (!option) return undefined;
  const n = Number(option.id);
  return Number.isInteger(n) ? n : option.id;
}

/**
 * Our text value as the field's type wants it: enum → the option id, set → option ids, double /
 * monetary → numbers, int → an integer, date → YYYY-MM-DD, anything else the text.
 * Undefined when the value does not fit (an unknown option, "abc" for a number): the field is skipped.
 */
export function customValue(field: Pick<FieldMeta, 'field_type' | 'options'>, raw: string): unknown {
  switch (field.field_type) {
    case 'enum':
      return optionId(field as FieldMeta, raw);
    case 'set': {
      const ids = raw
        .split(/[,;]/)
        .map((part) => part.trim())
        .filter(Boolean)
        .map((part) => optionId(field as FieldMeta, part))
        .filter((id) => id !== undefined);
      return ids.length ? [...new Set(ids)] : undefined;
    }
    case 'double':
    case 'monetary':
      return toNumber(raw);
    case 'int': {
      const n = toNumber(raw);
      return n === undefined ? undefined : Math.round(n);
    }
    case 'date':
      return toDate(raw);
    case 'boolean':
      return /^(1|true|yes|так|да)$/i.test(raw.trim());
    default:
      return raw.slice(0, 65_000);
  }
}

export interface MappedFields {
  /** 40-hex custom field keys → typed values. */
  custom: Record<string, unknown>;
  /** Allowed system keys → typed values (deal value, expected_close_date …). */
  system: Record<string, unknown>;
}

/**
 * The mapped values for one entity. `fields` is that entity's metadata (leads take deal fields);
 * a key neither custom nor an allowed system key, or a value that does not fit its type, is skipped.
 */
export function mapFields(
  lead: Lead,
  mappings: PipedriveFieldMapping[] | undefined,
  entity: Entity,
  fields: FieldMeta[],
  target: 'deal' | 'lead' = 'deal',
): MappedFields {
  const out: MappedFields = { custom: {}, system: {} };
  const byKey = new Map(fields.map((f) => [f.key, f]));
  const systemKeys = SYSTEM_KEYS[entity === 'deal' ? target : entity];
  for (const m of mappings ?? []) {
    if (m.entity !== entity) continue;
    const raw = valueAt(lead, m.from);
    if (raw === undefined) continue;
    const meta = byKey.get(m.key);
    // m.key is a Pipedrive field key (the user's pick from the CRM's list): data, not a member.
    const systemType = ownValue(systemKeys, m.key);
    if (CUSTOM_KEY.test(m.key) || meta?.edit_flag === true) {
      const value = customValue(meta ?? { field_type: 'varchar' }, raw);
      if (value !== undefined) setOwn(out.custom, m.key, value);
    } else if (typeof systemType === 'string') {
      const value = customValue({ field_type: systemType }, raw);
      if (value !== undefined) setOwn(out.system, m.key, value);
    }
  }
  return out;
}

/** The title template with {name}, {phone}, {email}, {source} filled in (source: utm.source). */
export function titleOf(lead: Lead, template = DEFAULT_TITLE): string {
  const values: Record<string, string> = {
    name: lead.name ?? '',
    phone: lead.phone ?? '',
    email: lead.email ?? '',
    source: lead.utm?.source ?? '',
  };
  const title = template
    .replace(/\{(name|phone|email|source)\}/g, (_m, k: string) => values[k] ?? '')
    .replace(/\s+/g, ' ')
    .trim();
  const fallback = lead.name || lead.phone || lead.email || 'Lead';
  return (/[\p{L}\p{N}]/u.test(title) ? title : `Lead: ${fallback}`).slice(0, 255);
}

/** The person's display name: the lead's name, else its e-mail or phone. */
export const personName = (lead: Lead): string => (lead.name || lead.email || lead.phone || 'Unknown').slice(0, 255);

/** POST /api/v2/persons. */
export function personBody(lead: Lead, opts: { ownerId?: number; orgId?: number; custom?: Record<string, unknown> }) {
  return {
    name: personName(lead),
    ...(opts.ownerId ? { owner_id: opts.ownerId } : {}),
    ...(opts.orgId ? { org_id: opts.orgId } : {}),
    ...(lead.email ? { emails: [{ value: lead.email, primary: true, label: 'work' }] } : {}),
    ...(lead.phone ? { phones: [{ value: lead.phone, primary: true, label: 'mobile' }] } : {}),
    ...(opts.custom && Object.keys(opts.custom).length ? { custom_fields: opts.custom } : {}),
  };
}

/** The organization's name: a mapping to organization "name", else custom.company. */
export function organizationName(lead: Lead, mappings: PipedriveFieldMapping[] | undefined): string | undefined {
  const mapped = (mappings ?? []).find((m) => m.entity === 'organization' && m.key === 'name');
  const name = mapped
    ? valueAt(lead, mapped.from)
    : (valueAt(lead, 'custom.company') ?? valueAt(lead, 'custom.organization'));
  return name?.slice(0, 255);
}

/** POST /api/v2/organizations. */
export function organizationBody(name: string, opts: { ownerId?: number; fields?: MappedFields }) {
  const address = opts.fields?.system.address;
  return {
    name,
    ...(opts.ownerId ? { owner_id: opts.ownerId } : {}),
    ...(typeof address === 'string' ? { address: { value: address } } : {}),
    ...(opts.fields && Object.keys(opts.fields.custom).length ? { custom_fields: opts.fields.custom } : {}),
  };
}

interface RecordRefs {
  title: string;
  personId: number;
  orgId?: number;
  ownerId?: number;
  /** Our idempotency key: a retry after a crash finds the record by it (a lead's origin_id, a deal's title mark). */
  originId: string;
  fields: MappedFields;
}

/**
 * The mark a deal carries at the end of its title: POST /api/v2/deals takes no `origin_id` (the
 * official AddDealRequest has none and v2 refuses unknown keys), and no other free-text field, so
 * a retry after a crash finds the deal it made by this mark among the person's deals (as other CRM
 * connectors keep theirs in a free-text field). Short: it is only compared within one person's deals.
 */
export function dealMarker(idempotencyKey: string): string {
  return `LR-${createHash('sha256').update(idempotencyKey).digest('hex').slice(0, 12)}`;
}

/** The deal's title with its mark; the title is cut, never the mark (255 characters in all). */
export function markedTitle(title: string, marker: string): string {
  const tail = ` · ${marker}`;
  return `${title.slice(0, 255 - tail.length).trimEnd()}${tail}`;
}

export const hasDealMarker = (deal: { title?: unknown }, marker: string): boolean =>
  typeof deal.title === 'string' && deal.title.endsWith(` · ${marker}`);

/** POST /v1/leads: custom fields as top-level keys; `organization_id`. */
export function leadBody(r: RecordRefs): Record<string, unknown> {
  return {
    ...r.fields.custom,
    ...r.fields.system,
    title: r.title,
    person_id: r.personId,
    ...(r.orgId ? { organization_id: r.orgId } : {}),
    ...(r.ownerId ? { owner_id: r.ownerId } : {}),
    origin_id: r.originId,
  };
}

/**
 * POST /api/v2/deals: custom_fields object, pipeline and stage from the settings, only the keys of
 * the official AddDealRequest; the idempotency key goes in as the title's mark (dealMarker).
 */
export function dealBody(r: RecordRefs, settings: Pick<PipedriveSettings, 'pipelineId' | 'stageId'>) {
  return {
    ...r.fields.system,
    title: markedTitle(r.title, dealMarker(r.originId)),
    person_id: r.personId,
    ...(r.orgId ? { org_id: r.orgId } : {}),
    ...(r.ownerId ? { owner_id: r.ownerId } : {}),
    ...(settings.pipelineId ? { pipeline_id: settings.pipelineId } : {}),
    ...(settings.stageId ? { stage_id: settings.stageId } : {}),
    ...(Object.keys(r.fields.custom).length ? { custom_fields: r.fields.custom } : {}),
  };
}

/** The owner: the distribution's assignee when it is a Pipedrive user id, else the settings' owner. */
export function ownerOf(
  assigneeId: string | undefined,
  settings: Pick<PipedriveSettings, 'ownerId'>,
): number | undefined {
  const n = Number(assigneeId);
  if (assigneeId && Number.isInteger(n) && n > 0) return n;
  return settings.ownerId;
}

const escapeHtml = (s: string) =>
  s.replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c]!);

/** The note's HTML: the lead's fields, its UTM, its custom values and the source's raw payload. */
export function noteHtml(lead: Lead, raw?: unknown): string {
  const rows: [string, string | undefined][] = [
    ['Name', lead.name],
    ['Phone', lead.phone],
    ['E-mail', lead.email],
    ['Comment', lead.comment],
  ];
  for (const [k, v] of Object.entries(lead.utm ?? {})) rows.push([`utm_${k}`, v]);
  for (const [k, v] of Object.entries(lead.custom ?? {})) rows.push([k, v]);
  const lines = rows
    .filter(([, v]) => v !== undefined && v !== '')
    .map(([k, v]) => `<b>${escapeHtml(k)}:</b> ${escapeHtml(String(v))}`);
  let html = `<p>${lines.join('<br>')}</p>`;
  if (raw !== undefined && raw !== null) {
    const text = JSON.stringify(raw, null, 2) ?? '';
    html += `<pre>${escapeHtml(text.slice(0, 50_000))}</pre>`;
  }
  return html;
}

/** POST /api/v2/activities: a follow-up on the lead or deal, due dueInMinutes after `now` (UTC). */
export function activityBody(
  activity: NonNullable<PipedriveSettings['activity']>,
  refs: { title: string; personId: number; ownerId?: number; dealId?: number; leadId?: string },
  now = new Date(),
) {
  const due = new Date(now.getTime() + (activity.dueInMinutes ?? 60) * 60_000);
  return {
    subject: (activity.subject || refs.title).slice(0, 255),
    type: activity.type,
    ...(refs.ownerId ? { owner_id: refs.ownerId } : {}),
    ...(refs.dealId ? { deal_id: refs.dealId } : {}),
    ...(refs.leadId ? { lead_id: refs.leadId } : {}),
    person_id: refs.personId,
    participants: [{ person_id: refs.personId, primary: true }],
    due_date: due.toISOString().slice(0, 10),
    due_time: due.toISOString().slice(11, 16),
  };
}

/** "added.deal" → create/deal: Pipedrive's v1 action names map onto the 2.0 ones. */
export function webhookEvent(event: string): { event_action: string; event_object: string } {
  const [action = '*', object = '*'] = event.split('.');
  const actions = new Map([
    ['added', 'create'],
    ['updated', 'change'],
    ['deleted', 'delete'],
  ]);
  return { event_action: actions.get(action) ?? action, event_object: object };
}
