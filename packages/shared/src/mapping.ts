// How a source integration turns an inbound payload into a Lead (integration.options).
//
// options = {
//   mapping?: [{ from: 'form.phone' | ['first', 'last'], to: 'phone' | 'utm.source' | 'custom.city',
//               separator?: ' ', default?: 'n/a', transform?: ['trim', 'lower', 'upper', 'phone'] }],
//   filters?: [{ field: 'phone' | 'utm.source' | 'custom.city' | 'raw.form.x', op: 'equals' | 'contains'
//               | 'regex' | 'empty' | 'notEmpty', value?: string, negate?: boolean }],
//   dedupe?: { sourceIdField?: 'leadgen_id', bodyWindowHours?: 24 },
//   defaults?: true | false | { off: ['email', 'utm.source', 'custom', …] },
// }
//
// - `from` is a dotted path into the payload; a list concatenates the non-empty values with
//   `separator` (a space by default). `default` is used when the result is empty.
// - The default mapping: well-known names map by themselves (name, phone, email, comment, utm_*,
//   in any case; DEFAULT_MAPPING), every other top-level scalar goes to `custom`. It stays on beside
//   the rules: a rule replaces the default of the lead field it writes (its `to`), and a payload key
//   a rule reads is not copied to `custom` again. `defaults: false` turns the whole default mapping
//   off; `defaults: { off: [...] }` turns off the defaults of those lead fields (`custom`: the copy of
//   the other fields). One rule never empties a lead (issue 27).
// - Every filter must hold for the lead to be kept (AND); `negate` inverts one. A filter's
//   `field` names a lead field, or `raw.<path>` a payload path. The first failing filter is the
//   reason stored on the hook.
// - A phone that cannot be read as a number is kept as written (trimmed): a lead is never lost
//   because of its formatting.
import { parsePhoneNumberFromString } from 'libphonenumber-js/min';
import { z } from 'zod';
import { FILTER_OPS, TRANSFORMS, UTM_KEYS } from './constants';
import type { Lead } from './lead';
import { ownValue, setOwn } from './own';
import { ZRoutingPolicy } from './working-hours';

const ZPath = z.string().trim().min(1).max(200);
/** name | phone | email | comment | utm.<key> | custom.<key> */
export const ZLeadFieldKey = z
  .string()
  .regex(/^(name|phone|email|comment|utm\.(source|medium|campaign|content|term)|custom\.[A-Za-z0-9_\-.]{1,64})$/, {
    message: 'VALIDATION_ERROR',
  });

export const ZMappingRule = z.object({
  from: z.union([ZPath, z.array(ZPath).min(1).max(10)]),
  to: ZLeadFieldKey,
  separator: z.string().max(10).optional(),
  default: z.string().max(1000).optional(),
  transform: z.array(z.enum(TRANSFORMS)).max(4).optional(),
});
export type MappingRule = z.infer<typeof ZMappingRule>;

export const ZFilter = z
  .object({
    field: z.string().trim().min(1).max(200),
    op: z.enum(FILTER_OPS),
    value: z.string().max(1000).optional(),
    negate: z.boolean().optional(),
  })
  .superRefine((f, ctx) => {
    if ((f.op === 'equals' || f.op === 'contains' || f.op === 'regex') && f.value === undefined) {
      ctx.addIssue({ code: 'custom', path: ['value'], message: 'REQUIRED' });
    }
    if (f.op === 'regex' && f.value !== undefined) {
      try {
        new RegExp(f.value);
      } catch {
        ctx.addIssue({ code: 'custom', path: ['value'], message: 'VALIDATION_ERROR' });
      }
    }
  });
export type Filter = z.infer<typeof ZFilter>;

export const ZDedupePolicy = z.object({
  /** Payload path of the source's own event id (e.g. Meta `leadgen_id`). */
  sourceIdField: ZPath.optional(),
  /** How long the same body counts as a repeat. */
  bodyWindowHours: z.number().int().min(1).max(168).optional(),
});

export const DEFAULT_DEDUPE_WINDOW_HOURS = 24;

