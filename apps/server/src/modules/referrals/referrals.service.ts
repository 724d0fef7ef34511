// Referral links: every account has a code (made the first time it is asked for); an account that
// signs up with ?promo=CODE (kept 90 days in the promo cookie) is recorded as referred by its owner.
import { randomBytes } from 'node:crypto';
import { type Locale, maskLogin, REFERRAL_REWARD_SHARE, type Referrals } from '@leadrelay/shared';
import { and, count, desc, eq, isNull, sql } from 'drizzle-orm';
import type { Executor } from '../../db/client';
import { orders, type UserRow, users } from '../../db/schema';

// 8 characters of base32-like text: short enough to read aloud, 40 bits so nobody guesses others'.
const ALPHABET = 'abcdefghjkmnpqrstuvwxyz23456789';
function newCode(): string {
  return Array.from(randomBytes(8), (b) => ALPHABET[b % ALPHABET.length]).join('');
}

/** The live account whose code this is, if any (the codes of removed accounts refer nobody). */
export async function referrerOf(db: Executor, promo: string | undefined): Promise<string | null> {
  const code = promo?.trim().toLowerCase();
  if (!code || code.length > 64) return null;
  const [row] = await db
    .select({ id: users.id })
    .from(users)
    .where(and(eq(users.referralCode, code), isNull(users.deletedAt)));
  return row?.id ?? null;
}

async function codeOf(db: Executor, user: Pick<UserRow, 'id' | 'referralCode'>): Promise<string> {
  if (user.referralCode) return user.referralCode;
  for (;;) {
    // Only set when still empty, so two first requests at once agree on one code.
    const [row] = await db
      .update(users)
      .set({ referralCode: sql`coalesce(${users.referralCode}, ${newCode()})` })
      .where(eq(users.id, user.id))
      .returning({ code: users.referralCode })
      .catch((error: { code?: string }) => {
        if (error.code === '23505') return []; // a code already taken: draw again
        throw error;
      });
    if (row?.code) return row.code;
  }
}

const today = () => new Date().toISOString().slice(0, 10);

export async function listReferrals(
  db: Executor,
  actor: Pick<UserRow, 'id' | 'referralCode' | 'lang' | 'creditCents'>,
  publicUrl: string,
  page: number,
  limit: number,
): Promise<Referrals> {
  const code = await codeOf(db, actor);
  const mine = and(eq(users.referredBy, actor.id), isNull(users.deletedAt));
  const [rows, [total], [earned]] = await Promise.all([
    db
      .select({
        id: users.id,
        login: users.login,
        createdAt: users.createdAt,
        planId: users.planId,
        expDate: users.expDate,
        // What each paid (refunds not counted) and what that earned the referrer.
        paid: sql<number>`(select coalesce(sum(o.charged_cents + o.credit_cents), 0)::int from orders o
          where o.account_id = "users"."id" and o.status = 'paid')`,
        reward: sql<number>`(select coalesce(sum(o.reward_cents), 0)::int from orders o
          where o.account_id = "users"."id" and o.status = 'paid')`,
      })
      .from(users)
      .where(mine)
      .orderBy(desc(users.createdAt))
      .limit(limit)
      .offset((page - 1) * limit),
    db.select({ n: count() }).from(users).where(mine),
    db
      .select({ earned: sql<number>`coalesce(sum(${orders.rewardCents}), 0)::int` })
      .from(orders)
      .innerJoin(users, eq(users.id, orders.accountId))
      .where(and(eq(users.referredBy, actor.id), eq(orders.status, 'paid'))),
  ]);
  const prefix = (actor.lang as Locale) === 'en' ? '/en' : '';
  return {
    code,
    link: `${publicUrl}${prefix}/signup?promo=${code}`,
    data: rows.map((r) => ({
      _id: r.id,
      login: maskLogin(r.login),
      createdAt: r.createdAt.toISOString(),
      status: r.expDate !== null && r.expDate < today() ? 'expired' : r.planId ? 'paid' : 'demo',
      paid: Number(r.paid) / 100,
      reward: Number(r.reward) / 100,
    })),
    total: total?.n ?? 0,
    earned: Number(earned?.earned ?? 0) / 100,
    credit: actor.creditCents / 100,
    rewardShare: REFERRAL_REWARD_SHARE,
  };
}
