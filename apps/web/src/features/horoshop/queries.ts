import type { HoroshopAuthBody, HoroshopState } from '@leadrelay/shared';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { integrationKeys } from '../../lib/integrations/queries';
import { horoshopApi } from './api';

/**
 * Under 'hooks': every new order is a hook, and HOOK_INFORMER (lib/realtime) refreshes 'hooks'
 * queries, so the order list follows the shop live; a slow refetch catches the webhook's state.
 */
export const horoshopKeys = {
  state: (integrationId: string) => ['hooks', 'horoshop', integrationId] as const,
};

export function useHoroshopStateQuery(integrationId: string) {
  return useQuery({
    queryKey: horoshopKeys.state(integrationId),
    queryFn: () => horoshopApi.state(integrationId),
    refetchInterval: 60_000,
  });
}

/** After a call that answers the state: the page shows it at once. */
function useStoreState(integrationId: string) {
  const qc = useQueryClient();
  return ({ data }: { data: HoroshopState }) => qc.setQueryData(horoshopKeys.state(integrationId), data);
}

export function useHoroshopConnectMutation(integrationId: string) {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: (body: HoroshopAuthBody) => horoshopApi.connect(integrationId, body),
    onSuccess: ({ data }) => {
      qc.setQueryData(integrationKeys.detail(integrationId), data.integration);
      void qc.invalidateQueries({ queryKey: integrationKeys.all });
      void qc.invalidateQueries({ queryKey: horoshopKeys.state(integrationId) });
    },
  });
}

export function useRegisterWebhookMutation(integrationId: string) {
  return useMutation({
    mutationFn: () => horoshopApi.registerWebhook(integrationId),
    onSuccess: useStoreState(integrationId),
  });
}

export function useRemoveWebhookMutation(integrationId: string) {
  return useMutation({
    mutationFn: () => horoshopApi.removeWebhook(integrationId),
    onSuccess: useStoreState(integrationId),
  });
}

export function usePollNowMutation(integrationId: string) {
  const store = useStoreState(integrationId);
  const qc = useQueryClient();
  return useMutation({
    mutationFn: () => horoshopApi.pollNow(integrationId),
    onSuccess: (answer) => {
      store(answer);
      void qc.invalidateQueries({ queryKey: integrationKeys.detail(integrationId) });
    },
  });
}
