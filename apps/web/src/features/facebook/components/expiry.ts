const DAY_MS = 86_400_000;

/** Whole days until the token expires (0 on its last day, negative once expired); null when it does not expire. */
export function daysLeft(expiresAt: string | null, now: number = Date.now()): number | null {
  if (!expiresAt) return null;
  const at = Date.parse(expiresAt);
  if (Number.isNaN(at)) return null;
  return Math.floor((at - now) / DAY_MS);
}

/** Facebook's long-lived tokens last about 60 days: a week before the end the user is asked to reconnect. */
export const EXPIRY_WARNING_DAYS = 7;
