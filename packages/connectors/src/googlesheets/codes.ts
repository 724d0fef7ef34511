// Google Sheets' codes (kit/codes.ts): a spreadsheet address that is not one, a header typed twice;
// why a delivery or a check failed (Google refused the refresh token, the spreadsheet or sheet is
// gone, no access, quota). Words: words/codes/{uk,en}.json (a screen's), words/mail/{uk,en}.json
// (the broken-integration mail's).
import { defineCodes } from '../kit/codes';
import en from './words/codes/en.json';
import uk from './words/codes/uk.json';
import mailEn from './words/mail/en.json';
import mailUk from './words/mail/uk.json';

export const codes = defineCodes({
  errors: { SHEETS_SPREADSHEET_INVALID: 400, SHEETS_COLUMN_DUPLICATE: 400 },
  reasons: [
    'SHEETS_REFRESH_FAILED',
    'SHEETS_CONSENT_FAILED',
    'SHEETS_NOT_CONFIGURED',
    'SHEETS_NO_ACCESS',
    'SHEETS_SPREADSHEET_NOT_FOUND',
    'SHEETS_SHEET_NOT_FOUND',
    'SHEETS_RATE_LIMITED',
    'SHEETS_UNAVAILABLE',
    'SHEETS_REFUSED',
  ],
  reconnect: ['SHEETS_REFRESH_FAILED', 'SHEETS_CONSENT_FAILED'],
  words: { uk: { ...uk, mail: mailUk }, en: { ...en, mail: mailEn } },
});

declare module '@leadrelay/shared' {
  interface ConnectorErrorCodes extends Record<keyof typeof codes.errors, number> {}
}
