// The own-keys check of `npm run lint` (check-own-keys.mjs): each way a name from outside became an
// object member in issue 27 is named with its line, and the same code written as data passes.
import { describe, expect, it } from 'vitest';
import { checkOwnKeys, checkSource } from './check-own-keys.mjs';

/** Each planted mistake (as it was in the code before issue 27), and the words its report carries. */
const BAD = [
  [
    'a Record<string, …> literal read by a payload key (defaultMapping)',
    `const WELL_KNOWN: Record<string, { to: string }> = { name: { to: 'name' } };
export const known = (key: string) => WELL_KNOWN[key.toLowerCase()];`,
    2,
    'WELL_KNOWN',
  ],
  [
    'a URL parameter cast to a key of a literal table (?message=)',
    `const NOTICES = { session: 'signin.sessionExpired' } as const;
export const notice = (params: URLSearchParams) =>
  NOTICES[params.get('message') as keyof typeof NOTICES];`,
    3,
    'keyof',
  ],
  [
    'a {} written by multipart field names',
    `export function fields(parts: { fieldname: string; value: string }[]) {
  const out: Record<string, unknown> = {};
  for (const part of parts) out[part.fieldname] = part.value;
  return out;
}`,
    3,
    '__proto__',
  ],
  [
    '`in` on a name from the server',
    `export const onField = (values: { login: string }, field: string) => field in values;`,
    1,
    'Object.hasOwn',
  ],
  [
    'a table cast to Record<string, …> and read by a code',
    `const STATUS = { OK: 200 } as const;
export const statusOf = (code: string) => (STATUS as Record<string, number>)[code] ?? 500;`,
    2,
    'ownValue',
  ],
];

const GOOD = `import { ownValue, setOwn } from '@leadrelay/shared';
const WELL_KNOWN = new Map([['name', { to: 'name' }]]);
export const known = (key: string) => WELL_KNOWN.get(key.toLowerCase());
const COLORS = { ok: 'green', broken: 'red' } as const;
export const color = (s: keyof typeof COLORS) => COLORS[s];
export function fields(parts: { fieldname: string; value: string }[]) {
  const out: Record<string, unknown> = {};
  for (const part of parts) setOwn(out, part.fieldname, part.value);
  return out;
}
export const typed = () => {
  const row: Partial<{ a: number; b: number }> = {};
  for (const k of ['a', 'b'] as const) row[k] = 1;
  return row;
};
export const own = (values: object, field: string) => Object.hasOwn(values, field) && ownValue(values, field);
export const literal = (o: object) => 'code' in o;
const LIMITS: Record<string, number> = { a: 1 };
// own-keys: the key is one of this module's literals
export const limit = (k: 'a') => LIMITS[k];
`;

describe('check-own-keys', () => {
  it.each(BAD)('names %s with its line', (_name, code, line, words) => {
    const problems = checkSource(code, 'bad.ts');
    expect(problems).toHaveLength(1);
    expect(problems[0]).toMatchObject({ file: 'bad.ts', line });
    expect(problems[0].message).toContain(words);
  });

  it('passes the same code written with Map, ownValue, setOwn, Object.hasOwn, closed keys, or a reason', () => {
    expect(checkSource(GOOD, 'good.ts')).toEqual([]);
  });

  // It parses every source file of the repository: about a second alone, several on a loaded machine.
  it('passes the repository as it is', { timeout: 30_000 }, () => {
    expect(checkOwnKeys()).toEqual([]);
  });
});
