// Every connector's own codes (kit/codes.ts) are whole: each API error key answers a client error and
// reads in both languages, each reason reads on a screen (and in a mail where it has a sentence) in
// both, and no code is claimed twice (a shared one or another connector's).
import { ERROR_STATUS, parseReason, REASON_CODES } from '@leadrelay/shared';
import { describe, expect, it } from 'vitest';
import { connectorCodes, connectors } from './index';

const all = [...connectorCodes];
const LANGUAGES = ['uk', 'en'] as const;

describe("the connectors' own codes", () => {
  it('are declared by the connectors that answer or store them', () => {
    expect(Object.keys(connectorCodes.get('uspacy')!.errors)).toContain('USPACY_PORTAL_INVALID');
    expect(connectorCodes.get('horoshop')!.errors.HOROSHOP_UNAVAILABLE).toBe(424);
    expect(connectorCodes.get('telegram')!.errors.TELEGRAM_UNAVAILABLE).toBe(424);
    expect(connectorCodes.get('alfasms')!.reasons).toContain('SMS_QUIET_HOURS');
    expect(connectorCodes.get('ga')!.reasons).toContain('GA_VALIDATION_FAILED');
    expect(connectorCodes.get('facebook')!.errors.FB_PAGE_NOT_FOUND).toBe(404);
    // Each definition carries its own (Telegram's join the list from its folder).
    for (const slug of ['uspacy', 'horoshop', 'alfasms', 'ga', 'facebook'])
      expect(connectors.get(slug)!.codes).toBeDefined();
  });

  it('ask to connect again where the service refused our credentials', () => {
    expect(connectorCodes.get('uspacy')!.reconnect).toEqual(['USPACY_REFRESH_FAILED', 'USPACY_SIGN_IN_FAILED']);
    expect(connectorCodes.get('alfasms')!.reconnect).toEqual(['ALPHASMS_ACCESS_DENIED']);
    expect(connectorCodes.get('horoshop')!.reconnect).toEqual(['HOROSHOP_AUTH_FAILED']);
    expect(connectorCodes.get('facebook')!.reconnect).toEqual(['FACEBOOK_TOKEN', 'FACEBOOK_CAPI_PERMISSION']);
    for (const [slug, codes] of all) {
      for (const code of codes.reconnect) expect(codes.reasons, `${slug} ${code}`).toContain(code);
    }
  });

  it.each(all)(
    '%s: every error key is a client error (or a failed dependency) with words in both languages',
    (slug, codes) => {
      for (const [code, status] of Object.entries(codes.errors)) {
        expect(status, `${slug} ${code}`).toBeGreaterThanOrEqual(400);
        expect(status, `${slug} ${code}`).toBeLessThan(500);
        for (const lng of LANGUAGES) expect(codes.words[lng].errors?.[code], `${slug} ${lng} ${code}`).toBeTruthy();
      }
    },
  );

  it.each(all)(
    '%s: every reason reads on a screen in both languages, and in a mail in both or neither',
    (slug, codes) => {
      for (const code of codes.reasons) {
        for (const lng of LANGUAGES) {
          const words = codes.words[lng];
          expect(words.reasons?.[code] ?? words.errors?.[code], `${slug} ${lng} ${code}`).toBeTruthy();
        }
        expect(Boolean(codes.words.uk.mail?.[code]), `${slug} mail ${code}`).toBe(Boolean(codes.words.en.mail?.[code]));
      }
      // No words for a reason it does not declare (a stray sentence no screen would read).
      for (const lng of LANGUAGES) {
        for (const code of Object.keys(codes.words[lng].reasons ?? {}))
          expect(codes.reasons, `${slug} ${code}`).toContain(code);
        for (const code of Object.keys(codes.words[lng].mail ?? {}))
          expect(codes.reasons, `${slug} ${code}`).toContain(code);
      }
    },
  );

  it("read Graph's refusal of the token or a permission, stored in its own words, as Facebook's code", () => {
    const forms = connectorCodes.get('facebook')!.stored;
    const stored = 'Error validating access token: Session has expired (code 190/463)';
    expect(parseReason(stored, forms)).toEqual({ code: 'FACEBOOK_TOKEN', params: { detail: stored } });
    expect(parseReason('(#200) Requires pages_manage_metadata permission (code 200)', forms).code).toBe(
      'FACEBOOK_TOKEN',
    );
    // Another Graph failure (an object that is gone) is no refusal of the access.
    expect(parseReason('Unsupported get request (code 100/33)', forms).code).toBe('UNKNOWN');
  });

  it.each(all.filter(([, codes]) => codes.stored))(
    '%s: each stored form reads as a reason it declares',
    (slug, codes) => {
      for (const form of codes.stored!) expect(codes.reasons, `${slug} ${form.code}`).toContain(form.code);
    },
  );

  it('claim no code twice: not a shared one, not another connector’s', () => {
    const errors = all.flatMap(([, codes]) => Object.keys(codes.errors));
    expect(new Set(errors).size).toBe(errors.length);
    for (const code of errors) expect(Object.hasOwn(ERROR_STATUS, code), code).toBe(false);
    const reasons = all.flatMap(([, codes]) => codes.reasons);
    expect(new Set(reasons).size).toBe(reasons.length);
    for (const code of reasons) expect((REASON_CODES as readonly string[]).includes(code), code).toBe(false);
  });
});
