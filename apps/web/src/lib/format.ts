// Dates and numbers in the active language (house style: Intl, never hand-made formats).
import type { Locale } from '@leadrelay/shared';
import { currentLocale } from './locale';

/** The Intl locale of an interface language. */
export const intlLocale = (locale: Locale = currentLocale()): string => (locale === 'uk' ? 'uk-UA' : 'en-GB');

export function formatNumber(n: number, locale?: Locale): string {
  return new Intl.NumberFormat(intlLocale(locale)).format(n);
}

/** e.g. "22 лист. 2026 р., 14:05" / "22 Nov 2026, 14:05". */
export function formatDateTime(iso: string): string {
  return new Intl.DateTimeFormat(intlLocale(), { dateStyle: 'medium', timeStyle: 'short' }).format(new Date(iso));
}

/** e.g. "22 лист. 2026 р." / "22 Nov 2026". */
export function formatDate(iso: string): string {
  return new Intl.DateTimeFormat(intlLocale(), { dateStyle: 'medium' }).format(new Date(iso));
}

/** A calendar day (YYYY-MM-DD, e.g. an expDate) as a date, the same in every time zone; '' if unreadable. */
export function formatDay(day: string): string {
  const date = new Date(`${day.slice(0, 10)}T00:00:00Z`);
  if (Number.isNaN(date.getTime())) return '';
  return new Intl.DateTimeFormat(intlLocale(), { dateStyle: 'medium', timeZone: 'UTC' }).format(date);
}

/**
 * The calendar day (YYYY-MM-DD) an instant falls on in a time zone: the account's day boundary
 * (issue 31), the same whatever zone the browser is in.
 */
export function calendarDayIn(date: Date, timeZone: string): string {
  const parts = new Intl.DateTimeFormat('en-US', { timeZone, year: 'numeric', month: '2-digit', day: '2-digit' })
    .formatToParts(date)
    .map((p) => [p.type, p.value] as const);
  const part = new Map(parts);
  return `${part.get('year')}-${part.get('month')}-${part.get('day')}`;
}

/** How the app addresses a user: their name, else the login before "@" (never the whole address). */
export function greetingName(user: { name?: string | null; login: string }): string {
  const name = user.name?.trim();
  if (name) return name;
  const at = user.login.indexOf('@');
  return at > 0 ? user.login.slice(0, at) : user.login;
}
