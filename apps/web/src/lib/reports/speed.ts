// Speed to lead as the screens read it (issue 19 part 2): the report's breakdown, used by the
// report page and by the dashboard's card, and how a reaction time is written.
import type { Locale, SpeedToLeadBreakdown } from '@leadrelay/shared';
import { useQuery } from '@tanstack/react-query';
import { intlLocale } from '../format';
import { api } from '../http';

export const speedKeys = {
  breakdown: (days: number) => ['speed-to-lead', 'breakdown', days] as const,
};

export const speedApi = {
  breakdown: (days: number) => api.get<SpeedToLeadBreakdown>('/api/report/speed-to-lead/breakdown', { days }),
};

export function useSpeedBreakdownQuery(days: number) {
  return useQuery({
    queryKey: speedKeys.breakdown(days),
    queryFn: () => speedApi.breakdown(days),
    placeholderData: (prev) => prev,
  });
}

const unit = (locale: Locale, u: 'minute' | 'hour', n: number) =>
  new Intl.NumberFormat(intlLocale(locale), { style: 'unit', unit: u, unitDisplay: 'short' }).format(n);

/** "7 хв", "1 год 5 хв", "< 1 хв" / "7 min", "1 hr 5 min"; '—' when there is nothing to measure. */
export function formatDuration(ms: number | null, locale: Locale): string {
  if (ms === null) return '—';
  const minutes = Math.round(ms / 60_000);
  // Under half a minute is not "0 min": the lead was taken at once.
  if (minutes === 0) return `< ${unit(locale, 'minute', 1)}`;
  if (minutes < 60) return unit(locale, 'minute', minutes);
  const rest = minutes % 60;
  return rest
    ? `${unit(locale, 'hour', Math.floor(minutes / 60))} ${unit(locale, 'minute', rest)}`
    : unit(locale, 'hour', minutes / 60);
}

/** A share (0–1) as a whole percentage in the language. */
export function formatShare(share: number, locale: Locale): string {
  return new Intl.NumberFormat(intlLocale(locale), { style: 'percent', maximumFractionDigits: 0 }).format(share);
}
