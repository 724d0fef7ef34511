// What the sign-in side keeps tidy (periodic tasks its door hands to the app).
import { isNotNull, lte, or } from 'drizzle-orm';
import { emailTokens, loginFailures, sessions } from '../../db/schema';
import type { PeriodicTask } from '../../delivery/periodic';

const MINUTE = 60_000;

/** loginFailureWindowMs: failed sign-ins older than this no longer count (the throttle's window). */
export function authTasks(options: { loginFailureWindowMs: number }): PeriodicTask[] {
  return [
    {
      // A revoked session stays listed (isRevoked) until it would have expired; then it goes.
      name: 'prune-sessions',
      everyMs: 60 * MINUTE,
      run: (tx, now) => tx.delete(sessions).where(lte(sessions.expiresAt, now)),
    },
    {
      name: 'prune-email-tokens',
      everyMs: 60 * MINUTE,
      run: (tx, now) =>
        tx.delete(emailTokens).where(or(isNotNull(emailTokens.usedAt), lte(emailTokens.expiresAt, now))),
    },
    {
      // Sign-in also prunes on each failure; this covers quiet periods.
      name: 'prune-login-failures',
      everyMs: 15 * MINUTE,
      run: (tx, now) =>
        tx
          .delete(loginFailures)
          .where(lte(loginFailures.createdAt, new Date(now.getTime() - options.loginFailureWindowMs))),
    },
  ];
}
