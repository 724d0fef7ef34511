// Pure: what the Bitrix24 destination sends for a lead (the contact, the lead or deal fields), how
// it recognises its own record again, and the portal's answers reduced to what the screens show.
// No I/O here, so every rule is unit-tested on its own.
import { createHash } from 'node:crypto';
import type { Assignee, Lead } from '@leadrelay/shared';
import type { Bitrix24Pipeline, Bitrix24Settings, Bitrix24Stage, Bitrix24User } from './schema';

/** Our records' ORIGINATOR_ID: "the data source" of ORIGIN_ID (crm.deal.add / crm.lead.add). */
export const ORIGINATOR = 'leadrelay';
/** What we write into the portal is in Ukrainian (titles, the comment's labels): the market's language. */
export const DEFAULT_TITLE = 'Заявка: {name}';
const MAX_TITLE = 255;
const MAX_TEXT = 10_000;
const MAX_UTM = 255;

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

/** "Olena Kovalenko" → NAME Olena, LAST_NAME Kovalenko; one word is the first name. */
export function splitName(name: string | undefined): { NAME?: string; LAST_NAME?: string } {
  const words = (name ?? '').trim().split(/\s+/).filter(Boolean);
  if (words.length === 0) return {};
  if (words.length === 1) return { NAME: words[0]!.slice(0, 50) };
  return { NAME: words[0]!.slice(0, 50), LAST_NAME: words.slice(1).join(' ').slice(0, 50) };
}

/** PHONE and EMAIL as crm_multifield values: [{VALUE, VALUE_TYPE}]. */
export function communications(lead: Pick<Lead, 'phone' | 'email'>): Record<string, unknown> {
  return {
    ...(lead.phone ? { PHONE: [{ VALUE: lead.phone, VALUE_TYPE: 'WORK' }] } : {}),
    ...(lead.email ? { EMAIL: [{ VALUE: lead.email.trim(), VALUE_TYPE: 'WORK' }] } : {}),
  };
}

const UTM_KEYS = ['source', 'medium', 'campaign', 'content', 'term'] as const;

/** UTM_SOURCE … UTM_TERM from the lead's UTM. */
export function utmFields(lead: Lead): Record<string, string> {
  return Object.fromEntries(
    UTM_KEYS.flatMap((key) => {
      const v = lead.utm?.[key]?.trim();
      return v ? [[`UTM_${key.toUpperCase()}`, v.slice(0, MAX_UTM)]] : [];
    }),
  );
}

/** The record's COMMENTS: the lead's comment, then what else it brought (custom values), as plain lines. */
export function commentOf(lead: Lead): string | undefined {
  const lines: string[] = [];
  if (lead.comment?.trim()) lines.push(lead.comment.trim());
  const custom = Object.entries(lead.custom ?? {}).filter(([, v]) => typeof v === 'string' && v.trim());
  if (custom.length) {
    if (lines.length) lines.push('');
    for (const [k, v] of custom) lines.push(`${k}: ${v.trim()}`);
  }
  const text = lines.join('\n').slice(0, MAX_TEXT);
  return text || undefined;
}

/** Where the lead came from, for SOURCE_DESCRIPTION: its utm_source (the portal's SOURCE_ID stays its default). */
export const sourceOf = (lead: Lead): string | undefined => lead.utm?.source?.trim().slice(0, MAX_UTM) || undefined;

/** A short, stable mark of a delivery's idempotency key: the record's ORIGIN_ID. */
export function originIdOf(idempotencyKey: string): string {
  return `LR-${createHash('sha256').update(idempotencyKey).digest('hex').slice(0, 24)}`;
}

/**
 * The responsible user: the distribution's assignee when its id is a user the portal has (active),
 * else the settings' one, else none (Bitrix24 makes the webhook's user responsible).
 */
export function responsibleOf(
  assignee: Assignee | undefined,
  users: readonly Pick<Bitrix24User, 'id'>[],
  settings: Pick<Bitrix24Settings, 'ownerId'>,
): number | undefined {
  const id = assignee?.id?.trim();
  if (id && /^\d{1,10}$/.test(id) && users.some((u) => u.id === Number(id))) return Number(id);
  return settings.ownerId;
}

/** crm.contact.add's fields for a lead. */
export function contactFields(lead: Lead, owner: number | undefined): Record<string, unknown> {
  const name = splitName(lead.name);
  return {
    ...(name.NAME || name.LAST_NAME ? name : { NAME: lead.phone || lead.email || 'Контакт' }),
    ...communications(lead),
    ...(sourceOf(lead) ? { SOURCE_DESCRIPTION: sourceOf(lead) } : {}),
    ...(owner ? { ASSIGNED_BY_ID: owner } : {}),
    OPENED: 'Y',
  };
}

export interface RecordRefs {
  title: string;
  owner?: number;
  contactId?: number;
  originId: string;
  /** Deals: the pipeline and the stage's STATUS_ID. */
  categoryId?: number;
  stageStatusId?: string;
}

