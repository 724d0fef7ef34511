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
