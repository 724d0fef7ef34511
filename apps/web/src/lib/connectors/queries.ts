// A connector's own calls, the same for every connector (ADR 014): a list its loader fills (a
// balance, pipelines), an action its screen calls (a test lead), the records it keeps (an SMS log).
// Keys start with 'integrations', so UPDATE_INTEGRATION (a reconnect, a broken connection) refreshes
// them with the integration itself.
import type { Integration } from '@leadrelay/shared';
import { keepPreviousData, useMutation, useQuery } from '@tanstack/react-query';
import { api } from '../http';

const part = encodeURIComponent;

/** A page of a connector's records, each with its kind's own fields. */
export interface ConnectorRecord {
  _id: string;
  status: string;
  createdAt: string;
  [field: string]: unknown;
}

export interface RecordsParams {
  page: number;
  limit: number;
  status?: string;
}

/** GET /api/integrations/:id/:type/lists/:list of a connected integration; asked again at most once a minute. */
export const useConnectorList = (i: Integration, list: string | undefined) =>
  useQuery({
    queryKey: ['integrations', i._id, 'lists', list ?? ''],
    queryFn: () => api.get<unknown>(`/api/integrations/${part(i._id)}/${part(i.type)}/lists/${part(list ?? '')}`),
    enabled: i.isConnected && Boolean(list),
    staleTime: 60_000,
    retry: false,
  });

/** GET /api/integrations/:id/records/:kind, newest first. */
export const useConnectorRecords = (id: string, kind: string, q: RecordsParams) =>
  useQuery({
    queryKey: ['integrations', id, 'records', kind, q],
    queryFn: () =>
      api.get<{ data: ConnectorRecord[]; total: number }>(`/api/integrations/${part(id)}/records/${part(kind)}`, {
        ...q,
      }),
    placeholderData: keepPreviousData,
  });

/** POST /api/integrations/:id/actions/:action with the action's body; its JSON answer. */
export const useConnectorAction = (id: string, action: string) =>
  useMutation({
    mutationFn: (body: Record<string, unknown>) =>
      api.post<unknown>(`/api/integrations/${part(id)}/actions/${part(action)}`, body),
  });
