// The mapping editor's working copy of integration.options (mapping, filters, dedupe; see
// packages/shared/src/mapping.ts) and the live preview computed with the shared engine functions.
import {
  activeDefaults,
  DEFAULT_KEYS,
  DEFAULT_MAPPING,
  type DefaultKey,
  type DefaultsOption,
  FILTER_OPS,
  type Filter,
  type Lead,
  type LeadWarning,
  type MappingRule,
  mapLead,
  TRANSFORMS,
  ZDedupePolicy,
  ZFilter,
  ZMappingRule,
} from '@leadrelay/shared';

export type Transform = (typeof TRANSFORMS)[number];
export type FilterOp = (typeof FILTER_OPS)[number];

export interface RuleDraft {
  key: string;
  /** One path, or several concatenated with `separator`. */
  from: string[];
  to: string;
  separator: string;
  default: string;
  transform: Transform[];
}

export interface FilterDraft {
  key: string;
  field: string;
  op: FilterOp;
  value: string;
  negate: boolean;
}

export interface OptionsDraft {
  mapping: RuleDraft[];
  /** The defaults a person turned off (all of them: `defaults: false`). */
  defaultsOff: DefaultKey[];
  filters: FilterDraft[];
  dedupe: { sourceIdField: string; bodyWindowHours: number | null };
}

/** The ops that compare with a value. */
export const VALUE_OPS: readonly FilterOp[] = ['equals', 'contains', 'regex'];

let counter = 0;
export const newKey = () => `row-${++counter}`;

export const emptyRule = (): RuleDraft => ({
  key: newKey(),
  from: [],
  to: '',
  separator: '',
  default: '',
  transform: [],
});
export const emptyFilter = (): FilterDraft => ({ key: newKey(), field: '', op: 'notEmpty', value: '', negate: false });

const asText = (v: unknown) => (typeof v === 'string' ? v : '');

function defaultsOffOf(value: unknown): DefaultKey[] {
  if (value === false) return [...DEFAULT_KEYS];
  const off = (value as { off?: unknown } | undefined)?.off;
  return Array.isArray(off) ? DEFAULT_KEYS.filter((k) => off.includes(k)) : [];
}

/** Reads stored options leniently: what does not fit the schema is shown as empty, never thrown. */
export function draftFromOptions(options: Record<string, unknown> | undefined): OptionsDraft {
  const mapping = Array.isArray(options?.mapping) ? (options.mapping as Partial<MappingRule>[]) : [];
  const filters = Array.isArray(options?.filters) ? (options.filters as Partial<Filter>[]) : [];
  const dedupe = (options?.dedupe ?? {}) as { sourceIdField?: unknown; bodyWindowHours?: unknown };
  return {
    mapping: mapping.map((r) => ({
      key: newKey(),
      from: Array.isArray(r.from) ? r.from.map(asText) : r.from ? [asText(r.from)] : [],
      to: asText(r.to),
      separator: asText(r.separator),
      default: asText(r.default),
      transform: Array.isArray(r.transform) ? r.transform.filter((t) => TRANSFORMS.includes(t)) : [],
    })),
    defaultsOff: defaultsOffOf(options?.defaults),
    filters: filters.map((f) => ({
      key: newKey(),
      field: asText(f.field),
      op: FILTER_OPS.includes(f.op as FilterOp) ? (f.op as FilterOp) : 'notEmpty',
      value: asText(f.value),
      negate: f.negate === true,
    })),
    dedupe: {
      sourceIdField: asText(dedupe.sourceIdField),
      bodyWindowHours: typeof dedupe.bodyWindowHours === 'number' ? dedupe.bodyWindowHours : null,
    },
  };
}

export function ruleOf(d: RuleDraft): MappingRule {
  const from = d.from.map((p) => p.trim()).filter(Boolean);
  return {
    from: from.length === 1 ? (from[0] as string) : from,
    to: d.to.trim(),
    ...(from.length > 1 && d.separator !== '' ? { separator: d.separator } : {}),
    ...(d.default !== '' ? { default: d.default } : {}),
    ...(d.transform.length ? { transform: d.transform } : {}),
  };
}

