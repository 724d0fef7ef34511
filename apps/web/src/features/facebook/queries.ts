import type { FacebookSettings } from '@leadrelay/shared';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { integrationKeys } from '../../lib/integrations/queries';
import { facebookApi } from './api';

/** Spec 9: a profile or page picture is kept for 2 hours. */
export const AVATAR_CACHE_MS = 7_200_000;

/**
 * Keys start with 'facebook' (UPDATE_INTEGRATION in lib/realtime refreshes them); pictures have
 * their own prefix so a refresh does not ask for them again within their 2 hours.
 */
export const facebookKeys = {
  all: ['facebook'] as const,
  connections: ['facebook', 'connections'] as const,
  pageState: (cid: string, aid: string) => ['facebook', 'page', cid, aid] as const,
  leadForms: (cid: string, aid: string) => ['facebook', 'forms', cid, aid] as const,
  pageItems: ['facebook', 'pageItems'] as const,
  picture: (accountId: string) => ['facebook-picture', accountId] as const,
};

export function useFbConnectionsQuery() {
  return useQuery({ queryKey: facebookKeys.connections, queryFn: facebookApi.connections });
}

export function useFbPictureQuery(accountId: string) {
  return useQuery({
    queryKey: facebookKeys.picture(accountId),
    queryFn: () => facebookApi.picture(accountId),
    staleTime: AVATAR_CACHE_MS,
    gcTime: AVATAR_CACHE_MS,
    retry: false,
  });
}

export function useFbPageStateQuery(cid: string, aid: string, enabled = true) {
  return useQuery({
    queryKey: facebookKeys.pageState(cid, aid),
    queryFn: () => facebookApi.pageState(cid, aid),
    enabled: enabled && Boolean(cid && aid),
    staleTime: 60_000,
    retry: false,
  });
}

export function useFbLeadFormsQuery(cid: string | undefined, aid: string | undefined) {
  return useQuery({
    queryKey: facebookKeys.leadForms(cid ?? '', aid ?? ''),
    queryFn: () => facebookApi.leadForms(cid as string, aid as string),
    enabled: Boolean(cid && aid),
    staleTime: 60_000,
    retry: false,
  });
}

export function useFbPageItemsQuery() {
  return useQuery({ queryKey: facebookKeys.pageItems, queryFn: facebookApi.pageItems });
}

export function useSubscribeMutation() {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: ({ cid, aid, subscribe }: { cid: string; aid: string; subscribe: boolean }) =>
      subscribe ? facebookApi.subscribe(cid, aid) : facebookApi.unsubscribe(cid, aid),
    onSettled: () => qc.invalidateQueries({ queryKey: facebookKeys.all }),
  });
}

export function useRemoveConnectionMutation() {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: (cid: string) => facebookApi.removeConnection(cid),
    onSettled: () => {
      void qc.invalidateQueries({ queryKey: facebookKeys.all });
      return qc.invalidateQueries({ queryKey: integrationKeys.all });
    },
  });
}

export function useRefreshPagesMutation() {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: (cid: string) => facebookApi.accounts(cid, true),
    onSettled: () => qc.invalidateQueries({ queryKey: facebookKeys.all }),
  });
}

export function useCreateFbIntegrationMutation() {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: ({ name, settings }: { name: string; settings: FacebookSettings }) =>
      facebookApi.createIntegration(name, settings),
    onSuccess: (saved) => {
      qc.setQueryData(integrationKeys.detail(saved._id), saved);
      return qc.invalidateQueries({ queryKey: integrationKeys.all });
    },
  });
}

export function useMigrateMutation(integrationId: string) {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: (fbConnectionId: string) => facebookApi.migrate(integrationId, fbConnectionId),
    onSuccess: (saved) => {
      qc.setQueryData(integrationKeys.detail(saved._id), saved);
      return qc.invalidateQueries({ queryKey: integrationKeys.all });
    },
  });
}

export function useStartConnectMutation() {
  return useMutation({ mutationFn: facebookApi.start });
}
