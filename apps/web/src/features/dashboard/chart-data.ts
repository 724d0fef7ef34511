import type { Locale, StatisticDay } from '@leadrelay/shared';
import { calendarDayIn, intlLocale } from '../../lib/format';

export const CHART_DAYS = 14;

export interface ChartDay {
  /** YYYY-MM-DD, a day in the account's time zone, as the statistic counts them. */
  day: string;
  /** Every lead that came in that day, in a bar's bucket or not (filtered, duplicate, accepted). */
  received: number;
  delivered: number;
  failed: number;
  pending: number;
  held: number;
}

const isoDay = (d: Date) => d.toISOString().slice(0, 10);

/**
 * The last `days` days ending today in the account's time zone `zone` (the statistic's days),
 * oldest first; a day the statistic does not list is all zeros, and days outside the window are left out.
 */
export function fillDays(
  stats: readonly StatisticDay[],
  zone: string,
  now: Date = new Date(),
  days = CHART_DAYS,
): ChartDay[] {
  const byDay = new Map(stats.map((s) => [s._id.slice(0, 10), s]));
  // Today's calendar date in the zone, then whole days back from it (calendar arithmetic in UTC).
  const today = Date.parse(`${calendarDayIn(now, zone)}T00:00:00Z`);
  const out: ChartDay[] = [];
  for (let i = days - 1; i >= 0; i--) {
    const day = isoDay(new Date(today - i * 86_400_000));
    const s = byDay.get(day);
    out.push({
      day,
      received: s?.received ?? 0,
      delivered: s?.delivered ?? 0,
      failed: s?.failed ?? 0,
      pending: s?.pending ?? 0,
      held: s?.held ?? 0,
    });
  }
  return out;
}

/**
 * What the chart says beside its bars: 'empty' when no lead came in, 'unrouted' when leads came in
 * but none is in a bar (all filtered, duplicates, or sent nowhere), so it never says "no leads"
 * while the received counter counts some.
 */
export function chartNote(days: readonly ChartDay[]): 'empty' | 'unrouted' | null {
  if (days.some((d) => d.delivered + d.failed + d.pending + d.held > 0)) return null;
  return days.some((d) => d.received > 0) ? 'unrouted' : 'empty';
}

const DAY_FORMATS: Record<'numeric' | 'short' | 'long', Intl.DateTimeFormatOptions> = {
  numeric: { day: '2-digit', month: '2-digit', timeZone: 'UTC' },
  short: { day: 'numeric', month: 'short', timeZone: 'UTC' },
  long: { weekday: 'short', day: 'numeric', month: 'long', timeZone: 'UTC' },
};

/** "12 лист." / "12 Nov" (or "12.11" / "12/11" on phones): a day in the active language. */
export function formatDay(day: string, locale: Locale, style: keyof typeof DAY_FORMATS = 'short'): string {
  const options = DAY_FORMATS[style];
  return new Intl.DateTimeFormat(intlLocale(locale), options).format(new Date(`${day}T00:00:00Z`));
}
