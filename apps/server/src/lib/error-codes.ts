// The API's error keys and the reasons of integrations as one table: the generic ones of shared
// (ERROR_STATUS, REASON_CODES) and every connector's own (its folder's codes.ts, issue 29), so the
// error handler answers a connector's key with its status and a mail tells its reason in the
// reader's language. Shared cannot read the connectors; this is where they meet.
import { connectorCodes } from '@leadrelay/connectors';
import {
  type ErrorCode,
  isReasonCode,
  type Locale,
  ownValue,
  REASON_CODES,
  type StoredReasonForm,
  statusOf as sharedStatusOf,
} from '@leadrelay/shared';

/** Each connector's error key → its HTTP status (a Map: a code is data, `constructor` is none). */
const CONNECTOR_STATUS: ReadonlyMap<string, number> = new Map(
  [...connectorCodes.values()].flatMap((codes) => Object.entries(codes.errors)),
);

/** The HTTP status of an error key, shared or a connector's; 500 for anything else. */
export function statusOf(code: string): number {
  const shared = sharedStatusOf(code);
  return shared < 500 ? shared : (CONNECTOR_STATUS.get(code) ?? shared);
}

/** A key the API answers with (a client error): a validation message that is one of them stays the field's code. */
export const isKnownCode = (code: string): code is ErrorCode => statusOf(code) < 500;

/** Every connector's own reason codes, with the connector that declares each. */
const CONNECTOR_REASONS: ReadonlyMap<string, string> = new Map(
  [...connectorCodes].flatMap(([slug, codes]) => codes.reasons.map((code) => [code, slug] as const)),
);

/** Every connector's reasons stored in its service's own words (parseReason's forms). */
export const STORED_REASONS: readonly StoredReasonForm[] = [...connectorCodes.values()].flatMap(
  (codes) => codes.stored ?? [],
);

/** Every reason code a screen or a mail translates: the generic ones and each connector's. */
export const ALL_REASON_CODES: readonly string[] = [...REASON_CODES, ...CONNECTOR_REASONS.keys()];

/**
 * A connector's own sentence of a reason for a mail in `lang` (its words' `mail.<code>`), or
 * undefined for a generic code, an unknown one or a reason the connector has no mail sentence for.
 */
export function connectorMailReason(lang: Locale, code: string): string | undefined {
  if (isReasonCode(code)) return undefined;
  const slug = CONNECTOR_REASONS.get(code);
  const words = slug === undefined ? undefined : connectorCodes.get(slug)?.words[lang].mail;
  const text = words ? ownValue(words, code) : undefined;
  return typeof text === 'string' ? text : undefined;
}
