import { ERROR_STATUS } from '@leadrelay/shared';
import { describe, expect, it } from 'vitest';
import { errorMessage, translateCode } from './errors';
import { HttpError } from './http';
import { applyLocale, i18n } from './i18n';

describe('error translations', () => {
  it.each(['uk', 'en'] as const)('every shared error key has a %s translation', (lng) => {
    for (const code of Object.keys(ERROR_STATUS)) {
      expect(i18n.exists(`errors:${code}`, { lng }), `${lng} ${code}`).toBe(true);
    }
  });

  // Each connector's own keys (its folder's codes.ts) read in its words (words/codes), found by the code alone.
  type Words = { errors?: Record<string, string> };
  const CODES = import.meta.glob<{ errors: Record<string, number>; words: Record<'uk' | 'en', Words> }>(
    ['../../../../packages/connectors/src/*/codes.ts', '!**/kit/codes.ts'],
    {
      eager: true,
      import: 'codes',
    },
  );
  it.each(['uk', 'en'] as const)('every connector’s own error key reads in %s in its own words', (lng) => {
    const codes = Object.values(CODES);
    expect(codes.length).toBeGreaterThan(3);
    applyLocale(lng);
    for (const { errors, words } of codes) {
      for (const code of Object.keys(errors))
        expect(translateCode(code), `${lng} ${code}`).toBe(words[lng].errors?.[code]);
    }
    applyLocale('uk');
    expect(translateCode('USPACY_PORTAL_INVALID')).toBe(
      'Це не адреса порталу Uspacy. Вкажіть її так: your-company.uspacy.ua',
    );
    // A code is data: a member's name finds no words.
    expect(translateCode('__proto__')).toBe('Щось пішло не так');
  });

  it('translates MIN_LENGTH_n and MAX_LENGTH_n with the bound', () => {
    applyLocale('en');
    expect(translateCode('MIN_LENGTH_3')).toBe('At least 3 characters');
    expect(translateCode('MAX_LENGTH_254')).toBe('At most 254 characters');
    applyLocale('uk');
    expect(translateCode('MIN_LENGTH_3')).toBe('Мінімальна довжина: 3');
  });

  it('never shows the server’s own message: an unknown code reads as the server failing or "Something went wrong"', () => {
    applyLocale('uk');
    const failed = errorMessage(new HttpError(500, { code: 'BRAND_NEW' as never, message: 'Disk full' }));
    expect(failed).toBe(i18n.t('errors:INTERNAL_ERROR'));
    expect(errorMessage(new HttpError(400, { code: 'BRAND_NEW' as never, message: 'Bad thing' }))).toBe(
      'Щось пішло не так',
    );
    expect(errorMessage(new Error('socket hang up'))).toBe('Щось пішло не так');
    applyLocale('en');
    expect(errorMessage(new HttpError(500, { code: 'BRAND_NEW' as never, message: '' }))).toBe(
      'Server error. Try again later',
    );
    expect(translateCode(undefined)).toBe('Something went wrong');
    expect(errorMessage(new HttpError(429, { code: 'TOO_MANY_REQUESTS' }, 30))).toBe(
      'Too many attempts. Try again in 30 s',
    );
    applyLocale('uk');
  });
});
