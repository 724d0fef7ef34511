import type { Hook } from '@leadrelay/shared';
import { calendarDayIn, displayTimeZone, intlLocale } from '../format';

/** Date and time in the active locale and the account's time zone, e.g. "22.11.2026, 14:05:09". */
export function formatDateTime(iso: string | null | undefined): string {
  if (!iso) return '';
  return new Intl.DateTimeFormat(intlLocale(), {
    dateStyle: 'short',
    timeStyle: 'medium',
    timeZone: displayTimeZone(),
  }).format(new Date(iso));
}

/** Date and time without seconds (and without the year when it is this year), for narrow columns. */
export function formatShortDateTime(iso: string, now = new Date()): string {
  const d = new Date(iso);
  const zone = displayTimeZone();
  const yearOf = (date: Date) =>
    calendarDayIn(date, zone ?? Intl.DateTimeFormat().resolvedOptions().timeZone).slice(0, 4);
  return new Intl.DateTimeFormat(intlLocale(), {
    day: '2-digit',
    month: '2-digit',
    ...(yearOf(d) === yearOf(now) ? {} : { year: '2-digit' as const }),
    hour: '2-digit',
    minute: '2-digit',
    timeZone: zone,
  }).format(d);
}

/** A short moment: time only when it is today, otherwise date and time. */
export function formatMoment(iso: string, now = new Date()): string {
  const d = new Date(iso);
  const zone = displayTimeZone();
  const dayOf = (date: Date) => calendarDayIn(date, zone ?? Intl.DateTimeFormat().resolvedOptions().timeZone);
  const sameDay = dayOf(d) === dayOf(now);
  return new Intl.DateTimeFormat(
    intlLocale(),
    sameDay ? { timeStyle: 'short', timeZone: zone } : { dateStyle: 'short', timeStyle: 'short', timeZone: zone },
  ).format(d);
}

const text = (v: unknown) => (typeof v === 'string' && v.trim() ? v.trim() : undefined);

const record = (v: unknown): Record<string, unknown> =>
  v && typeof v === 'object' && !Array.isArray(v) ? (v as Record<string, unknown>) : {};

/**
 * Name, phone and e-mail of the normalised lead, whichever are present. A filtered or duplicate
 * event stores no lead: its raw body stands in, so the row still says who it was.
 */
export function leadSummary(hook: Pick<Hook, 'lead' | 'request'>): { name?: string; phone?: string; email?: string } {
  const lead = hook.lead ?? record(record(hook.request).body);
  return { name: text(lead.name), phone: text(lead.phone), email: text(lead.email) };
}

/** Pretty JSON for a trace or a raw request; strings stay as they are. */
export function pretty(value: unknown): string {
  if (typeof value === 'string') return value;
  return JSON.stringify(value, null, 2) ?? '';
}
