import type { CreateIntegrationBody, Integration, UpdateIntegrationBody } from '@leadrelay/shared';
import { keepPreviousData, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { hookKeys } from '../hooks/queries';
import { type IntegrationListParams, integrationsApi, listAllIntegrations, sendToWebhook } from './api';

/** Every key starts with 'integrations', so UPDATE_INTEGRATION (lib/realtime) refreshes them all. */
export const integrationKeys = {
  all: ['integrations'] as const,
  list: (q: IntegrationListParams) => ['integrations', 'list', q] as const,
  everything: ['integrations', 'everything'] as const,
  detail: (id: string) => ['integrations', 'detail', id] as const,
  destinations: (id: string) => ['integrations', 'destinations', id] as const,
  hook: (id: string) => ['integrations', 'hook', id] as const,
  catalogue: ['integrations', 'catalogue'] as const,
  categories: ['integrations', 'categories'] as const,
};
export const COLLECTIONS_KEY = ['collections', 'picker'] as const;

export function useIntegrationsQuery(q: IntegrationListParams) {
  return useQuery({
    queryKey: integrationKeys.list(q),
    queryFn: () => integrationsApi.list(q),
    placeholderData: keepPreviousData,
  });
}

export function useAllIntegrationsQuery() {
  return useQuery({ queryKey: integrationKeys.everything, queryFn: listAllIntegrations });
}

export function useIntegrationQuery(id: string | undefined) {
  return useQuery({
    queryKey: integrationKeys.detail(id ?? ''),
    queryFn: () => integrationsApi.get(id as string),
    enabled: Boolean(id),
  });
}

export function useDestinationsQuery(id: string) {
  return useQuery({ queryKey: integrationKeys.destinations(id), queryFn: () => integrationsApi.destinations(id) });
}

export function useWebhookUrlQuery(id: string, enabled: boolean) {
  return useQuery({
    queryKey: integrationKeys.hook(id),
    queryFn: () => integrationsApi.generateHook(id),
    enabled,
    staleTime: Number.POSITIVE_INFINITY,
  });
}

export function useCatalogueQuery() {
  return useQuery({ queryKey: integrationKeys.catalogue, queryFn: integrationsApi.catalogue, staleTime: 60_000 });
}

export function useCategoriesQuery() {
  return useQuery({ queryKey: integrationKeys.categories, queryFn: integrationsApi.categories, staleTime: 60_000 });
}

export function useCollectionsQuery() {
  return useQuery({ queryKey: COLLECTIONS_KEY, queryFn: integrationsApi.collections });
}

/** After a write: the detail gets the answer at once, every list refetches. */
/**
 * Keeps the saved integration and has every integrations query fetched again, without waiting
 * for those: a slow or failing one (a CRM's users list, say) must not keep the button that saved
 * spinning (it did, for over a minute, in the end-to-end suite).
 */
function useStoreIntegration() {
  const qc = useQueryClient();
  return (saved: Integration) => {
    qc.setQueryData(integrationKeys.detail(saved._id), saved);
    void qc.invalidateQueries({ queryKey: integrationKeys.all });
  };
}

export function useCreateIntegrationMutation() {
  const store = useStoreIntegration();
  return useMutation({ mutationFn: (body: CreateIntegrationBody) => integrationsApi.create(body), onSuccess: store });
}

export function useUpdateIntegrationMutation() {
  const store = useStoreIntegration();
  return useMutation({
    mutationFn: ({ id, body }: { id: string; body: UpdateIntegrationBody }) => integrationsApi.update(id, body),
    onSuccess: store,
  });
}

export function useDeleteIntegrationMutation() {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: (id: string) => integrationsApi.remove(id),
    onSuccess: () => qc.invalidateQueries({ queryKey: integrationKeys.all }),
  });
}

export function useDestinationMutation(sourceId: string) {
  const store = useStoreIntegration();
  return useMutation({
    mutationFn: ({ destination, add }: { destination: string; add: boolean }) =>
      add
        ? integrationsApi.addDestination(sourceId, destination)
        : integrationsApi.removeDestination(sourceId, destination),
    onSuccess: store,
  });
}

export function useConnectMutation(id: string) {
  const store = useStoreIntegration();
  return useMutation({
    mutationFn: (body: { auth?: Record<string, unknown>; settings?: Record<string, unknown> }) =>
      integrationsApi.connect(id, body),
    onSuccess: (result) => store(result.integration),
  });
}

export function useCheckConnectionMutation(id: string) {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: () => integrationsApi.checkConnection(id),
    onSuccess: () => qc.invalidateQueries({ queryKey: integrationKeys.all }),
  });
}

export function useSendTestLeadMutation() {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: ({ token, sample }: { token: string; sample: Record<string, unknown> }) => sendToWebhook(token, sample),
    onSettled: () => qc.invalidateQueries({ queryKey: hookKeys.all }),
  });
}
