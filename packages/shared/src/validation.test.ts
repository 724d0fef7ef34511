import { describe, expect, it } from 'vitest';
import { ZConfirmPasswordBody, ZCreateAccountBody, ZLoginBody, ZUpdatePasswordBody } from './api';
import { ZPlanBody } from './plans';
import { ZClientPatchBody } from './super-admin';
import {
  calendarDate,
  DATE_MAX_YEAR,
  email,
  fieldErrors,
  integer,
  isCalendarDate,
  isValidPassword,
  isWholeCents,
  MONEY_MAX,
  maxText,
  money,
  numeric,
  PASSWORD_RULE_KEY,
  password,
  requiredText,
  zMinText,
} from './validation';

const keyOf = (r: { success: boolean; error?: { issues: { message: string }[] } }) =>
  r.success ? null : r.error?.issues[0]?.message;

describe('required', () => {
  it('rejects missing, null, blank and non-string values with their keys', () => {
    expect(keyOf(requiredText().safeParse(undefined))).toBe('REQUIRED');
    expect(keyOf(requiredText().safeParse(null))).toBe('REQUIRED');
    expect(keyOf(requiredText().safeParse('   '))).toBe('REQUIRED');
    expect(keyOf(requiredText().safeParse(42))).toBe('INVALID_TYPE');
    expect(requiredText().safeParse(' x ').success).toBe(true);
  });
});

describe('min', () => {
  it('counts the trimmed length and names the bound in the key', () => {
    expect(keyOf(zMinText(3).safeParse(' ab  '))).toBe('MIN_LENGTH_3');
    expect(keyOf(zMinText(8).safeParse('1234567'))).toBe('MIN_LENGTH_8');
    expect(zMinText(3).safeParse(' abc ').success).toBe(true);
  });

  it('is the first key of a chain: a short value is MIN_LENGTH_n, not a later rule of the chain', () => {
    const key = zMinText(8).trim().max(20, { error: 'MAX_LENGTH_20' }).regex(/^\S+$/, { error: 'VALIDATION_ERROR' });
    expect(keyOf(key.safeParse(' a b '))).toBe('MIN_LENGTH_8');
    expect(key.safeParse(' abcdefgh ').data).toBe('abcdefgh');
    expect(keyOf(key.safeParse(undefined))).toBe('REQUIRED');
  });
});

describe('max', () => {
  it('rejects text longer than n with MAX_LENGTH_n', () => {
    expect(keyOf(maxText(5).safeParse('123456'))).toBe('MAX_LENGTH_5');
    expect(maxText(5).safeParse('12345').success).toBe(true);
  });
});

describe('email', () => {
  it('trims and lower-cases a valid address', () => {
    expect(email().parse('  Olena@Example.COM ')).toBe('olena@example.com');
  });
  it('rejects malformed, empty and non-string values', () => {
    expect(keyOf(email().safeParse('not-an-email'))).toBe('EMAIL');
    expect(keyOf(email().safeParse('a@b'))).toBe('EMAIL');
    expect(keyOf(email().safeParse(''))).toBe('REQUIRED');
    expect(keyOf(email().safeParse(undefined))).toBe('REQUIRED');
    expect(keyOf(email().safeParse(['a@b.co']))).toBe('INVALID_TYPE');
  });
});

describe('integer and numeric', () => {
  it('accept numbers and numeric strings from forms', () => {
    expect(integer().parse('12')).toBe(12);
    expect(numeric().parse('1.5')).toBe(1.5);
    expect(numeric().parse(3)).toBe(3);
  });
  it('reject non-numbers and fractions with their keys', () => {
    expect(keyOf(integer().safeParse('1.5'))).toBe('INTEGER');
    expect(keyOf(integer().safeParse('abc'))).toBe('NUMERIC');
    expect(keyOf(numeric().safeParse('abc'))).toBe('NUMERIC');
    expect(keyOf(numeric().safeParse(undefined))).toBe('REQUIRED');
  });
});

describe('password rule', () => {
  it.each(['Abcdefg1', 'ZZZZzzz9', 'a1B2c3D4e5'])('accepts %s', (value) => {
    expect(password().safeParse(value).success).toBe(true);
    expect(isValidPassword(value)).toBe(true);
  });
  it.each([
    ['too short', 'Abcde12'],
    ['no uppercase', 'abcdefg1'],
    ['no lowercase', 'ABCDEFG1'],
    ['no digit', 'Abcdefgh'],
    ['a symbol', 'Abcdef1!'],
    ['a space', 'Abcd ef12'],
  ])('rejects a password with %s', (_, value) => {
    expect(keyOf(password().safeParse(value))).toBe(PASSWORD_RULE_KEY);
    expect(isValidPassword(value)).toBe(false);
  });
  it('uses the spec key', () => {
    expect(PASSWORD_RULE_KEY).toBe('MINIMUM_8_ONE_UPPERCASE_LETTER_ONE_LOWERCASE_ONE_NUMBER');
  });
});

