// Prom.ua's codes (kit/codes.ts): a token that is not one, Prom refusing the token (wrong, revoked or
// without the orders permission: the source is broken until a new one is connected), an address that
// does not answer as Prom's API, a refused request, and Prom not answering (429, 5xx, the network).
// Words: words/codes/{uk,en}.json (a screen's), words/mail/{uk,en}.json (the broken-integration mail's).
import { defineCodes } from '../kit/codes';
import en from './words/codes/en.json';
import uk from './words/codes/uk.json';
import mailEn from './words/mail/en.json';
import mailUk from './words/mail/uk.json';

export const codes = defineCodes({
  errors: {
    PROMUA_TOKEN_INVALID: 400,
    PROMUA_AUTH_FAILED: 400,
    PROMUA_NOT_PROM: 424,
    PROMUA_REFUSED: 424,
    PROMUA_UNAVAILABLE: 424,
  },
  reasons: ['PROMUA_AUTH_FAILED'],
  reconnect: ['PROMUA_AUTH_FAILED'],
  words: { uk: { ...uk, mail: mailUk }, en: { ...en, mail: mailEn } },
});

declare module '@leadrelay/shared' {
  interface ConnectorErrorCodes extends Record<keyof typeof codes.errors, number> {}
}
