// Pure rules of the delivery engine: when to try again, when to give up, when to pause.

export interface RetryPolicy {
  /** First step of the exponential backoff. */
  baseMs: number;
  /** No single wait is longer than this. */
  capMs: number;
  /** Retrying stops this long after the first attempt: the delivery fails. */
  maxAgeMs: number;
  /** Full jitter can draw 0; a wait is never shorter than this, so a failing call never spins. */
  minMs: number;
}

export const DEFAULT_RETRY: RetryPolicy = {
  baseMs: 5_000,
  capMs: 60 * 60_000,
  maxAgeMs: 72 * 60 * 60_000,
  minMs: 1_000,
};

export interface BreakerPolicy {
  /** Consecutive retryable failures of a destination before it is paused. */
  threshold: number;
  /** First pause; each pause in a row doubles it, up to maxPauseMs. */
  basePauseMs: number;
  maxPauseMs: number;
}

export const DEFAULT_BREAKER: BreakerPolicy = { threshold: 5, basePauseMs: 30_000, maxPauseMs: 30 * 60_000 };

/**
 * When to try a retryable failure again: exponential backoff with full jitter
 * (random(0, min(cap, base·2^(attempt-1)))), never before Retry-After, never past the deadline
 * (so the last try happens at the deadline). Null when the deadline has passed: the delivery fails.
 */
export function nextRetryAt(
  policy: RetryPolicy,
  attempt: number,
  firstAttemptAt: Date,
  now: Date,
  random: () => number,
  retryAfterMs?: number,
): Date | null {
  const deadline = firstAttemptAt.getTime() + policy.maxAgeMs;
  if (now.getTime() >= deadline) return null;
  const ceiling = Math.min(policy.capMs, policy.baseMs * 2 ** Math.max(0, attempt - 1));
  const wait = Math.max(policy.minMs, Math.floor(random() * ceiling), retryAfterMs ?? 0);
  return new Date(Math.min(now.getTime() + wait, deadline));
}

/** How long a destination stays paused after its `pauses`-th pause in a row (1-based). */
export function pauseLength(policy: BreakerPolicy, pauses: number): number {
  return Math.min(policy.maxPauseMs, policy.basePauseMs * 2 ** Math.max(0, pauses - 1));
}
