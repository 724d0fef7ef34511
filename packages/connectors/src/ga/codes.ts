// GA4's codes (kit/codes.ts): the validation server refusing or garbling the test event. No API error
// key of its own: the event's field codes (GA_NAME_INVALID …) are words only, checked on the screen.
// Words: words/codes/{uk,en}.json
// (a screen's), words/mail/{uk,en}.json (the broken-integration mail's).
import { defineCodes } from '../kit/codes';
import en from './words/codes/en.json';
import uk from './words/codes/uk.json';
import mailEn from './words/mail/en.json';
import mailUk from './words/mail/uk.json';

export const codes = defineCodes({
  errors: {},
  reasons: ['GA_VALIDATION_FAILED', 'GA_DEBUG_UNEXPECTED'],
  reconnect: [],
  words: { uk: { ...uk, mail: mailUk }, en: { ...en, mail: mailEn } },
});
