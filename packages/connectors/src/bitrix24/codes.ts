// Bitrix24's codes (kit/codes.ts): an address that is not an inbound webhook or names a host we do
// not send to, a webhook the portal refused or without the CRM scope, a plan without REST, a portal
// that is gone, a pipeline or stage the portal no longer has, a portal that cannot be reached; why
// a delivery failed. Words: words/codes/{uk,en}.json (a screen's), words/mail/{uk,en}.json (the mail's).
import { defineCodes } from '../kit/codes';
import en from './words/codes/en.json';
import uk from './words/codes/uk.json';
import mailEn from './words/mail/en.json';
import mailUk from './words/mail/uk.json';

export const codes = defineCodes({
  errors: {
    BITRIX24_WEBHOOK_URL_INVALID: 400,
    BITRIX24_HOST_NOT_ALLOWED: 400,
    BITRIX24_WEBHOOK_REFUSED: 400,
    BITRIX24_NO_CRM_SCOPE: 400,
    BITRIX24_NO_USER_SCOPE: 400,
    BITRIX24_PLAN_REQUIRED: 400,
    BITRIX24_PORTAL_GONE: 400,
    BITRIX24_PIPELINE_NOT_FOUND: 400,
    BITRIX24_STAGE_NOT_FOUND: 400,
    BITRIX24_UNAVAILABLE: 424,
    /** The token pasted for the outgoing webhook (speed to lead) is not one Bitrix24 makes. */
    BITRIX24_OUTGOING_TOKEN_INVALID: 400,
    /** An event whose auth[application_token] is not the pasted one. */
    BITRIX24_EVENT_TOKEN_REFUSED: 403,
  },
  reasons: [
    'BITRIX24_WEBHOOK_REFUSED',
    'BITRIX24_NO_CRM_SCOPE',
    'BITRIX24_NO_USER_SCOPE',
    'BITRIX24_ACCESS_DENIED',
    'BITRIX24_PLAN_REQUIRED',
    'BITRIX24_PORTAL_GONE',
    'BITRIX24_OVERLOADED',
    'BITRIX24_REFUSED',
    'BITRIX24_PIPELINE_NOT_FOUND',
    'BITRIX24_STAGE_NOT_FOUND',
  ],
  reconnect: ['BITRIX24_WEBHOOK_REFUSED', 'BITRIX24_NO_CRM_SCOPE', 'BITRIX24_ACCESS_DENIED'],
  words: { uk: { ...uk, mail: mailUk }, en: { ...en, mail: mailEn } },
});

declare module '@leadrelay/shared' {
  interface ConnectorErrorCodes extends Record<keyof typeof codes.errors, number> {}
}