/** The lead fields the default mapping fills, and `custom` for the copy of every other top-level field. */
export const DEFAULT_KEYS = [
  'name',
  'phone',
  'email',
  'comment',
  ...UTM_KEYS.map((k) => `utm.${k}` as const),
  'custom',
] as const;
export type DefaultKey = (typeof DEFAULT_KEYS)[number];

/** true (or absent): the whole default mapping; false: none; `off`: all but these. */
export const ZDefaultsOption = z.union([
  z.boolean(),
  z.object({ off: z.array(z.enum(DEFAULT_KEYS)).max(DEFAULT_KEYS.length) }).strict(),
]);
export type DefaultsOption = z.infer<typeof ZDefaultsOption>;

/** The engine's part of integration.options; other keys are left to their owners. */
export const ZSourceOptions = z
  .object({
    mapping: z.array(ZMappingRule).max(100).optional(),
    /** The default mapping beside the rules (see the top of this file); on unless said otherwise. */
    defaults: ZDefaultsOption.optional(),
    filters: z.array(ZFilter).max(50).optional(),
    dedupe: ZDedupePolicy.optional(),
    /** Who gets a lead when nobody is on duty, and when it passes on (issue 19). */
    routing: ZRoutingPolicy.optional(),
  })
  .passthrough();
export type SourceOptions = z.infer<typeof ZSourceOptions>;

type Payload = Record<string, unknown>;

/** Value at a dotted path; arrays of scalars are joined with ", ". */
export function getPath(source: unknown, path: string): string | undefined {
  let current: unknown = source;
  for (const part of path.split('.')) {
    current = ownValue(current, part);
    if (current === undefined) return undefined;
  }
  return scalarText(current);
}

function scalarText(value: unknown): string | undefined {
  if (value === undefined || value === null) return undefined;
  if (typeof value === 'string') return value;
  if (typeof value === 'number' || typeof value === 'boolean') return String(value);
  if (Array.isArray(value)) {
    const parts = value.map(scalarText).filter((v): v is string => v !== undefined && v !== '');
    return parts.length ? parts.join(', ') : undefined;
  }
  return undefined;
}

/**
 * E.164 with Ukrainian defaults: `0XXXXXXXXX` → +380XXXXXXXXX, `380…` → +380…, `+380…` kept;
 * anything else through libphonenumber (Ukraine as the default country). Undefined when it is
 * not a phone number.
 */
export function normalizePhone(input: string): string | undefined {
  const trimmed = input.trim();
  if (!trimmed) return undefined;
  let compact = trimmed.replace(/[\s\-().]/g, '');
  if (compact.startsWith('00')) compact = `+${compact.slice(2)}`;
  if (!/^\+?\d+$/.test(compact)) return undefined;
  if (/^0\d{9}$/.test(compact)) return `+38${compact}`;
  if (/^380\d{9}$/.test(compact)) return `+${compact}`;
  if (/^\+380\d{9}$/.test(compact)) return compact;
  const parsed = parsePhoneNumberFromString(compact, 'UA');
  return parsed?.isPossible() ? parsed.number : undefined;
}

export function applyTransforms(value: string, transforms: readonly (typeof TRANSFORMS)[number][] = []): string {
  let out = value;
  for (const t of transforms) {
    if (t === 'trim') out = out.trim();
    else if (t === 'lower') out = out.toLowerCase();
    else if (t === 'upper') out = out.toUpperCase();
    else if (t === 'phone') out = normalizePhone(out) ?? out.trim();
  }
  return out;
}

function setLeadField(lead: Lead, to: string, value: string): void {
  if (to.startsWith('utm.')) {
    lead.utm = { ...lead.utm, [to.slice(4)]: value };
  } else if (to.startsWith('custom.')) {
    setOwn(lead.custom, to.slice(7), value);
  } else {
    setOwn(lead as Record<string, unknown>, to, value);
  }
}

