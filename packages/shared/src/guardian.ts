// The guardian (issue 19 part 4; docs/adr/010-manager-bot.md): what it finds wrong with a source,
// the daily reconciliation and the account's settings. No zod here: the web's screens import it
// (the request schemas are in ./guardian-requests).
import type { Reason } from './integration-state';

/**
 * `drought`: leads stopped coming for much longer than the source's own history says is usual.
 * `expiry`: a credential with a known lifetime (Meta's long-lived token, an OAuth refresh token)
 * ends soon; warned 7 days and 1 day ahead.
 * `access`: a source stopped reading its leads because the sender refused our credentials (a token
 * revoked, a password changed, an account connection's login refused); open until it reads again.
 */
export const GUARDIAN_ALERT_KINDS = ['drought', 'expiry', 'access'] as const;
export type GuardianAlertKind = (typeof GUARDIAN_ALERT_KINDS)[number];

/** How many days ahead of a credential's end the guardian warns, each once. */
export const EXPIRY_WARNING_DAYS = [7, 1] as const;

/** The most days the reconciliation reads back. */
export const RECONCILIATION_MAX_DAYS = 31;

/** What the guardian found wrong with a source or a connection (issue 19 part 4). */
export interface GuardianAlert {
  _id: string;
  kind: GuardianAlertKind;
  /** The integration it is about; null for an account connection (`connection`). */
  integration: { _id: string; name: string; type: string } | null;
  /** expiry of an account connection: the connection (its profile's name). */
  connection: { _id: string; name: string } | null;
  /** drought: the last lead before the silence. */
  silentSince: string | null;
  /** drought: leads the source's history expected during the silence when the alert opened. */
  expected: number | null;
  /** expiry: when the credential ends. */
  expiresAt: string | null;
  /** expiry: the warning's lead time (7 or 1 days). */
  daysAhead: number | null;
  /** access: why the sender refused, as a code with parameters (a connector's own, e.g. its …_AUTH_FAILED); null for the other kinds. */
  reason: Reason | null;
  openedAt: string;
  /** When it was right again (or, for an expiry warning, superseded); null while open. */
  closedAt: string | null;
  notifiedAt: string | null;
}

/** One source integration's day (Kyiv): what came in and what became of it. */
export interface ReconciliationRow {
  /** YYYY-MM-DD in Europe/Kyiv. */
  day: string;
  integration: { _id: string; name: string; type: string };
  /** Leads stored that day. */
  received: number;
  /** Every delivery of the lead went through. */
  delivered: number;
  /** Kept undelivered while the account is held (some delivery held, none failed). */
  held: number;
  /** Some delivery failed for good. */
  failed: number;
  /** Still on its way (a delivery waiting or being tried) or with no destination. */
  other: number;
}

export interface Reconciliation {
  days: number;
  timeZone: string;
  rows: ReconciliationRow[];
}

/** Which mails the guardian sends the account's owner (all on until the owner turns one off). */
export interface GuardianSettings {
  mailDrought: boolean;
  mailExpiry: boolean;
  weeklyMail: boolean;
}
