// Dates and numbers in the active language (house style: Intl, never hand-made formats).
import type { Locale } from '@leadrelay/shared';
import { currentLocale } from './locale';

/** The Intl locale of an interface language. */
export const intlLocale = (locale: Locale = currentLocale()): string => (locale === 'uk' ? 'uk-UA' : 'en-GB');

export function formatNumber(n: number, locale?: Locale): string {
  return new Intl.NumberFormat(intlLocale(locale)).format(n);
}

/**
 * The zone moments are shown in: the signed-in account's (issue 31: its days, and so its clock, are
 * the ones every screen shows), set when the profile is read; the browser's own before that.
 */
let displayZone: string | undefined;

/** Shows moments in this IANA zone from now on (undefined: the browser's); a zone this browser does not know is ignored. */
export function setDisplayZone(zone: string | undefined): void {
  if (!zone) {
    displayZone = undefined;
    return;
  }
  try {
    new Intl.DateTimeFormat('en', { timeZone: zone });
    displayZone = zone;
  } catch {
    displayZone = undefined;
  }
}

/** The zone moments are shown in (undefined: the browser's), for a format of its own. */
export const displayTimeZone = (): string | undefined => displayZone;

/** e.g. "22 лист. 2026 р., 14:05" / "22 Nov 2026, 14:05", in the account's time zone. */
export function formatDateTime(iso: string): string {
  return new Intl.DateTimeFormat(intlLocale(), {
    dateStyle: 'medium',
    timeStyle: 'short',
    timeZone: displayZone,
  }).format(new Date(iso));
}

/** e.g. "22 лист. 2026 р." / "22 Nov 2026", the day in the account's time zone. */
export function formatDate(iso: string): string {
  return new Intl.DateTimeFormat(intlLocale(), { dateStyle: 'medium', timeZone: displayZone }).format(new Date(iso));
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