/** A lead field by key (name, utm.source, custom.city), for filters and previews. */
export function getLeadField(lead: Lead, key: string): string | undefined {
  const value = key.startsWith('utm.')
    ? ownValue(lead.utm, key.slice(4))
    : key.startsWith('custom.')
      ? ownValue(lead.custom, key.slice(7))
      : ownValue(lead, key);
  return typeof value === 'string' ? value : undefined;
}

/** Payload keys (any case) that map by themselves; a Map, so `constructor` is just an unknown key. */
type KnownField = { to: DefaultKey; transform: (typeof TRANSFORMS)[number][] };
const WELL_KNOWN = new Map<string, KnownField>([
  ['name', { to: 'name', transform: ['trim'] }],
  ['full_name', { to: 'name', transform: ['trim'] }],
  ['phone', { to: 'phone', transform: ['phone'] }],
  ['tel', { to: 'phone', transform: ['phone'] }],
  ['phone_number', { to: 'phone', transform: ['phone'] }],
  ['email', { to: 'email', transform: ['trim', 'lower'] }],
  ['comment', { to: 'comment', transform: ['trim'] }],
  ['message', { to: 'comment', transform: ['trim'] }],
  ...UTM_KEYS.map((k): [string, KnownField] => [`utm_${k}`, { to: `utm.${k}`, transform: ['trim'] }]),
]);

/** One row of the default mapping, for screens and docs: the payload keys (any case, first non-empty one wins). */
export interface DefaultMappingRow {
  to: DefaultKey;
  /** Empty for `custom`: every other top-level field, under its own name. */
  from: string[];
  transform: (typeof TRANSFORMS)[number][];
}
export const DEFAULT_MAPPING: readonly DefaultMappingRow[] = DEFAULT_KEYS.map((to) => {
  const known = [...WELL_KNOWN].filter(([, f]) => f.to === to);
  return { to, from: known.map(([key]) => key), transform: known[0]?.[1].transform ?? [] };
});

/** The default keys that apply beside these rules: on, and not written by a rule. */
export function activeDefaults(
  rules: readonly MappingRule[] | undefined,
  defaults: DefaultsOption = true,
): Set<DefaultKey> {
  if (defaults === false) return new Set();
  const off = new Set<string>(defaults === true ? [] : defaults.off);
  for (const rule of rules ?? []) off.add(rule.to);
  return new Set(DEFAULT_KEYS.filter((k) => !off.has(k)));
}

function defaultMapping(payload: Payload, active: Set<DefaultKey>, readByRules: Set<string>, lead: Lead): void {
  for (const [key, raw] of Object.entries(payload)) {
    const value = scalarText(raw);
    if (value === undefined || value === '') continue;
    const known = WELL_KNOWN.get(key.toLowerCase());
    if (known) {
      // A well-known key is never a custom field, even when its default is off.
      if (active.has(known.to) && getLeadField(lead, known.to) === undefined)
        setLeadField(lead, known.to, applyTransforms(value, known.transform));
    } else if (active.has('custom') && !readByRules.has(key) && /^[A-Za-z0-9_\-.]{1,64}$/.test(key)) {
      setOwn(lead.custom, key, value);
    }
  }
}

/**
 * The lead a payload becomes: the default mapping (unless `defaults` turns it off, and for no lead
 * field a rule writes), then the rules, which win.
 */
export function applyMapping(
  payload: Payload,
  rules: readonly MappingRule[] | undefined,
  defaults: DefaultsOption = true,
): Lead {
  const lead: Lead = { custom: {} };
  // Payload keys a rule reads, and custom fields a rule writes, are the rules' own: no copy to `custom`.
  const readByRules = new Set<string>();
  for (const rule of rules ?? []) {
    for (const p of Array.isArray(rule.from) ? rule.from : [rule.from]) readByRules.add(p);
    if (rule.to.startsWith('custom.')) readByRules.add(rule.to.slice(7));
  }
  defaultMapping(payload, activeDefaults(rules, defaults), readByRules, lead);
  for (const rule of rules ?? []) {
    const paths = Array.isArray(rule.from) ? rule.from : [rule.from];
    const parts = paths.map((p) => getPath(payload, p)?.trim()).filter((v): v is string => !!v);
    let value = parts.join(rule.separator ?? ' ');
    if (value !== '') value = applyTransforms(value, rule.transform);
    if (value === '' && rule.default !== undefined) value = rule.default;
    if (value !== '') setLeadField(lead, rule.to, value);
  }
  return lead;
}

