// What a lead becomes in a sheet: the header row the mapped columns need, and the row of values
// under it. Columns are found by their header text (trimmed, any case), so a person may reorder
// them; a mapped column the header lacks is added at its end; the lead-id column (either language's
// header) carries the delivery's idempotency key, by which a repeat finds the row it already wrote.
import type { Lead } from '@leadrelay/shared';
import type { SheetsColumn, SheetsSettings } from './schema';
import en from './words/en.json';
import uk from './words/uk.json';

const HEADERS = { uk: uk.header, en: en.header } as const;
/** The lead-id column's header in every language: switching the language never adds a second one. */
export const ID_HEADERS: readonly string[] = [uk.header.id, en.header.id];

/** Google keeps at most 50,000 characters in a cell. */
export const CELL_MAX = 50_000;

/** The columns written: the settings' own, or the defaults in the settings' language. */
export function columnsOf(settings: Pick<SheetsSettings, 'columns' | 'language'>): SheetsColumn[] {
  if (settings.columns?.length) return settings.columns;
  const h = HEADERS[settings.language ?? 'uk'];
  return [
    { name: h.name, from: 'name' },
    { name: h.phone, from: 'phone' },
    { name: h.email, from: 'email' },
    { name: h.comment, from: 'comment' },
    { name: h.source, from: 'utm.source' },
    { name: h.campaign, from: 'utm.campaign' },
  ];
}

/** A lead field's value as text ('' when absent); names from outside (custom.*) are looked up as own keys only. */
export function leadValue(lead: Lead, path: string): string {
  let value: unknown;
  if (path.startsWith('utm.')) {
    const utm = (lead.utm ?? {}) as Record<string, unknown>;
    const key = path.slice(4);
    value = Object.hasOwn(utm, key) ? utm[key] : undefined;
  } else if (path.startsWith('custom.')) {
    const custom = (lead.custom ?? {}) as Record<string, unknown>;
    const key = path.slice(7);
    value = Object.hasOwn(custom, key) ? custom[key] : undefined;
  } else if (path === 'name' || path === 'phone' || path === 'email' || path === 'comment') {
    value = lead[path];
  }
  if (value === undefined || value === null) return '';
  const text = typeof value === 'object' ? JSON.stringify(value) : String(value);
  return text.length > CELL_MAX ? text.slice(0, CELL_MAX) : text;
}

/** Column letters: 0 → A, 25 → Z, 26 → AA. */
export function columnLetter(index: number): string {
  let n = index + 1;
  let out = '';
  while (n > 0) {
    const r = (n - 1) % 26;
    out = String.fromCharCode(65 + r) + out;
    n = Math.floor((n - 1) / 26);
  }
  return out;
}

/** A sheet's title in A1 notation: always quoted, its apostrophes doubled ('Leads''26'!A1). */
export const quoteSheet = (title: string) => `'${title.replace(/'/g, "''")}'`;

const norm = (text: unknown) => (typeof text === 'string' ? text.trim().toLowerCase() : '');

export interface HeaderPlan {
  /** Column index of the lead-id column and of each mapped column, in the settings' order. */
  idColumn: number;
  columns: number[];
  /** Headers to write at `from` (0-based column), left to right; none when the header is in line. */
  write: { from: number; headers: string[] } | null;
  /** The header row once written. */
  header: string[];
}

/**
 * How the header row `existing` (row 1 as read; [] for an empty sheet) comes in line with the
 * columns: each found by its header; a missing one is added after the last used header cell. An
 * empty sheet gets the lead-id column first, then the columns.
 */
export function planHeader(
  existing: readonly unknown[],
  columns: readonly SheetsColumn[],
  language: 'uk' | 'en',
): HeaderPlan {
  const header = existing.map((c) => (typeof c === 'string' ? c : c === null || c === undefined ? '' : String(c)));
  const ids = new Set(ID_HEADERS.map(norm));
  // The first cell of each header text wins (a person's duplicate header to the right is left alone).
  const at = new Map<string, number>();
  header.forEach((h, i) => {
    const k = norm(h);
    if (k && !at.has(k)) at.set(k, i);
  });
  let idColumn = header.findIndex((h) => ids.has(norm(h)));
  const add: string[] = [];
  let next = header.reduce((last, h, i) => (norm(h) ? i : last), -1) + 1;
  const from = next;
  if (idColumn < 0) {
    idColumn = next++;
    add.push(HEADERS[language].id);
  }
  const positions = columns.map((c) => {
    const k = norm(c.name);
    const found = at.get(k);
    if (found !== undefined && found !== idColumn) return found;
    at.set(k, next);
    add.push(c.name);
    return next++;
  });
  const full = [...header];
  add.forEach((h, i) => {
    full[from + i] = h;
  });
  return { idColumn, columns: positions, write: add.length ? { from, headers: add } : null, header: full };
}

/** The row's cells: the key under the lead-id column, each column's value under its header, '' between. */
export function rowOf(lead: Lead, key: string, plan: HeaderPlan, columns: readonly SheetsColumn[]): string[] {
  const width = Math.max(plan.idColumn, ...plan.columns) + 1;
  const row = Array.from({ length: width }, () => '');
  row[plan.idColumn] = key;
  columns.forEach((c, i) => {
    row[plan.columns[i]!] = leadValue(lead, c.from);
  });
  return row;
}
