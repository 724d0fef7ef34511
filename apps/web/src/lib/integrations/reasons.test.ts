import { namesPattern } from '@leadrelay/connectors/names-pattern';
import { REASON_CODES } from '@leadrelay/shared';
import { describe, expect, it } from 'vitest';
import glossary from '../../locales/names.json';
import { applyLocale } from '../i18n';
import { reasonDetail, reasonLabel, reasonText } from './reasons';

// Product and service names stay as they are (docs/glossary.md: the web's names.json and every
// connector's); any other Latin word is English.
const connectorNames = Object.values(
  import.meta.glob<readonly string[]>('../../../../../packages/connectors/src/*/names.json', {
    eager: true,
    import: 'names',
  }),
).flat();
const NAMES = namesPattern([...glossary.names, ...(glossary.tokens ?? []), ...connectorNames]);

// Each connector's own reasons (its folder's codes.ts), told in its words (words/codes).
type Words = { reasons?: Record<string, string>; errors?: Record<string, string> };
const CONNECTOR_CODES = Object.values(
  import.meta.glob<{ reasons: readonly string[]; words: Record<'uk' | 'en', Words> }>(
    ['../../../../../packages/connectors/src/*/codes.ts', '!**/kit/codes.ts'],
    { eager: true, import: 'codes' },
  ),
);
const CONNECTOR_REASONS = CONNECTOR_CODES.flatMap((c) => c.reasons);

describe('a reason in the interface language', () => {
  it.each([...REASON_CODES, ...CONNECTOR_REASONS])(
    '%s reads in Ukrainian, never as the code or the service’s English',
    (code) => {
      applyLocale('uk');
      const params = {
        detail: 'Invalid OAuth access token',
        name: 'CRM',
        state: 'broken_other',
        field: 'phone',
        op: 'empty',
        negate: 0,
        id: '42',
      };
      const text = reasonLabel({ code, params });
      expect(text).not.toContain(code);
      expect(text).not.toContain('Invalid OAuth');
      expect(text.replace(NAMES, '').replace(/phone/, '')).not.toMatch(/[A-Za-z]{3,}/);
    },
  );

  it('reads a connector’s own reason in its words, or its error key’s where it is both', () => {
    expect(CONNECTOR_REASONS).toContain('USPACY_REFRESH_FAILED');
    for (const lng of ['uk', 'en'] as const) {
      applyLocale(lng);
      for (const { reasons, words } of CONNECTOR_CODES) {
        for (const code of reasons) {
          expect(reasonLabel({ code }), `${lng} ${code}`).toBe(words[lng].reasons?.[code] ?? words[lng].errors?.[code]);
        }
      }
    }
    applyLocale('uk');
    expect(reasonText('USPACY_REFRESH_FAILED')).toBe(
      CONNECTOR_CODES.find((c) => c.reasons.includes('USPACY_REFRESH_FAILED'))!.words.uk.reasons!.USPACY_REFRESH_FAILED,
    );
  });

  it('keeps Facebook’s own message out of the sentence, for the technical details only', () => {
    applyLocale('uk');
    const stored = 'Error validating access token: Session has expired (code 190/463)';
    expect(reasonText(stored)).toBe('Facebook відкликав доступ: підключіть акаунт знову');
    expect(reasonDetail({ code: 'FACEBOOK_TOKEN', params: { detail: stored } })).toBe(stored);
  });

  it('keeps data with no words beside the sentence (a phone number), and a code we do not know says "something went wrong"', () => {
    applyLocale('uk');
    expect(reasonText('SMS_PHONE_NOT_MOBILE: +380442345678')).toBe(
      'SMS не надіслано: номер не мобільний (+380442345678)',
    );
    expect(reasonText('BRAND_NEW_CODE')).toBe('Щось пішло не так');
    expect(reasonText('connect ECONNREFUSED 127.0.0.1:9')).toBe('Щось пішло не так');
    expect(reasonText('FILTERED: utm.source not equals "google"')).toBe(
      'Фільтр не пропустив лід: utm.source не дорівнює «google»',
    );
    // As rows stored before the codes say it.
    expect(reasonText('Filter failed: utm.source not equals "google"')).toBe(
      'Фільтр не пропустив лід: utm.source не дорівнює «google»',
    );
  });
});
