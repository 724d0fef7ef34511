import { and, asc, count, eq, gt, lte } from 'drizzle-orm';
import type { ThrottleOptions } from '../../config';
import type { Executor } from '../../db/client';
import { loginFailures } from '../../db/schema';

export const DEFAULT_THROTTLE: ThrottleOptions = { accountFailures: 10, ipFailures: 30, windowSeconds: 15 * 60 };

export const accountKey = (login: string) => `login:${login}`;
export const ipKey = (ip: string) => `ip:${ip}`;

/** Seconds until another attempt is allowed, or null when none of the keys is over its limit. */
export async function retryAfterSeconds(
  db: Executor,
  keys: { key: string; limit: number }[],
  windowSeconds: number,
): Promise<number | null> {
  const now = Date.now();
  const since = new Date(now - windowSeconds * 1000);
  let wait: number | null = null;
  for (const { key, limit } of keys) {
    const inWindow = and(eq(loginFailures.key, key), gt(loginFailures.createdAt, since));
    const [row] = await db.select({ n: count() }).from(loginFailures).where(inWindow);
    const n = Number(row?.n ?? 0);
    if (n < limit) continue;
    // The attempt becomes possible when enough of the oldest failures leave the window.
    const [oldest] = await db
      .select({ at: loginFailures.createdAt })
      .from(loginFailures)
      .where(inWindow)
      .orderBy(asc(loginFailures.createdAt))
      .offset(n - limit)
      .limit(1);
    const until = (oldest?.at.getTime() ?? now) + windowSeconds * 1000;
    const seconds = Math.max(1, Math.ceil((until - now) / 1000));
    wait = Math.max(wait ?? 0, seconds);
  }
  return wait;
}

export async function recordFailure(db: Executor, keys: string[], windowSeconds: number): Promise<void> {
  const now = new Date();
  await db.insert(loginFailures).values(keys.map((key) => ({ key, createdAt: now })));
  // Rows past the window no longer count; drop them so the table stays small.
  await db.delete(loginFailures).where(lte(loginFailures.createdAt, new Date(now.getTime() - windowSeconds * 1000)));
}

export async function clearFailures(db: Executor, key: string): Promise<void> {
  await db.delete(loginFailures).where(eq(loginFailures.key, key));
}
