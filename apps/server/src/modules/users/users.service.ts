import type { Locale, PaymentInfo, Role, User } from '@leadrelay/shared';
import { and, eq, isNull } from 'drizzle-orm';
import type { Executor } from '../../db/client';
import { paymentMethods, plans, type UserRow, users } from '../../db/schema';
import { isUuid } from '../../lib/ids';

export async function findLiveUserByLogin(db: Executor, login: string): Promise<UserRow | undefined> {
  const [row] = await db
    .select()
    .from(users)
    .where(and(eq(users.login, login), isNull(users.deletedAt)))
    .limit(1);
  return row;
}

export async function findLiveUserById(db: Executor, id: string): Promise<UserRow | undefined> {
  const [row] = await db
    .select()
    .from(users)
    .where(and(eq(users.id, id), isNull(users.deletedAt)))
    .limit(1);
  return row;
}

export async function findOwner(db: Executor): Promise<UserRow | undefined> {
  const [row] = await db
    .select()
    .from(users)
    .where(and(eq(users.role, 'owner'), isNull(users.deletedAt)))
    .limit(1);
  return row;
}

export interface NewUser {
  login: string;
  passwordHash: string;
  role?: Role;
  lang: Locale;
  /** The account whose referral link it came through. */
  referredBy?: string | null;
  expDate: string | null;
  emailConfirmedAt?: Date | null;
}

export async function insertUser(db: Executor, values: NewUser): Promise<UserRow> {
  const [row] = await db.insert(users).values(values).returning();
  return row!;
}

export async function updateUser(
  db: Executor,
  id: string,
  values: Partial<Omit<UserRow, 'id' | 'createdAt'>>,
): Promise<UserRow> {
  const [row] = await db
    .update(users)
    .set({ ...values, updatedAt: new Date() })
    .where(eq(users.id, id))
    .returning();
  return row!;
}

/** YYYY-MM-DD, `days` after today (UTC). */
export function dateAfterDays(days: number, now: Date = new Date()): string {
  const d = new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), now.getUTCDate() + days));
  return d.toISOString().slice(0, 10);
}

/**
 * The API shape of a user (ZUser) without the saved card (paymentInfo null): what a check of the
 * account needs. What answers the user (me, the account) is `apiUser`.
 */
export function toApiUser(row: UserRow): User {
  return {
    _id: row.id,
    login: row.login,
    role: row.role,
    active: row.active,
    expDate: row.expDate ? row.expDate.slice(0, 10) : null,
    credit: row.creditCents / 100,
    planId: row.planId,
    subscription: row.subscription ?? null,
    paymentInfo: null,
    name: row.name,
    phone: row.phone,
    company: row.company,
    lang: row.lang,
    timeZone: row.timeZone,
    emailConfirmed: row.emailConfirmedAt !== null,
    createdAt: row.createdAt.toISOString(),
  };
}

/** The saved card's public part (the payments module keeps the card; its token never leaves it). */
export async function paymentInfoOf(db: Executor, accountId: string): Promise<PaymentInfo | null> {
  const [card] = await db
    .select({
      mask: paymentMethods.mask,
      type: paymentMethods.cardType,
      expiry: paymentMethods.expiry,
      savedAt: paymentMethods.createdAt,
    })
    .from(paymentMethods)
    .where(eq(paymentMethods.accountId, accountId));
  return card
    ? { card: { mask: card.mask, type: card.type, expiry: card.expiry }, savedAt: card.savedAt.toISOString() }
    : null;
}

/** The user as the API answers them (me, the account page): with paymentInfo from the saved card. */
export async function apiUser(db: Executor, row: UserRow): Promise<User> {
  const [paymentInfo, titles] = await Promise.all([paymentInfoOf(db, row.id), planTitlesOf(db, row.subscription)]);
  const user = { ...toApiUser(row), paymentInfo };
  return user.subscription && titles ? { ...user, subscription: { ...user.subscription, titles } } : user;
}

/** The paid plan's title in every language: the stored one is in the language the account had when it paid. */
async function planTitlesOf(db: Executor, subscription: UserRow['subscription']) {
  if (!subscription || !isUuid(subscription.planId)) return null;
  const [plan] = await db.select({ title: plans.title }).from(plans).where(eq(plans.id, subscription.planId));
  return plan?.title ?? null;
}
