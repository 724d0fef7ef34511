// Horoshop's codes (kit/codes.ts): the address, the shop's answer to our sign-in, a shop that cannot
// be reached or refuses a call (a failed dependency), a webhook body without an order, a token given
// alone that has lapsed; a sign-in refused on a poll breaks the source until it connects again.
// Words: words/codes/{uk,en}.json
// (a screen's), words/mail/{uk,en}.json (the broken-integration mail's).
import { defineCodes } from '../kit/codes';
import en from './words/codes/en.json';
import uk from './words/codes/uk.json';
import mailEn from './words/mail/en.json';
import mailUk from './words/mail/uk.json';

export const codes = defineCodes({
  errors: {
    HOROSHOP_DOMAIN_INVALID: 400,
    HOROSHOP_AUTH_FAILED: 400,
    HOROSHOP_NOT_A_SHOP: 400,
    HOROSHOP_TOKEN_EXPIRED: 400,
    HOROSHOP_NO_ORDERS: 400,
    HOROSHOP_UNAVAILABLE: 424,
    HOROSHOP_REFUSED: 424,
  },
  reasons: ['HOROSHOP_AUTH_FAILED'],
  reconnect: ['HOROSHOP_AUTH_FAILED'],
  words: { uk: { ...uk, mail: mailUk }, en: { ...en, mail: mailEn } },
});

declare module '@leadrelay/shared' {
  interface ConnectorErrorCodes extends Record<keyof typeof codes.errors, number> {}
}
