// The plans on offer (GET /api/plans): the plan page shows them, and paying (the billing page's
// "renew now") needs the current plan's price, so the list lives below the features.
import type { Locale, Plan, User } from '@leadrelay/shared';
import { useQuery } from '@tanstack/react-query';
import { api } from './http';

export const PLANS_KEY = ['plans', 'list'] as const;

/** Active plans first, each group by annual price ascending; inactive ones marked. */
export const fetchPlans = () => api.get<Plan[]>('/api/plans');

export function usePlansQuery() {
  return useQuery({ queryKey: PLANS_KEY, queryFn: fetchPlans });
}

/**
 * The paid plan's title in the page's language (the header, the dashboard and billing say the same);
 * the stored title, in the language the account paid in, when the plan's own titles are unknown.
 */
export function paidPlanTitle(user: Pick<User, 'subscription'>, locale: string): string | null {
  const sub = user.subscription;
  return sub ? (sub.titles?.[locale as Locale] ?? sub.title) : null;
}
