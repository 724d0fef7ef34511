import type { PlanBody, PlanPatch } from '@leadrelay/shared';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { PLANS_KEY } from '../../lib/plans';
import { plansApi } from './api';

export { usePlansQuery } from '../../lib/plans';

export const planKeys = {
  all: ['plans'] as const,
  list: PLANS_KEY,
  limits: ['plans', 'limits'] as const,
};

export function usePlanLimitsQuery() {
  return useQuery({ queryKey: planKeys.limits, queryFn: plansApi.limits });
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
