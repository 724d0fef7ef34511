// The spec's validation rules (section 5) as zod building blocks. Every issue's message is an
// error key from ./errors, so the server answers with the key and the web translates it.
import { z } from 'zod';

export const PASSWORD_RULE_KEY = 'MINIMUM_8_ONE_UPPERCASE_LETTER_ONE_LOWERCASE_ONE_NUMBER';
const PASSWORD_PATTERN = /^(?=.*[a-z])(?=.*[A-Z])(?=.*\d)[A-Za-z\d]{8,}$/;
export const PASSWORD_MAX_LENGTH = 128;
export const EMAIL_MAX_LENGTH = 254;

/** Missing → REQUIRED, wrong type → INVALID_TYPE. */
const typeError = (iss: { input?: unknown }) =>
  iss.input === undefined || iss.input === null ? 'REQUIRED' : 'INVALID_TYPE';

/** required: a string that is not blank. */
export const requiredText = () =>
  z.string({ error: typeError }).refine((v) => v.trim().length > 0, { error: 'REQUIRED', abort: true });

/**
 * min: trimmed length at least n, otherwise MIN_LENGTH_{n} (spec section 5). The one way a request
 * schema bounds what a person types from below: chain `.trim()`, `.max()`, `.regex()` after it.
 * A bound of 1 is the required rule: use `requiredText()` (REQUIRED), not this.
 */
export const zMinText = (n: number) =>
  z.string({ error: typeError }).refine((v) => v.trim().length >= n, { error: `MIN_LENGTH_${n}`, abort: true });

/** max: length at most n, otherwise MAX_LENGTH_{n}. */
export const maxText = (n: number) => z.string({ error: typeError }).max(n, { error: `MAX_LENGTH_${n}` });

/** email: trimmed and lower-cased, so the login is case-insensitive. */
export const email = () =>
  z
    .string({ error: typeError })
    .trim()
    .toLowerCase()
    .refine((v) => v.length > 0, { error: 'REQUIRED', abort: true })
    .pipe(z.email({ error: 'EMAIL' }).max(EMAIL_MAX_LENGTH, { error: `MAX_LENGTH_${EMAIL_MAX_LENGTH}` }));

/** password: 8+ characters, letters and digits only, one lowercase, one uppercase, one digit. */
export const password = () =>
  z
    .string({ error: typeError })
    .max(PASSWORD_MAX_LENGTH, { error: `MAX_LENGTH_${PASSWORD_MAX_LENGTH}` })
    .regex(PASSWORD_PATTERN, { error: PASSWORD_RULE_KEY });

/** numeric: any finite number (numbers or numeric strings from forms). */
export const numeric = () =>
  z.union([z.number(), z.string().trim().min(1)], { error: typeError }).transform((v, ctx) => {
    const n = typeof v === 'number' ? v : Number(v);
    if (!Number.isFinite(n)) {
      ctx.addIssue({ code: 'custom', message: 'NUMERIC' });
      return z.NEVER;
    }
    return n;
  });

/** integer: a whole number (numbers or numeric strings from forms). */
export const integer = () => numeric().refine((v) => Number.isInteger(v), { error: 'INTEGER' });

/** The years a date the API takes may fall in: anything else is a typo, never a plan's end. */
export const DATE_MIN_YEAR = 1970;
export const DATE_MAX_YEAR = 2999;
const ISO_DAY = /^(\d{4})-(\d{2})-(\d{2})$/;

/**
 * Whether `text` is a day that exists, written YYYY-MM-DD, in [minYear, maxYear]: 2026-02-30,
 * 2026-13-45 and 0000-01-01 are not (Date.parse rolls 2026-02-30 over to March 2, so it cannot tell).
 */
export function isCalendarDate(text: string, minYear = DATE_MIN_YEAR, maxYear = DATE_MAX_YEAR): boolean {
  const m = ISO_DAY.exec(text);
  if (!m) return false;
  const [year, month, day] = [Number(m[1]), Number(m[2]), Number(m[3])];
  if (year < minYear || year > maxYear || month < 1 || month > 12 || day < 1) return false;
  // Day 0 of the next month is the last day of this one (UTC: no time zone shifts it).
  return day <= new Date(Date.UTC(year, month, 0)).getUTCDate();
}

/** calendarDate: a real day as YYYY-MM-DD (isCalendarDate), else `error` (the field's key). */
export const calendarDate = (error = 'INVALID_DATE') =>
  z.string({ error: typeError }).refine((v) => isCalendarDate(v), { error });

/** The most a balance or a price may be, in US dollars: a few zeros too many is a typo. */
export const MONEY_MAX = 1_000_000;

/** Whether `value` is a finite amount in whole cents (two decimals at most, as stored: cents). */
export const isWholeCents = (value: number): boolean =>
  Number.isFinite(value) && Math.abs(value * 100 - Math.round(value * 100)) < 1e-6;

/**
 * money: US dollars in whole cents, from 0 to `max` (a number, as JSON and the forms send it):
 * negative amounts, fractions of a cent and absurd sizes (1e308) are `error`.
 */
export const money = (error = 'VALIDATION_ERROR', max = MONEY_MAX) =>
  z.number({ error: typeError }).min(0, { error }).max(max, { error }).refine(isWholeCents, { error });

/** Dollars as stored: whole cents (after money() only whole cents come in; this rounds float noise). */
export const toCents = (dollars: number): number => Math.round(dollars * 100);

export function isValidPassword(value: string): boolean {
  return PASSWORD_PATTERN.test(value) && value.length <= PASSWORD_MAX_LENGTH;
}

/** password_equal: adds PASSWORDS_NOT_EQUAL on `passwordConfirm` when it differs from `password`. */
export function withPasswordConfirm<
  T extends z.ZodObject<{ password: z.ZodType<string>; passwordConfirm: z.ZodType<string> }>,
>(schema: T) {
  return schema.refine((v) => v.password === v.passwordConfirm, {
    error: 'PASSWORDS_NOT_EQUAL',
    path: ['passwordConfirm'],
  });
}

/** Field errors of a failed parse as `{ field, code }`, first per field. */
export function fieldErrors(error: z.ZodError): { field: string; code: string }[] {
  const seen = new Set<string>();
  const out: { field: string; code: string }[] = [];
  for (const issue of error.issues) {
    const field = issue.path.join('.') || '_';
    if (seen.has(field)) continue;
    seen.add(field);
    out.push({ field, code: issue.message });
  }
  return out;
}
