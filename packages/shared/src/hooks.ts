import type { ConversionView } from './conversions';
// The hooks' statuses and response shapes; the request schemas are in ./hook-requests, so a page
// that shows a status goes without zod.
import type { LeadWarning } from './mapping';
import type { LeadReaction } from './reactions';

/** What became of one inbound event (architecture: "Hook"). */
export const HOOK_STATUSES = [
  'accepted',
  'filtered',
  'duplicate',
  'pending',
  'delivered',
  'partial',
  'failed',
  'held',
] as const;
export type HookStatus = (typeof HOOK_STATUSES)[number];

/** `held`: stored and kept undelivered while the account is held (plan expired, monthly limit). */
export const DELIVERY_STATUSES = ['pending', 'running', 'delivered', 'failed', 'held'] as const;
export type DeliveryStatus = (typeof DELIVERY_STATUSES)[number];

/**
 * Why an account's leads are held: a `held` hook carries it as its reason (a code the web
 * translates, never text to show). The expiry wins when both apply.
 */
export const HOLD_REASONS = ['plan_expired', 'monthly_limit'] as const;
export type HoldReason = (typeof HOLD_REASONS)[number];

/** The reason of a held lead's hook and deliveries once it was kept past the retention and dropped. */
export const HELD_EXPIRED = 'held_expired';
/** A held lead is kept at least this long (from when it was held) … */
export const HELD_RETENTION_DAYS = 30;
/** … and dropped only this long after a mail told the account how many and when. */
export const HELD_DROP_NOTICE_DAYS = 7;

/**
 * Codes a pending delivery carries while it waits on purpose, not after a failure (an SMS
 * destination's quiet hours). A delivered delivery's lastError is always such a note (an SMS skipped for a landline).
 */
export const WAITING_NOTES: readonly string[] = ['SMS_QUIET_HOURS'];

export const ATTEMPT_OUTCOMES = ['ok', 'retryable', 'permanent'] as const;
export type AttemptOutcome = (typeof ATTEMPT_OUTCOMES)[number];

// ---- Response shapes (GET /api/hook…, statistic, super-admin errors; see docs/adr/002) ----

/** One try of a delivery; `request`/`response` are stored redacted. */
export interface HookAttempt {
  _id?: string;
  number: number;
  outcome: AttemptOutcome;
  httpStatus: number | null;
  error: string | null;
  request: unknown;
  response: unknown;
  durationMs: number | null;
  startedAt: string;
}

/** What became of a hook for one destination. */
export interface HookDelivery {
  _id: string;
  destination: { _id: string; name: string; type: string };
  status: DeliveryStatus;
  attempts: number;
  lastError: string | null;
  nextAttemptAt: string | null;
  deliveredAt: string | null;
  externalId: string | null;
}

/** One inbound lead event as listed by GET /api/hook. */
export interface Hook {
  _id: string;
  integrationId: string;
  integration: { _id: string; name: string; type: string };
  leadId: string | null;
  status: HookStatus;
  reason: string | null;
  lead: Record<string, unknown> | null;
  /** What is wrong with the lead as mapped (NO_CONTACT: no phone, e-mail or name), as codes the web translates. */
  warnings: LeadWarning[];
  request: unknown;
  deliveries: HookDelivery[];
  /** The lead's reactions (taken, called back), oldest first; none for a hook without a lead. */
  reactions: LeadReaction[];
  createdAt: string;
  updatedAt: string;
}

/** One manager who held a lead its source passes on when nobody takes it (issue 19, escalation). */
export interface LeadHolder {
  name: string;
  from: string;
  /** When it passed on to the next; null for the one who holds it now. */
  until: string | null;
}

/** Who holds a lead and who held it before, for a source whose routing policy escalates. */
export interface LeadAssignmentView {
  /** Oldest first; the last one holds it now. */
  holders: LeadHolder[];
  /** When it passes on unless taken; null once taken, or while nobody else is on duty to take it. */
  escalateAt: string | null;
}

/** GET /api/hook/:id: the hook with each delivery's attempts, oldest first. */
export interface HookDetail extends Omit<Hook, 'deliveries'> {
  deliveries: (HookDelivery & { attemptsLog: HookAttempt[] })[];
  /** Who held the lead, when its source escalates; null otherwise (or before the first minute's enrolment). */
  assignment: LeadAssignmentView | null;
  /** Each CRM stage of the lead sent back to the ad platform (issue 33), oldest first; [] when its source sends none. */
  conversions: ConversionView[];
}

export interface HookList {
  data: Hook[];
  total: number;
}

/** The account's held leads, for the dashboard's notice. */
export interface HeldSummary {
  /** Why they are held now (a code). */
  reason: HoldReason;
  /** When the oldest of them was held (ISO). */
  oldestAt: string;
  /** The earliest the oldest can be dropped (ISO): announced by mail HELD_DROP_NOTICE_DAYS ahead. */
  dropsAt: string;
}

/**
 * Which hook statuses each counter counts: the dashboard's counters (/api/hook/total) and its chart
 * (the statistic) both read this, so a lead is in the same bucket in both. `accepted` (no active
 * destination: stored, sent nowhere) is in no bucket but `received`: nothing is in processing.
 */
export const HOOK_COUNTER_STATUSES = {
  delivered: ['delivered'],
  failed: ['failed', 'partial'],
  pending: ['pending'],
  filtered: ['filtered'],
  duplicate: ['duplicate'],
  held: ['held'],
} as const satisfies Record<string, readonly HookStatus[]>;
export type HookCounter = keyof typeof HOOK_COUNTER_STATUSES;

export interface HookTotals {
  total: number;
  delivered: number;
  failed: number;
  pending: number;
  filtered: number;
  duplicate: number;
  /** Leads kept undelivered while the account is held. */
  held: number;
  /** Set while the account has held leads. */
  hold: HeldSummary | null;
}

export interface StatisticDay {
  _id: string;
  date: string;
  received: number;
  delivered: number;
  failed: number;
  pending: number;
  filtered: number;
  duplicate: number;
  held: number;
}

export interface StatisticPage {
  data: StatisticDay[];
  limit: number;
  page: number;
  total: number;
}

/** GET /api/legacy/api/super-admin/errors: a delivery that failed for good; `children` are its attempts. */
export interface DeliveryErrorRecord {
  _id: string;
  accountId: string;
  account: { _id: string; login: string };
  integration: { _id: string; name: string; type: string };
  destination: { _id: string; name: string; type: string };
  hookId: string;
  deliveryId: string;
  status: DeliveryStatus;
  message: string;
  createdAt: string;
  restartedAt: string | null;
  children: HookAttempt[];
}

export interface DeliveryErrorList {
  data: DeliveryErrorRecord[];
  total: number;
}

export interface DeliveryErrorRestart {
  ok: boolean;
  restarted: boolean;
  restartedAt: string;
}