/** Codes of what is wrong with a kept lead (shown on its hook and in the preview; the web translates). */
export const LEAD_WARNINGS = ['NO_CONTACT', 'TEST_LEAD'] as const;
/**
 * On a hook's stored request: its source said the lead is a test (a lead form's "send test data").
 * Only the source machinery sets it (a sender's own header of that name is dropped); the lead log
 * shows the hook with TEST_LEAD.
 */
export const TEST_LEAD_HEADER = 'x-leadrelay-test';
export type LeadWarning = (typeof LEAD_WARNINGS)[number];

/** A lead a person can reach: a phone, an e-mail or at least a name. */
export function hasContact(lead: Pick<Lead, 'name' | 'phone' | 'email'>): boolean {
  return [lead.name, lead.phone, lead.email].some((v) => typeof v === 'string' && v.trim() !== '');
}

export function leadWarnings(lead: Pick<Lead, 'name' | 'phone' | 'email'>): LeadWarning[] {
  return hasContact(lead) ? [] : ['NO_CONTACT'];
}

export type FilterVerdict = { kept: true } | { kept: false; reason: string; filter: Filter };

function holds(filter: Filter, value: string | undefined): boolean {
  const text = value ?? '';
  switch (filter.op) {
    case 'empty':
      return text.trim() === '';
    case 'notEmpty':
      return text.trim() !== '';
    case 'equals':
      return text.trim().toLowerCase() === (filter.value ?? '').trim().toLowerCase();
    case 'contains':
      return text.toLowerCase().includes((filter.value ?? '').toLowerCase());
    case 'regex':
      return new RegExp(filter.value ?? '', 'i').test(text);
  }
}

/** Every filter must hold (equals and contains ignore case); the first that does not is the reason. */
export function evaluateFilters(lead: Lead, payload: Payload, filters: readonly Filter[] | undefined): FilterVerdict {
  for (const filter of filters ?? []) {
    const value = filter.field.startsWith('raw.')
      ? getPath(payload, filter.field.slice(4))
      : getLeadField(lead, filter.field);
    const ok = holds(filter, value) !== (filter.negate ?? false);
    if (!ok) {
      const op = `${filter.negate ? 'not ' : ''}${filter.op}`;
      const reason = `${filter.field} ${op}${filter.value !== undefined ? ` "${filter.value}"` : ''}`;
      return { kept: false, reason: `FILTERED: ${reason}`, filter };
    }
  }
  return { kept: true };
}

/** What ingest makes of a payload, and what the mapping preview shows: the lead every destination receives. */
export interface MappedLead {
  lead: Lead;
  verdict: FilterVerdict;
  warnings: LeadWarning[];
}

/** The one function ingest (every source) and the preview run: mapping, then filters, then warnings. */
export function mapLead(
  payload: Payload,
  options: Pick<SourceOptions, 'mapping' | 'filters' | 'defaults'> | undefined,
): MappedLead {
  const lead = applyMapping(payload, options?.mapping, options?.defaults);
  return { lead, verdict: evaluateFilters(lead, payload, options?.filters), warnings: leadWarnings(lead) };
}

/** JSON with object keys sorted at every level: the same body gives the same text. */
export function canonicalJson(value: unknown): string {
  if (value === null || typeof value !== 'object') return JSON.stringify(value) ?? 'null';
  if (Array.isArray(value)) return `[${value.map(canonicalJson).join(',')}]`;
  const entries = Object.entries(value as Record<string, unknown>)
    .filter(([, v]) => v !== undefined)
    .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
  return `{${entries.map(([k, v]) => `${JSON.stringify(k)}:${canonicalJson(v)}`).join(',')}}`;
}