export function filterOf(d: FilterDraft): Filter {
  return {
    field: d.field.trim(),
    op: d.op,
    ...(VALUE_OPS.includes(d.op) ? { value: d.value } : {}),
    ...(d.negate ? { negate: true } : {}),
  };
}

export function dedupeOf(d: OptionsDraft['dedupe']) {
  return {
    ...(d.sourceIdField.trim() ? { sourceIdField: d.sourceIdField.trim() } : {}),
    ...(d.bodyWindowHours !== null ? { bodyWindowHours: d.bodyWindowHours } : {}),
  };
}

/** The stored form of the defaults turned off: none (absent), all (false) or a list. */
export function defaultsOf(off: readonly DefaultKey[]): DefaultsOption | undefined {
  if (off.length === 0) return undefined;
  if (DEFAULT_KEYS.every((k) => off.includes(k))) return false;
  return { off: DEFAULT_KEYS.filter((k) => off.includes(k)) };
}

/** The options to store: the draft's parts replace the engine's keys, other keys are kept. */
export function optionsFromDraft(draft: OptionsDraft, previous: Record<string, unknown> = {}) {
  const { defaults: _previous, ...rest } = previous;
  const defaults = defaultsOf(draft.defaultsOff);
  return {
    ...rest,
    mapping: draft.mapping.map(ruleOf),
    ...(defaults !== undefined ? { defaults } : {}),
    filters: draft.filters.map(filterOf),
    dedupe: dedupeOf(draft.dedupe),
  };
}

/**
 * A default row of the editor: one lead field (UTM's five as one row, `custom` for every other
 * field), with the payload keys it reads. Shown while it applies: not turned off, and for UTM the
 * keys no rule writes.
 */
export interface DefaultRow {
  id: 'name' | 'phone' | 'email' | 'comment' | 'utm' | 'custom';
  keys: DefaultKey[];
  from: string[];
  transform: Transform[];
}

const ROW_IDS: DefaultRow['id'][] = ['name', 'phone', 'email', 'comment', 'utm', 'custom'];
const rowOfKey = (k: DefaultKey): DefaultRow['id'] => (k.startsWith('utm.') ? 'utm' : (k as DefaultRow['id']));

/** The default rows that apply beside the draft's (valid) rules. */
export function defaultRows(draft: OptionsDraft): DefaultRow[] {
  const rules = draft.mapping.map(ruleOf).filter((r) => ZMappingRule.safeParse(r).success);
  const active = activeDefaults(rules, defaultsOf(draft.defaultsOff));
  return ROW_IDS.map((id) => {
    const keys = [...active].filter((k) => rowOfKey(k) === id);
    const rows = DEFAULT_MAPPING.filter((r) => keys.includes(r.to));
    return { id, keys, from: rows.flatMap((r) => r.from), transform: rows[0]?.transform ?? [] };
  }).filter((row) => row.keys.length > 0);
}

/** Turns a default row off: it stays off once saved (`defaults`). */
export function removeDefault(draft: OptionsDraft, row: DefaultRow): OptionsDraft {
  return { ...draft, defaultsOff: DEFAULT_KEYS.filter((k) => draft.defaultsOff.includes(k) || row.keys.includes(k)) };
}

/** A default row as rules a person edits (a rule replaces the default of the field it writes); not for `custom`. */
export function defaultAsRules(row: DefaultRow): RuleDraft[] {
  return DEFAULT_MAPPING.filter((r) => row.keys.includes(r.to) && r.to !== 'custom').map((r) => ({
    ...emptyRule(),
    from: r.from.slice(0, 1),
    to: r.to,
    transform: [...r.transform],
  }));
}

/** Field → error key of one row (first issue per field), empty when the row is valid. */
export type RowErrors = Record<string, string>;

function issuesToErrors(issues: readonly { path: PropertyKey[]; message: string; code: string }[]): RowErrors {
  const out: RowErrors = {};
  for (const issue of issues) {
    const field = String(issue.path[0] ?? '_');
    if (out[field]) continue;
    // own-keys: a key of our own rule schema (the issue's path)
    out[field] = /^[A-Z0-9_]+$/.test(issue.message)
      ? issue.message
      : issue.code === 'too_small'
        ? 'REQUIRED'
        : 'VALIDATION_ERROR';
  }
  return out;
}

