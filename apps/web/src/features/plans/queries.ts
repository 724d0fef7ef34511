import type { PlanBody, PlanPatch } from '@leadrelay/shared';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { plansApi } from './api';

export const planKeys = {
  all: ['plans'] as const,
  list: ['plans', 'list'] as const,
  limits: ['plans', 'limits'] as const,
  currency: ['currency'] as const,
};

export function usePlansQuery() {
  return useQuery({ queryKey: planKeys.list, queryFn: plansApi.list });
}

export function usePlanLimitsQuery() {
  return useQuery({ queryKey: planKeys.limits, queryFn: plansApi.limits });
}

/** The rate changes every few hours at most. */
export function useCurrencyRatesQuery() {
  return useQuery({ queryKey: planKeys.currency, queryFn: plansApi.currency, staleTime: 60 * 60_000 });
}

function useRefetchPlans() {
  const qc = useQueryClient();
  return () => qc.invalidateQueries({ queryKey: planKeys.all });
}

export function useCreatePlanMutation() {
  const onSuccess = useRefetchPlans();
  return useMutation({ mutationFn: (body: PlanBody) => plansApi.create(body), onSuccess });
}

export function useUpdatePlanMutation() {
  const onSuccess = useRefetchPlans();
  return useMutation({
    mutationFn: ({ id, body }: { id: string; body: PlanPatch }) => plansApi.update(id, body),
    onSuccess,
  });
}

export function useTogglePlanMutation() {
  const onSuccess = useRefetchPlans();
  return useMutation({ mutationFn: (id: string) => plansApi.toggle(id), onSuccess });
}

export function useDeletePlanMutation() {
  const onSuccess = useRefetchPlans();
  return useMutation({ mutationFn: (id: string) => plansApi.remove(id), onSuccess });
}
