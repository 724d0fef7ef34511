// AlphaSMS's codes (kit/codes.ts): why a message was not sent (ours: quiet hours, no or a wrong
// number, an empty text; AlphaSMS's: the key, the sender, the balance, the number). No API error key
// of its own: its settings' field codes (SMS_SENDER_INVALID …) are words only, checked on the screen.
// Words: words/codes/{uk,en}.json
// (a screen's), words/mail/{uk,en}.json (the broken-integration mail's).
import { defineCodes } from '../kit/codes';
import en from './words/codes/en.json';
import uk from './words/codes/uk.json';
import mailEn from './words/mail/en.json';
import mailUk from './words/mail/uk.json';

export const codes = defineCodes({
  errors: {},
  reasons: [
    'SMS_QUIET_HOURS',
    'SMS_NO_PHONE',
    'SMS_PHONE_INVALID',
    'SMS_PHONE_NOT_MOBILE',
    'SMS_PHONE_FOREIGN',
    'SMS_MANAGER_NO_PHONE',
    'SMS_MANAGER_PHONE_INVALID',
    'SMS_MANAGER_PHONE_NOT_MOBILE',
    'SMS_TEXT_EMPTY',
    'ALPHASMS_ACCESS_DENIED',
    'ALPHASMS_SENDER_INVALID',
    'ALPHASMS_VIBER_SENDER_INVALID',
    'ALPHASMS_LOW_BALANCE',
    'ALPHASMS_PHONE_REJECTED',
    'ALPHASMS_ERROR',
  ],
  reconnect: ['ALPHASMS_ACCESS_DENIED'],
  words: { uk: { ...uk, mail: mailUk }, en: { ...en, mail: mailEn } },
});