export interface DraftErrors {
  mapping: RowErrors[];
  filters: RowErrors[];
  dedupe: RowErrors;
  /** True when every row is valid: the draft can be saved. */
  valid: boolean;
}

/** Each row checked with the shared schema the server applies on save. */
export function validateDraft(draft: OptionsDraft): DraftErrors {
  const mapping = draft.mapping.map((r) => {
    const res = ZMappingRule.safeParse(ruleOf(r));
    return res.success ? {} : issuesToErrors(res.error.issues);
  });
  const filters = draft.filters.map((f) => {
    const res = ZFilter.safeParse(filterOf(f));
    return res.success ? {} : issuesToErrors(res.error.issues);
  });
  const res = ZDedupePolicy.safeParse(dedupeOf(draft.dedupe));
  const dedupe = res.success ? {} : issuesToErrors(res.error.issues);
  const valid =
    mapping.every((e) => Object.keys(e).length === 0) &&
    filters.every((e) => Object.keys(e).length === 0) &&
    Object.keys(dedupe).length === 0;
  return { mapping, filters, dedupe, valid };
}

export type SampleParse = { ok: true; payload: Record<string, unknown> } | { ok: false };

export function parseSample(text: string): SampleParse {
  try {
    const value: unknown = JSON.parse(text);
    if (value === null || typeof value !== 'object' || Array.isArray(value)) return { ok: false };
    return { ok: true, payload: value as Record<string, unknown> };
  } catch {
    return { ok: false };
  }
}

export interface Preview {
  lead: Lead;
  /** The first filter that fails, or null when the lead would be kept. */
  dropped: { filter: Filter; reason: string } | null;
  /** What is wrong with the lead (NO_CONTACT): the same codes its hook will carry. */
  warnings: LeadWarning[];
  /** Rows left out of the preview because they are not valid yet. */
  skippedRules: number;
}

/** The options the preview runs: the draft's valid rows, its defaults and filters. */
export function previewOptions(draft: OptionsDraft) {
  const errors = validateDraft(draft);
  const mapping = draft.mapping.filter((_r, i) => Object.keys(errors.mapping[i] ?? {}).length === 0).map(ruleOf);
  const filters = draft.filters.filter((_f, i) => Object.keys(errors.filters[i] ?? {}).length === 0).map(filterOf);
  return { mapping, filters, defaults: defaultsOf(draft.defaultsOff), skipped: draft.mapping.length - mapping.length };
}

/** What ingest does with this payload: the shared mapLead ingest itself runs, valid rows only. */
export function previewOf(draft: OptionsDraft, payload: Record<string, unknown>): Preview {
  const { skipped, ...options } = previewOptions(draft);
  const { lead, verdict, warnings } = mapLead(payload, options);
  const dropped = verdict.kept ? null : { filter: verdict.filter, reason: verdict.reason };
  return { lead, dropped, warnings, skippedRules: skipped };
}

/** Dotted paths of the sample's scalar values: suggestions for "from" and raw filters. */
export function samplePaths(payload: Record<string, unknown>, prefix = '', depth = 0): string[] {
  const out: string[] = [];
  for (const [k, v] of Object.entries(payload)) {
    const path = prefix ? `${prefix}.${k}` : k;
    if (v !== null && typeof v === 'object' && !Array.isArray(v) && depth < 4) {
      out.push(...samplePaths(v as Record<string, unknown>, path, depth + 1));
    } else out.push(path);
  }
  return out;
}

/** The lead as flat `key → value` rows (name, phone, utm.source, custom.city …). */
export function leadRows(lead: Lead): [string, string][] {
  const rows: [string, string][] = [];
  for (const k of ['name', 'phone', 'email', 'comment'] as const) if (lead[k] !== undefined) rows.push([k, lead[k]]);
  for (const [k, v] of Object.entries(lead.utm ?? {})) if (v !== undefined) rows.push([`utm.${k}`, v]);
  for (const [k, v] of Object.entries(lead.custom)) rows.push([`custom.${k}`, v]);
  return rows;
}
