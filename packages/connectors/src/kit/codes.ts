// A connector's own codes (issue 29): the API error keys it answers with (code → HTTP status), the
// reason codes it stores on an integration, a check or a delivery, and which of those mean "connect
// again" (the service refused our credentials). Their words are the folder's
// `words/codes/{uk,en}.json` (a screen's: namespace `connectors:<slug>.errors|reasons.<CODE>`) and
// `words/mail/{uk,en}.json` (the broken-integration mail's, by code); shared keeps only the generic
// codes, and the server and the web union every connector's (docs/adr/014).
//
// A folder's `codes.ts` also tells the type checker its error keys, so that `ErrorCode` (shared)
// names them wherever the folder is compiled:
//   declare module '@leadrelay/shared' {
//     interface ConnectorErrorCodes extends Record<keyof typeof codes.errors, number> {}
//   }
//
// A connector whose service's words were stored as a reason before it had codes (Graph's "… (code
// 190)") declares their forms in `<slug>/stored-reasons.ts` (`storedReasons`): shared parseReason reads
// them as its code on the server (lib/error-codes.ts) and in the web (lib/integrations/stored-reasons.ts).
import type { StoredReasonForm } from '@leadrelay/shared';

/** The words of a connector's codes in one language (words/codes/<language>.json, `mail` words/mail/). */
export interface CodeWords {
  /** The sentence of each API error key (the web's, shown for the key). */
  errors?: Readonly<Record<string, string>>;
  /** The sentence of each reason code on a screen (else its error's, when the code is both). */
  reasons?: Readonly<Record<string, string>>;
  /** The sentence of each reason code in a mail (a whole sentence, no parameters). */
  mail?: Readonly<Record<string, string>>;
}

export interface ConnectorCodes<E extends string = string, R extends string = string> {
  /** API error keys → HTTP status (4xx, or 424 for a service that failed us). */
  errors: Readonly<Record<E, number>>;
  /** Reason codes the server stores and sends for an integration, a check or a delivery. */
  reasons: readonly R[];
  /** Reasons that mean the service refused our credentials: the integration shows "connect again". */
  reconnect: readonly NoInfer<R>[];
  /** Reasons stored in the service's own words, known by their form (the folder's stored-reasons.ts). */
  stored?: readonly StoredReasonForm[];
  /** The words of the codes, by language (the mail reads its sentence of a reason here). */
  words: { uk: CodeWords; en: CodeWords };
}

/** Types a connector's codes, keeping the literal keys (for ConnectorErrorCodes). */
export function defineCodes<const E extends string, const R extends string>(
  codes: ConnectorCodes<E, R>,
): ConnectorCodes<E, R> {
  return codes;
}
