// KeyCRM's codes (kit/codes.ts): a pipeline, status or source KeyCRM no longer has, a key it refused,
// its 422 with its own field messages, and its rate limit (a delivery waits for it, nothing is lost).
// Words: words/codes/{uk,en}.json (a screen's), words/mail/{uk,en}.json (the broken-integration mail's).
import { defineCodes } from '../kit/codes';
import en from './words/codes/en.json';
import uk from './words/codes/uk.json';
import mailEn from './words/mail/en.json';
import mailUk from './words/mail/uk.json';

export const codes = defineCodes({
  errors: {
    KEYCRM_PIPELINE_NOT_FOUND: 400,
    KEYCRM_STATUS_NOT_FOUND: 400,
  },
  // The pipeline's and status's codes are reasons too (a delivery's, a check's): their words are the errors'.
  reasons: [
    'KEYCRM_KEY_REJECTED',
    'KEYCRM_PIPELINE_NOT_FOUND',
    'KEYCRM_STATUS_NOT_FOUND',
    'KEYCRM_SOURCE_NOT_FOUND',
    'KEYCRM_VALIDATION',
    'KEYCRM_RATE_LIMITED',
  ],
  reconnect: ['KEYCRM_KEY_REJECTED'],
  words: { uk: { ...uk, mail: mailUk }, en: { ...en, mail: mailEn } },
});

declare module '@leadrelay/shared' {
  interface ConnectorErrorCodes extends Record<keyof typeof codes.errors, number> {}
}
