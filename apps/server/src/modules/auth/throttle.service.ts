// The sign-in throttle (docs/operations.md, "Sign-in throttle"). Failed sign-ins are rows in
// PostgreSQL, so the throttle holds across API processes and keeps nothing in memory. Each failure
// counts under three keys:
//   pair:<login> <address>  the login as tried from one address: the attacker's own guesses;
//   login:<login>           the login from everywhere: softly, it never stops a clean address;
//   ip:<address>            everything from one address: a high ceiling against a spray of logins.
// So an attacker slows the guesses on the logins he attacks, from his address; his teammates
// behind the same address, and the attacked person from any address where they have not failed,
// still sign in.
import { and, asc, count, eq, gt, inArray, lt, lte, max, or, sql } from 'drizzle-orm';
import type { ThrottleOptions } from '../../config';
import type { Executor } from '../../db/client';
import { loginFailures } from '../../db/schema';
import { AppError } from '../../lib/app-error';

export const DEFAULT_THROTTLE: ThrottleOptions = {
  pairFailures: 10,
  loginFailures: 30,
  loginDelaySeconds: 60,
  ipFailures: 100,
  windowSeconds: 15 * 60,
};

// A login is an e-mail address (no spaces), so the space cannot be part of either half.
const pairKey = (login: string, ip: string) => `pair:${login} ${ip}`;
const loginKey = (login: string) => `login:${login}`;
const ipKey = (ip: string) => `ip:${ip}`;

/** Who is trying: the login (absent for sign-in with Facebook, counted per address only) and the address. */
export interface Attempt {
  login?: string;
  ip: string;
}

const keysOf = (a: Attempt): string[] =>
  a.login === undefined ? [ipKey(a.ip)] : [pairKey(a.login, a.ip), loginKey(a.login), ipKey(a.ip)];

/**
 * Seconds until this attempt may go ahead, or null. With `before` (the first id of the attempt's
 * own rows) only rows recorded before it count: the failures so far and the attempts already under
 * way, so of simultaneous guesses the first ones go ahead and the rest wait.
 */
async function waitSeconds(db: Executor, o: ThrottleOptions, a: Attempt, before?: number): Promise<number | null> {
  const now = Date.now();
  const windowMs = o.windowSeconds * 1000;
  const earlier = before === undefined ? undefined : lt(loginFailures.id, before);
  const inWindow = (key: string) =>
    and(eq(loginFailures.key, key), gt(loginFailures.createdAt, new Date(now - windowMs)), earlier);
  const rows = await db
    .select({ key: loginFailures.key, n: count(), last: max(loginFailures.createdAt) })
    .from(loginFailures)
    .where(and(inArray(loginFailures.key, keysOf(a)), gt(loginFailures.createdAt, new Date(now - windowMs)), earlier))
    .groupBy(loginFailures.key);
  const stats = new Map(rows.map((r) => [r.key, { n: Number(r.n), last: r.last }]));

  let until = 0;
  // Over a hard limit: the attempt waits until enough of the key's oldest failures leave the window.
  const hard = async (key: string, limit: number) => {
    const n = stats.get(key)?.n ?? 0;
    if (n < limit) return;
    const [oldest] = await db
      .select({ at: loginFailures.createdAt })
      .from(loginFailures)
      .where(inWindow(key))
      .orderBy(asc(loginFailures.createdAt))
      .offset(n - limit)
      .limit(1);
    until = Math.max(until, (oldest?.at.getTime() ?? now) + windowMs);
  };
  await hard(ipKey(a.ip), o.ipFailures);
  if (a.login !== undefined) {
    const pair = stats.get(pairKey(a.login, a.ip));
    await hard(pairKey(a.login, a.ip), o.pairFailures);
    // A login under attack from many addresses: an address that has failed on it waits between
    // tries. An address with no failure on it is never held here, so the person it belongs to
    // still signs in while it is attacked.
    const global = stats.get(loginKey(a.login))?.n ?? 0;
    if (global >= o.loginFailures && pair?.last) {
      until = Math.max(until, pair.last.getTime() + o.loginDelaySeconds * 1000);
    }
  }
  return until > now ? Math.max(1, Math.ceil((until - now) / 1000)) : null;
}

const tooMany = (seconds: number) => new AppError('TOO_MANY_REQUESTS', { headers: { 'retry-after': String(seconds) } });

/**
 * Lets one sign-in attempt go ahead or refuses it with 429 and Retry-After. Refused attempts write
 * nothing. An allowed one is recorded as a failure before the password is checked (so a burst of
 * simultaneous guesses counts in full), and `passed` takes it back.
 */
export async function beginAttempt(
  db: Executor,
  o: ThrottleOptions,
  a: Attempt,
): Promise<{ passed(): Promise<void>; failed(): Promise<void> }> {
  const before = await waitSeconds(db, o, a);
  if (before !== null) throw tooMany(before);

  const now = new Date();
  const own = (
    await db
      .insert(loginFailures)
      .values(keysOf(a).map((key) => ({ key, createdAt: now })))
      .returning({ id: loginFailures.id })
  ).map((r) => r.id);
  const after = await waitSeconds(db, o, a, Math.min(...own));
  if (after !== null) {
    await db.delete(loginFailures).where(inArray(loginFailures.id, own));
    throw tooMany(after);
  }
  return {
    // The right password (or no guess at all): this attempt was no failure, and the address's earlier ones on this
    // login no longer hold it back (its count per address and the login's global count stay).
    async passed() {
      const pair = a.login === undefined ? [] : [eq(loginFailures.key, pairKey(a.login, a.ip))];
      await db.delete(loginFailures).where(or(inArray(loginFailures.id, own), ...pair));
    },
    // Rows past the window no longer count; drop them so the table stays small.
    async failed() {
      await db.delete(loginFailures).where(lte(loginFailures.createdAt, new Date(Date.now() - o.windowSeconds * 1000)));
    },
  };
}

/** Forgets every failure on a login (its password changed, or it is gone): from all addresses too. */
export async function clearLoginFailures(db: Executor, login: string): Promise<void> {
  await db
    .delete(loginFailures)
    .where(or(eq(loginFailures.key, loginKey(login)), sql`starts_with(${loginFailures.key}, ${`pair:${login} `})`));
}
