import { z } from 'zod';
import { BILLING_PERIODS } from './billing';
import { DEMO_WARNING_DAYS, LOCALES, PRIVILEGED_ROLES, ROLES, type Role } from './constants';

export const ZRole = z.enum(ROLES);
export const ZLocale = z.enum(LOCALES);

/** User (me), spec section 3, plus the profile fields of the account page. */
export const ZUser = z.object({
  _id: z.string(),
  login: z.string(),
  role: ZRole,
  active: z.boolean(),
  /** ISO date (YYYY-MM-DD) the account is paid or in demo until; null for staff (never expires). */
  expDate: z.string().nullable(),
  credit: z.number(),
  planId: z.string().nullable(),
  /** The plan paid for: its title (in the account's language when paid), id and period. */
  subscription: z
    .object({ title: z.string(), planId: z.string(), period: z.enum(BILLING_PERIODS).optional() })
    .nullable(),
  paymentInfo: z.record(z.string(), z.unknown()).nullable(),
  name: z.string(),
  phone: z.string(),
  company: z.string(),
  lang: ZLocale,
  emailConfirmed: z.boolean(),
  createdAt: z.string(),
});
export type User = z.infer<typeof ZUser>;

const DAY_MS = 86_400_000;

/** Days from today (UTC) until expDate; null when the account does not expire. */
export function daysLeft(expDate: string | null, now: Date = new Date()): number | null {
  if (!expDate) return null;
  const end = Date.parse(`${expDate.slice(0, 10)}T00:00:00Z`);
  const today = Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), now.getUTCDate());
  return Math.round((end - today) / DAY_MS);
}

/** Spec section 4: active when the flag is set and expDate is today or later. */
export function isUserActive(user: Pick<User, 'active' | 'expDate'>, now: Date = new Date()): boolean {
  if (!user.active) return false;
  const left = daysLeft(user.expDate, now);
  return left === null || left >= 0;
}

export function isDemo(user: Pick<User, 'planId'>): boolean {
  return !user.planId;
}

export type HeaderWarning = 'none' | 'danger' | 'expired';
/** Spec section 4: 11 days or fewer → danger colour; 0 or below → expired message. */
export function headerWarning(left: number | null): HeaderWarning {
  if (left === null) return 'none';
  if (left <= 0) return 'expired';
  if (left <= DEMO_WARNING_DAYS) return 'danger';
  return 'none';
}

/** Spec section 6: passes when the role is allowed or is owner. */
export function hasRole(role: Role | undefined, allowed: readonly Role[]): boolean {
  if (!role) return false;
  return role === 'owner' || allowed.includes(role);
}

export function isPrivileged(role: Role | undefined): boolean {
  return hasRole(role, PRIVILEGED_ROLES);
}
