// Error keys the server sends as `code`; the web translates them as `errors.<CODE>`. A connector's
// own keys (<SLUG>_… : a portal address refused) are its folder's (packages/connectors/src/<slug>/codes.ts, their
// words `connectors:<slug>.errors.<CODE>`): the server unions them with these (lib/error-codes.ts).
import { ownValue } from './own';

export const ERROR_STATUS = {
  VALIDATION_ERROR: 400,
  INVALID_JSON: 400,
  BODY_TOO_DEEP: 400,
  INVALID_CHARACTERS: 400,
  INVALID_MULTIPART: 400,
  REQUIRED: 400,
  INVALID_TYPE: 400,
  EMAIL: 400,
  INTEGER: 400,
  NUMERIC: 400,
  MINIMUM_8_ONE_UPPERCASE_LETTER_ONE_LOWERCASE_ONE_NUMBER: 400,
  PASSWORDS_NOT_EQUAL: 400,
  TOKEN_INVALID: 400,
  WRONG_PASSWORD: 400,
  INTEGRATION_TYPE_UNKNOWN: 400,
  DESTINATION_NOT_ALLOWED: 400,
  DISTRIBUTION_NOT_FOUND: 400,
  OPTIONS_TOO_LARGE: 400,
  CONNECTION_FAILED: 400,
  INTEGRATION_NOT_CONNECTED: 400,
  INTEGRATION_AUTH_UNREADABLE: 400,
  OPERATION_NOT_SUPPORTED: 400,
  OAUTH_NOT_CONFIGURED: 400,
  OAUTH_STATE_INVALID: 400,
  OAUTH_EXCHANGE_FAILED: 400,
  CRM_HOST_NOT_ALLOWED: 400,
  CRM_REQUEST_FAILED: 400,
  COLLECTION_ITEMS_LIMIT: 400,
  // Working hours and routing (issue 19): a time not HH:MM, a shift that starts and ends at once, an
  // unknown time zone, a day off that is no date, a fallback person missing or not in the collection.
  INVALID_TIME: 400,
  EMPTY_SHIFT: 400,
  INVALID_TIME_ZONE: 400,
  INVALID_DATE: 400,
  FALLBACK_ITEM_REQUIRED: 400,
  FALLBACK_ITEM_NOT_FOUND: 400,
  FACEBOOK_EMAIL_REQUIRED: 400,
  INVALID_CREDENTIALS: 401,
  UNAUTHORIZED: 401,
  REFRESH_INVALID: 401,
  EMAIL_NOT_CONFIRMED: 403,
  ACCOUNT_NOT_ACTIVE: 403,
  FORBIDDEN: 403,
  NOT_FOUND: 404,
  USER_NOT_FOUND: 404,
  SESSION_NOT_FOUND: 404,
  INTEGRATION_NOT_FOUND: 404,
  // Conversion events (issue 33): a source whose connector sends none; switched on with no dataset chosen.
  CONVERSIONS_NOT_AVAILABLE: 400,
  CONVERSIONS_DATASET_REQUIRED: 400,
  HOOK_NOT_FOUND: 404,
  ERROR_RECORD_NOT_FOUND: 404,
  COLLECTION_NOT_FOUND: 404,
  ITEM_NOT_FOUND: 404,
  CATEGORY_NOT_FOUND: 404,
  MODULE_NOT_FOUND: 404,
  SETTING_NOT_FOUND: 404,
  BACKUP_NOT_FOUND: 404,
  WIDGET_NOT_FOUND: 404,
  PLAN_NOT_FOUND: 404,
  ORDER_NOT_FOUND: 404,
  INVOICE_NOT_FOUND: 404,
  PAYMENT_METHOD_NOT_FOUND: 404,
  POST_NOT_FOUND: 404,
  COMMENT_NOT_FOUND: 404,
  LOGIN_TAKEN: 409,
  COLLECTION_IN_USE: 409,
  HOOK_HAS_NO_LEAD: 409,
  SLUG_TAKEN: 409,
  PLAN_IN_USE: 409,
  PARSER_MAIL_NOT_FAILED: 409,
  // The plan's limit is reached: the web offers a bigger plan.
  PLAN_LIMIT_INTEGRATIONS: 403,
  PLAN_LIMIT_DESTINATIONS: 403,
  // Paying: no provider keys set (PAYMENT_* settings); a callback whose signature does not match;
  // a plan that is switched off cannot be bought.
  PAYMENT_NOT_CONFIGURED: 409,
  SIGNATURE_INVALID: 400,
  PLAN_NOT_AVAILABLE: 409,
  PAYMENT_PROVIDER_ERROR: 424,
  // News: a post's image is missing, not an image by its bytes, or too large.
  IMAGE_REQUIRED: 400,
  IMAGE_INVALID: 400,
  IMAGE_TOO_LARGE: 413,
  // Super-admin (docs/operator.md): an owner's or a staff account a caller may not touch, a hard
  // delete whose typed login does not match, languages and translations.
  USER_PROTECTED: 403,
  // An /enter link opened anywhere but in the browser of the staff member who asked for it.
  ENTER_OTHER_BROWSER: 403,
  CONFIRMATION_MISMATCH: 400,
  LOCALE_EXISTS: 409,
  LOCALE_NOT_FOUND: 404,
  TRANSLATION_NOT_FOUND: 404,
  TRANSLATION_KEY_UNKNOWN: 400,
  // E-mail parsers: a rule's field name or regular expression that cannot work, an IMAP host that is
  // not one; a mailbox that refused our sign-in or cannot be reached (a failed dependency).
  PARSER_FIELD_INVALID: 400,
  PARSER_REGEX_INVALID: 400,
  PARSER_IMAP_HOST_INVALID: 400,
  PARSER_SAMPLE_MISSING: 400,
  PARSER_NOT_FOUND: 404,
  PARSER_MAIL_NOT_FOUND: 404,
  PARSER_IMAP_FAILED: 424,
  // API keys (issue 34): a read key asked to write; a key on a route that is for people only
  // (sign-in, password, deleting the account, the keys themselves, payments, staff); a key made in a
  // session a staff member entered; too many live keys; a name another live key has; not this account's.
  API_KEY_SCOPE: 403,
  API_KEY_NOT_ALLOWED: 403,
  API_KEY_ENTERED_SESSION: 403,
  API_KEYS_LIMIT: 409,
  API_KEY_NAME_TAKEN: 409,
  API_KEY_NOT_FOUND: 404,
  METHOD_NOT_ALLOWED: 405,
  PAYLOAD_TOO_LARGE: 413,
  UNSUPPORTED_MEDIA_TYPE: 415,
  TOO_MANY_REQUESTS: 429,
  INTERNAL_ERROR: 500,
} as const;

