// A delivery's attempt as the API shows it: the same view on the hook detail and in the
// super-admin's error list.
import type { HookAttempt } from '@leadrelay/shared';
import type { DeliveryAttemptRow } from '../db/schema';

/** One stored attempt as the API shows it (hook detail, super-admin error children). */
export function toAttemptView(a: DeliveryAttemptRow): HookAttempt {
  return {
    _id: a.id,
    number: a.number,
    outcome: a.outcome,
    httpStatus: a.httpStatus,
    error: a.error,
    request: a.request ?? null,
    response: a.response ?? null,
    durationMs: a.durationMs,
    startedAt: a.startedAt.toISOString(),
  };
}
