import type { ReactionKind } from '@leadrelay/shared';
import { keepPreviousData, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { type HooksParams, hooksApi } from './api';

/** Every hooks query key starts with 'hooks' so real-time events refresh them all (lib/realtime). */
export const hookKeys = {
  all: ['hooks'] as const,
  list: (q: HooksParams) => ['hooks', 'list', q] as const,
  total: ['hooks', 'total'] as const,
  detail: (id: string) => ['hooks', 'detail', id] as const,
  statistic: (q: { page: number; limit: number }) => ['hooks', 'statistic', q] as const,
};

/** The dashboard's recent leads: how many, so the page can fetch them while the table's code loads. */
export const RECENT_HOOKS: HooksParams = { page: 1, limit: 5 };

export function useHooksQuery(q: HooksParams) {
  return useQuery({ queryKey: hookKeys.list(q), queryFn: () => hooksApi.list(q), placeholderData: keepPreviousData });
}

export function useHookTotalQuery() {
  return useQuery({ queryKey: hookKeys.total, queryFn: hooksApi.total });
}

export function useHookQuery(id: string | null | undefined) {
  return useQuery({
    queryKey: hookKeys.detail(id ?? ''),
    queryFn: () => hooksApi.get(id as string),
    enabled: Boolean(id),
  });
}

export function useStatisticQuery(q: { page: number; limit: number }) {
  return useQuery({
    queryKey: hookKeys.statistic(q),
    queryFn: () => hooksApi.statistic(q),
    placeholderData: keepPreviousData,
  });
}

function useInvalidateHooks() {
  const qc = useQueryClient();
  return () => qc.invalidateQueries({ queryKey: hookKeys.all });
}

export function useRemoveHooksMutation() {
  const invalidate = useInvalidateHooks();
  return useMutation({ mutationFn: (ids: string[]) => hooksApi.remove(ids), onSuccess: invalidate });
}

export function useRemoveAllHooksMutation() {
  const invalidate = useInvalidateHooks();
  return useMutation({ mutationFn: () => hooksApi.removeAll(), onSuccess: invalidate });
}

/** Records a reaction from the web; the lead log, the report and the dashboard's card follow. */
export function useReactMutation() {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: ({ id, kind }: { id: string; kind: ReactionKind }) => hooksApi.react(id, kind),
    onSuccess: () =>
      Promise.all([
        qc.invalidateQueries({ queryKey: hookKeys.all }),
        qc.invalidateQueries({ queryKey: ['speed-to-lead'] }),
      ]),
  });
}

export function useRenewHooksMutation() {
  const invalidate = useInvalidateHooks();
  return useMutation({ mutationFn: (ids: string[]) => hooksApi.renew(ids), onSuccess: invalidate });
}
