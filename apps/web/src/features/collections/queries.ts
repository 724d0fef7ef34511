import { keepPreviousData, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { integrationKeys } from '../../lib/integrations/queries';
import { type CollectionItemInput, type CollectionListParams, collectionsApi } from './api';

/** Every key starts with 'collections', so the integrations' distribution picker refreshes too. */
export const collectionKeys = {
  all: ['collections'] as const,
  list: (q: CollectionListParams) => ['collections', 'list', q] as const,
};

export function useCollectionsListQuery(q: CollectionListParams) {
  return useQuery({
    queryKey: collectionKeys.list(q),
    queryFn: () => collectionsApi.list(q),
    placeholderData: keepPreviousData,
  });
}

function useRefetchCollections() {
  const qc = useQueryClient();
  return () => qc.invalidateQueries({ queryKey: collectionKeys.all });
}

export function useCreateCollectionMutation() {
  const onSuccess = useRefetchCollections();
  return useMutation({ mutationFn: (name: string) => collectionsApi.create(name), onSuccess });
}

export function useUpdateCollectionMutation() {
  const onSuccess = useRefetchCollections();
  return useMutation({
    mutationFn: ({ id, ...body }: { id: string; name?: string; items?: CollectionItemInput[] }) =>
      collectionsApi.update(id, body),
    onSuccess,
  });
}

export function useDeleteCollectionMutation() {
  const onSuccess = useRefetchCollections();
  return useMutation({ mutationFn: (id: string) => collectionsApi.remove(id), onSuccess });
}

export function useAddItemMutation() {
  const onSuccess = useRefetchCollections();
  return useMutation({
    mutationFn: ({ id, item }: { id: string; item: Omit<CollectionItemInput, 'id'> }) =>
      collectionsApi.addItem(id, item),
    onSuccess,
  });
}

export function useRemoveItemMutation() {
  const onSuccess = useRefetchCollections();
  return useMutation({
    mutationFn: ({ id, itemId }: { id: string; itemId: string }) => collectionsApi.removeItem(id, itemId),
    onSuccess,
  });
}

/**
 * The account's Telegram bots, to link a collection's managers to (issue 19). Under 'integrations':
 * connecting a bot (the connector's page) refreshes them with the integrations.
 */
export function useTelegramBotsQuery() {
  return useQuery({
    queryKey: [...integrationKeys.all, 'telegram-bots'],
    queryFn: collectionsApi.telegramBots,
    staleTime: 30_000,
  });
}

export function useTelegramLinkCodeMutation() {
  return useMutation({ mutationFn: collectionsApi.telegramLinkCode });
}

export function useTelegramUnlinkMutation() {
  const onSuccess = useRefetchCollections();
  return useMutation({ mutationFn: collectionsApi.telegramUnlink, onSuccess });
}

export function useSetAwayMutation() {
  const onSuccess = useRefetchCollections();
  return useMutation({
    mutationFn: ({ id, itemId, away }: { id: string; itemId: string; away: boolean }) =>
      collectionsApi.setAway(id, itemId, away),
    onSuccess,
  });
}
