// Spec section 4: the demo reminder, at most once a day (local storage `last-inform`).
import { DEMO_WARNING_DAYS, daysLeft, isDemo, STORAGE, type User } from '@leadrelay/shared';

export type DemoReminder = { code: 'DEMO_DAYS_LEFT_WARNING'; count: number } | { code: 'DEMO_EXPIRED'; count: number };

function localDate(now: Date): string {
  const m = String(now.getMonth() + 1).padStart(2, '0');
  const d = String(now.getDate()).padStart(2, '0');
  return `${now.getFullYear()}-${m}-${d}`;
}

/** The reminder to show now, or null; remembers that it was shown today. */
export function takeDemoReminder(
  user: Pick<User, 'planId' | 'expDate'>,
  now = new Date(),
  storage: Storage = localStorage,
): DemoReminder | null {
  if (!isDemo(user)) return null;
  const left = daysLeft(user.expDate, now);
  if (left === null || left > DEMO_WARNING_DAYS) return null;
  const today = localDate(now);
  if (storage.getItem(STORAGE.lastInform) === today) return null;
  storage.setItem(STORAGE.lastInform, today);
  return left <= 0 ? { code: 'DEMO_EXPIRED', count: left } : { code: 'DEMO_DAYS_LEFT_WARNING', count: left };
}
