// Facebook's codes (kit/codes.ts): a connection or a page id the account does not have (404); the
// access Graph revoked (the token or a permission refused), which asks to connect again; the
// Conversions API's refusals (capi.ts); Graph's
// refusals stored in its own words read as that code (stored-reasons.ts). Words: words/codes/{uk,en}.json
// (a screen's), words/mail/{uk,en}.json (the broken-integration mail's).
import { defineCodes } from '../kit/codes';
import { storedReasons } from './stored-reasons';
import en from './words/codes/en.json';
import uk from './words/codes/uk.json';
import mailEn from './words/mail/en.json';
import mailUk from './words/mail/uk.json';

export const codes = defineCodes({
  errors: {
    FB_CONNECTION_NOT_FOUND: 404,
    FB_PAGE_NOT_FOUND: 404,
    // The Conversions API's set-up (issue 33): the datasets list or the dataset chosen refused.
    FACEBOOK_TOKEN: 400,
    FACEBOOK_CAPI_PERMISSION: 403,
    FACEBOOK_DATASET_NOT_FOUND: 400,
  },
  // The Conversions API's (capi.ts): a lost ads_management, a dataset gone, an event Meta refused or
  // one too old for it to take.
  reasons: [
    'FACEBOOK_TOKEN',
    'FACEBOOK_CAPI_PERMISSION',
    'FACEBOOK_DATASET_NOT_FOUND',
    'FACEBOOK_CAPI_REJECTED',
    'FACEBOOK_CAPI_TOO_OLD',
  ],
  // A lost permission is given back by connecting again (Facebook Login asks for it).
  reconnect: ['FACEBOOK_TOKEN', 'FACEBOOK_CAPI_PERMISSION'],
  stored: storedReasons,
  words: { uk: { ...uk, mail: mailUk }, en: { ...en, mail: mailEn } },
});

declare module '@leadrelay/shared' {
  interface ConnectorErrorCodes extends Record<keyof typeof codes.errors, number> {}
}