/** crm.lead.add's or crm.deal.add's fields. A lead carries the person's own fields too (its form shows them). */
export function recordFields(target: 'lead' | 'deal', lead: Lead, refs: RecordRefs): Record<string, unknown> {
  const comment = commentOf(lead);
  const common = {
    TITLE: refs.title,
    ...utmFields(lead),
    ...(sourceOf(lead) ? { SOURCE_DESCRIPTION: sourceOf(lead) } : {}),
    ...(comment ? { COMMENTS: comment } : {}),
    ...(refs.owner ? { ASSIGNED_BY_ID: refs.owner } : {}),
    ORIGINATOR_ID: ORIGINATOR,
    ORIGIN_ID: refs.originId,
    OPENED: 'Y',
  };
  if (target === 'lead') {
    return {
      ...common,
      ...splitName(lead.name),
      ...communications(lead),
      ...(refs.contactId ? { CONTACT_ID: refs.contactId } : {}),
    };
  }
  return {
    ...common,
    ...(refs.categoryId !== undefined ? { CATEGORY_ID: refs.categoryId } : {}),
    ...(refs.stageStatusId ? { STAGE_ID: refs.stageStatusId } : {}),
    ...(refs.contactId ? { CONTACT_IDS: [refs.contactId] } : {}),
  };
}

/** The oldest contact among crm.duplicate.findbycomm's answer ({CONTACT: [ids]}), if any. */
export function firstContact(result: unknown): number | undefined {
  const ids = (result as { CONTACT?: unknown } | null | undefined)?.CONTACT;
  if (!Array.isArray(ids)) return undefined;
  const valid = ids.map(Number).filter((n) => Number.isSafeInteger(n) && n > 0);
  return valid.length ? Math.min(...valid) : undefined;
}

// ---- The portal's answers for the screens ----

interface RawCategory {
  id?: unknown;
  name?: unknown;
  sort?: unknown;
  isDefault?: unknown;
}
interface RawStatus {
  ID?: unknown;
  STATUS_ID?: unknown;
  NAME?: unknown;
  SORT?: unknown;
  SEMANTICS?: unknown;
  EXTRA?: { SEMANTICS?: unknown } | null;
}

/** The stage directory of a pipeline: DEAL_STAGE for the general one (0), DEAL_STAGE_{id} for the rest. */
export const stageDirectory = (categoryId: number): string =>
  categoryId === 0 ? 'DEAL_STAGE' : `DEAL_STAGE_${categoryId}`;

/** crm.status.list items as stages, in the portal's order; `semantics` process / success / failure. */
export function toStages(raw: RawStatus[]): Bitrix24Stage[] {
  return raw
    .map((s) => {
      const id = Number(s.ID);
      if (!Number.isSafeInteger(id) || id <= 0 || typeof s.STATUS_ID !== 'string') return undefined;
      const semantics =
        s.EXTRA?.SEMANTICS ?? (s.SEMANTICS === 'S' ? 'success' : s.SEMANTICS === 'F' ? 'failure' : 'process');
      return {
        id,
        statusId: s.STATUS_ID,
        name: typeof s.NAME === 'string' && s.NAME.trim() ? s.NAME.trim() : s.STATUS_ID,
        sort: Number(s.SORT) || 0,
        semantics: typeof semantics === 'string' ? semantics : 'process',
      };
    })
    .filter((s): s is Bitrix24Stage => s !== undefined)
    .sort((a, b) => a.sort - b.sort);
}

/** crm.category.list's categories, the default first, with their stages. */
export function toPipelines(raw: RawCategory[], stagesOf: (id: number) => Bitrix24Stage[]): Bitrix24Pipeline[] {
  return raw
    .map((c) => {
      const id = Number(c.id);
      if (!Number.isSafeInteger(id) || id < 0) return undefined;
      return {
        id,
        name: typeof c.name === 'string' && c.name.trim() ? c.name.trim() : String(id),
        isDefault: c.isDefault === 'Y' || c.isDefault === true,
        sort: Number(c.sort) || 0,
        stages: stagesOf(id),
      };
    })
    .filter((p) => p !== undefined)
    .sort((a, b) => Number(b.isDefault) - Number(a.isDefault) || a.sort - b.sort)
    .map(({ sort: _sort, ...p }) => p);
}

interface RawUser {
  ID?: unknown;
  NAME?: unknown;
  LAST_NAME?: unknown;
  EMAIL?: unknown;
  ACTIVE?: unknown;
}

/** user.get's employees as people to choose from. */
export function toUsers(raw: RawUser[]): Bitrix24User[] {
  return raw
    .filter((u) => u.ACTIVE !== false && u.ACTIVE !== 'N')
    .map((u) => {
      const id = Number(u.ID);
      const email = typeof u.EMAIL === 'string' && u.EMAIL.trim() ? u.EMAIL.trim() : undefined;
      const name = [u.NAME, u.LAST_NAME].filter((v): v is string => typeof v === 'string' && v.trim() !== '').join(' ');
      return { id, name: name || email || `#${id}`, ...(email ? { email } : {}) };
    })
    .filter((u) => Number.isSafeInteger(u.id) && u.id > 0);
}
