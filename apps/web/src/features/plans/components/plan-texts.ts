import type { Locale, Plan, PlanLimits } from '@leadrelay/shared';
import type { TFunction } from 'i18next';
import { formatNumber } from '../../../lib/format';

export const LIMIT_KEYS = ['leadsPerMonth', 'integrations', 'destinationsPerSource'] as const;
export type LimitKey = (typeof LIMIT_KEYS)[number];

/** "3 000 лідів на місяць", "Інтеграції без обмежень": one line per limit. */
export function limitTexts(limits: PlanLimits, t: TFunction<'plans'>): { key: LimitKey; text: string }[] {
  return LIMIT_KEYS.map((key) => {
    const value = limits[key];
    const text =
      value === null ? t(`limits.${key}Unlimited`) : t(`limits.${key}`, { count: value, n: formatNumber(value) });
    return { key, text };
  });
}

/** A plan's title in the interface language. */
export function planTitle(plan: Pick<Plan, 'title'>, locale: string): string {
  return plan.title[locale as Locale] ?? plan.title.uk;
}
