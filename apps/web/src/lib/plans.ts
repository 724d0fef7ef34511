// The plans on offer (GET /api/plans): the plan page shows them, and paying (the billing page's
// "renew now") needs the current plan's price, so the list lives below the features.
import type { Plan } from '@leadrelay/shared';
import { useQuery } from '@tanstack/react-query';
import { api } from './http';

export const PLANS_KEY = ['plans', 'list'] as const;

/** Active plans first, each group by annual price ascending; inactive ones marked. */
export const fetchPlans = () => api.get<Plan[]>('/api/plans');

export function usePlansQuery() {
  return useQuery({ queryKey: PLANS_KEY, queryFn: fetchPlans });
}
