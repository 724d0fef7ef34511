// Uspacy's codes (kit/codes.ts): a portal address or incoming webhook URL that is not one, a sign-in
// or webhook the portal refused, a funnel or stage the portal no longer has, a portal that cannot be
// reached; why a delivery or the session failed. Words: words/codes/{uk,en}.json
// (a screen's), words/mail/{uk,en}.json (the broken-integration mail's).
import { defineCodes } from '../kit/codes';
import en from './words/codes/en.json';
import uk from './words/codes/uk.json';
import mailEn from './words/mail/en.json';
import mailUk from './words/mail/uk.json';

export const codes = defineCodes({
  errors: {
    USPACY_PORTAL_INVALID: 400,
    USPACY_WEBHOOK_URL_INVALID: 400,
    USPACY_SIGN_IN_FAILED: 400,
    USPACY_WEBHOOK_REFUSED: 400,
    USPACY_FUNNEL_NOT_FOUND: 400,
    USPACY_STAGE_NOT_FOUND: 400,
    USPACY_UNAVAILABLE: 424,
  },
  reasons: ['USPACY_REFRESH_FAILED', 'USPACY_SIGN_IN_FAILED', 'USPACY_VALIDATION', 'USPACY_REFUSED'],
  reconnect: ['USPACY_REFRESH_FAILED', 'USPACY_SIGN_IN_FAILED'],
  words: { uk: { ...uk, mail: mailUk }, en: { ...en, mail: mailEn } },
});

declare module '@leadrelay/shared' {
  interface ConnectorErrorCodes extends Record<keyof typeof codes.errors, number> {}
}
