// TikTok's codes (kit/codes.ts): a connection or an ad account id the account does not have (404);
// the access TikTok revoked (the token refused, or no permission on the ad account), which asks to
// connect again; TikTok's refusals stored in its own words read as that code (stored-reasons.ts).
// Words: words/codes/{uk,en}.json (a screen's), words/mail/{uk,en}.json (the broken-integration mail's).
import { defineCodes } from '../kit/codes';
import { storedReasons } from './stored-reasons';
import en from './words/codes/en.json';
import uk from './words/codes/uk.json';
import mailEn from './words/mail/en.json';
import mailUk from './words/mail/uk.json';

export const codes = defineCodes({
  errors: {
    TIKTOK_CONNECTION_NOT_FOUND: 404,
    TIKTOK_ADVERTISER_NOT_FOUND: 404,
  },
  reasons: ['TIKTOK_TOKEN'],
  reconnect: ['TIKTOK_TOKEN'],
  stored: storedReasons,
  words: { uk: { ...uk, mail: mailUk }, en: { ...en, mail: mailEn } },
});

declare module '@leadrelay/shared' {
  interface ConnectorErrorCodes extends Record<keyof typeof codes.errors, number> {}
}
