import type { ClientPatchBody, CreateClientBody } from '@leadrelay/shared';
import { keepPreviousData, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { type ClientsParams, clientsApi } from './api';

export const clientKeys = {
  all: ['superClients'] as const,
  list: (q: ClientsParams) => ['superClients', 'list', q] as const,
  count: ['superClients', 'count'] as const,
  statistic: (id: string) => ['superClients', 'statistic', id] as const,
};

export function useClientsQuery(q: ClientsParams) {
  return useQuery({
    queryKey: clientKeys.list(q),
    queryFn: () => clientsApi.list(q),
    placeholderData: keepPreviousData,
  });
}

export function useClientStatisticQuery(id: string | null) {
  return useQuery({
    queryKey: clientKeys.statistic(id ?? ''),
    queryFn: () => clientsApi.statistic(id as string),
    enabled: Boolean(id),
  });
}

/** Every change refreshes the list and its counters. */
function useClientMutation<T, R>(fn: (arg: T) => Promise<R>) {
  const qc = useQueryClient();
  return useMutation({ mutationFn: fn, onSuccess: () => qc.invalidateQueries({ queryKey: clientKeys.all }) });
}

export const useCreateClientMutation = () => useClientMutation((body: CreateClientBody) => clientsApi.create(body));
export const usePatchClientMutation = () =>
  useClientMutation(({ id, body }: { id: string; body: ClientPatchBody }) => clientsApi.patch(id, body));
export const useDeleteClientMutation = () => useClientMutation((id: string) => clientsApi.remove(id));
export const useHardDeleteClientMutation = () =>
  useClientMutation(({ id, confirm }: { id: string; confirm: string }) => clientsApi.hardDelete(id, confirm));
export const useOrphansMutation = () => useClientMutation(() => clientsApi.orphans());
export const useResetPasswordMutation = () => useMutation({ mutationFn: (id: string) => clientsApi.resetPassword(id) });
export const useEnterMutation = () => useMutation({ mutationFn: (id: string) => clientsApi.enter(id) });
