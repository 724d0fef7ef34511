import type { Locale, WorkingHours } from '@leadrelay/shared';
import { intlLocale } from '../../../lib/format';

/**
 * A week of shifts in a line, consecutive days with the same shifts together ("Mon–Fri 09:00–18:00;
 * Sat 10:00–14:00"); empty when no day has a shift.
 */
export function hoursSummary(hours: WorkingHours, locale: Locale): string {
  const format = new Intl.DateTimeFormat(intlLocale(locale), { weekday: 'short', timeZone: 'UTC' });
  const day = (d: number) => format.format(new Date(Date.UTC(2024, 0, 1 + d)));
  const spans = hours.week.map((shifts) => shifts.map((s) => `${s.from}–${s.to}`).join(', '));
  const parts: string[] = [];
  for (let d = 0; d < 7; ) {
    let end = d;
    while (end + 1 < 7 && spans[end + 1] === spans[d]) end++;
    if (spans[d]) parts.push(`${end > d ? `${day(d)}–${day(end)}` : day(d)} ${spans[d]}`);
    d = end + 1;
  }
  return parts.join('; ');
}