export type FixedErrorCode = keyof typeof ERROR_STATUS;

/**
 * The connectors' own error keys, told by each connector folder's codes.ts augmenting this interface
 * (`interface ConnectorErrorCodes extends Record<keyof typeof codes.errors, number> {}`), so the
 * server's AppError and a connector's refusals name them typed; their statuses are the folder's.
 */
// biome-ignore lint/suspicious/noEmptyInterface: filled by declaration merging in the connectors' folders
export interface ConnectorErrorCodes {}

/** MIN_LENGTH_{n} and MAX_LENGTH_{n} carry their bound in the key (spec section 5). */
export type ErrorCode =
  | FixedErrorCode
  | Extract<keyof ConnectorErrorCodes, string>
  | `MIN_LENGTH_${number}`
  | `MAX_LENGTH_${number}`;

/** The status of a shared key (a connector's own keys: the server's statusOf, lib/error-codes.ts); else 500. */
export function statusOf(code: string): number {
  if (/^(MIN|MAX)_LENGTH_\d+$/.test(code)) return 400;
  // Only the table's own keys: a message such as `constructor` is not a code.
  const status = ownValue(ERROR_STATUS, code);
  return typeof status === 'number' ? status : 500;
}

/** Body of every error answer. `errors` lists field problems for validation failures. */
export interface ApiError {
  statusCode: number;
  code: ErrorCode;
  message: string;
  errors?: { field: string; code: ErrorCode }[];
}
