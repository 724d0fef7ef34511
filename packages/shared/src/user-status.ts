// What a user's account allows (spec sections 4 and 6), apart from the schemas in ./user: the web's
// entry checks roles and activity on every page, and zod (25 KB gzipped) need not come with it.
import { DEMO_WARNING_DAYS, PRIVILEGED_ROLES, type Role } from './constants';
import type { User } from './user';

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