describe('password_equal', () => {
  it('puts PASSWORDS_NOT_EQUAL on passwordConfirm', () => {
    const r = ZCreateAccountBody.safeParse({ login: 'a@b.co', password: 'Abcdefg1', passwordConfirm: 'Abcdefg2' });
    expect(r.success).toBe(false);
    expect(fieldErrors(r.error!)).toEqual([{ field: 'passwordConfirm', code: 'PASSWORDS_NOT_EQUAL' }]);
  });
  it('applies to the reset and change forms too', () => {
    const reset = ZConfirmPasswordBody.safeParse({ token: 't', password: 'Abcdefg1', passwordConfirm: 'x' });
    expect(fieldErrors(reset.error!)[0]).toEqual({ field: 'passwordConfirm', code: 'PASSWORDS_NOT_EQUAL' });
    const change = ZUpdatePasswordBody.safeParse({ oldPassword: 'o', password: 'Abcdefg1', passwordConfirm: 'x' });
    expect(fieldErrors(change.error!)[0]).toEqual({ field: 'passwordConfirm', code: 'PASSWORDS_NOT_EQUAL' });
  });
});

describe('fieldErrors', () => {
  it('lists one key per field for a sign-up with everything missing', () => {
    const r = ZCreateAccountBody.safeParse({});
    expect(fieldErrors(r.error!)).toEqual([
      { field: 'login', code: 'REQUIRED' },
      { field: 'password', code: 'REQUIRED' },
      { field: 'passwordConfirm', code: 'REQUIRED' },
    ]);
  });
  it('reports wrong types as INVALID_TYPE', () => {
    const r = ZLoginBody.safeParse({ login: 1, password: true });
    expect(fieldErrors(r.error!)).toEqual([
      { field: 'login', code: 'INVALID_TYPE' },
      { field: 'password', code: 'INVALID_TYPE' },
    ]);
  });
});

describe('calendarDate', () => {
  it('takes real days only, in the years the API takes', () => {
    for (const day of ['2026-02-28', '2024-02-29', '2000-02-29', '1970-01-01', '2026-12-31', `${DATE_MAX_YEAR}-12-31`])
      expect(isCalendarDate(day), day).toBe(true);
    for (const day of [
      '2026-02-30',
      '2026-02-29',
      '1900-02-29',
      '2026-13-45',
      '2026-00-10',
      '2026-04-31',
      '2026-01-00',
      '0000-01-01',
      '1969-12-31',
      `${DATE_MAX_YEAR + 1}-01-01`,
      '9999-12-31',
      '+275760-09-13',
      '20260-01-01',
      '2026-1-1',
      '2026-01-01T00:00:00Z',
      ' 2026-01-01',
      'NaN',
      'Infinity',
      '',
    ])
      expect(isCalendarDate(day), day).toBe(false);
  });

  it("answers with the field's key, INVALID_TYPE for what is not text", () => {
    expect(keyOf(calendarDate().safeParse('2026-02-30'))).toBe('INVALID_DATE');
    expect(keyOf(calendarDate('VALIDATION_ERROR').safeParse('0000-01-01'))).toBe('VALIDATION_ERROR');
    expect(keyOf(calendarDate().safeParse(20260101))).toBe('INVALID_TYPE');
    expect(calendarDate().parse('2026-03-01')).toBe('2026-03-01');
  });
});

describe('money', () => {
  it('takes dollars in whole cents from 0 to the bound', () => {
    for (const v of [0, 0.01, 0.1 + 0.2, 19.99, 1234.5, MONEY_MAX])
      expect(money().safeParse(v).success, String(v)).toBe(true);
    for (const v of [-0.01, -1, 0.001, 0.005, 19.999, MONEY_MAX + 0.01, 1e308, Number.MAX_VALUE])
      expect(keyOf(money().safeParse(v)), String(v)).toBe('VALIDATION_ERROR');
    for (const v of ['10', 'NaN', '1e3', null, true, Number.NaN, Number.POSITIVE_INFINITY])
      expect(money().safeParse(v).success, String(v)).toBe(false);
    expect(keyOf(money().safeParse(undefined))).toBe('REQUIRED');
    expect(isWholeCents(Number.NaN)).toBe(false);
  });

  it('guards every money field: the balance and plan prices', () => {
    expect(ZClientPatchBody.safeParse({ credit: -5 }).success).toBe(false);
    expect(ZClientPatchBody.safeParse({ credit: 10.005 }).success).toBe(false);
    expect(ZClientPatchBody.safeParse({ credit: 10.05 }).success).toBe(true);
    expect(ZClientPatchBody.safeParse({ expDate: '2026-02-30' }).success).toBe(false);
    const plan = {
      title: { uk: 'П', en: 'P' },
      limits: { leadsPerMonth: 1, integrations: 1, destinationsPerSource: 1 },
    };
    expect(ZPlanBody.safeParse({ ...plan, monthlyAmount: 10, annualAmount: 100 }).success).toBe(true);
    expect(ZPlanBody.safeParse({ ...plan, monthlyAmount: 10, annualAmount: 1e308 }).success).toBe(false);
    expect(ZPlanBody.safeParse({ ...plan, monthlyAmount: 0.001, annualAmount: 100 }).success).toBe(false);
  });
});
