// A connector's own calls, the same for every connector (ADR 014): a list its loader fills (a
// balance, pipelines), an action its screen calls (a test lead), the records it keeps (an SMS log).
// Keys start with 'integrations', so UPDATE_INTEGRATION (a reconnect, a broken connection) refreshes
// them with the integration itself.
import type { ServerCall } from '@leadrelay/connectors/manifest';
import type { Integration } from '@leadrelay/shared';
import { keepPreviousData, useMutation, useQueries, useQuery, useQueryClient } from '@tanstack/react-query';
import { api } from '../http';
import { integrationsApi } from '../integrations/api';
import { integrationKeys } from '../integrations/queries';
import { runCall } from './calls';

const part = encodeURIComponent;

// `variant`: the saved settings a list depends on (ListSelectField.dependsOn), so a change asks it again.
const listKey = (id: string, list: string, variant = '') => ['integrations', id, 'lists', list, variant] as const;
const listPath = (i: Integration, list: string) =>
  `/api/integrations/${part(i._id)}/${part(i.type)}/lists/${part(list)}`;

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
    queryKey: listKey(i._id, list ?? ''),
    queryFn: () => api.get<unknown>(listPath(i, list ?? '')),
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

/**
 * Several of a connected integration's lists at once (a CRM's pipelines, users, fields): read from
 * the CRM itself, so five minutes is fresh enough for pickers.
 */
export const useConnectorLists = (i: Integration, lists: readonly string[], variants?: ReadonlyMap<string, string>) =>
  useQueries({
    queries: lists.map((list) => ({
      queryKey: listKey(i._id, list, variants?.get(list)),
      queryFn: () => api.get<unknown>(listPath(i, list)),
      enabled: i.isConnected,
      staleTime: 5 * 60_000,
    })),
  });

/**
 * Saves the integration's settings (PUT …/connect): the saved integration at once, every other
 * integrations query asked again but its lists: saving settings does not change the CRM's own data.
 */
export function useSaveSettingsMutation(id: string) {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: (body: { settings: Record<string, unknown> }) => integrationsApi.connect(id, body),
    onSuccess: (result) => {
      qc.setQueryData(integrationKeys.detail(id), result.integration);
      void qc.invalidateQueries({ queryKey: integrationKeys.all, predicate: (q) => q.queryKey[2] !== 'lists' });
    },
  });
}

/** A connector's own call that reads (GET), as its manifest declares it; `key` tells answers of one call apart. */
export const useServerCallQuery = (
  i: Integration,
  call: ServerCall,
  options: { enabled?: boolean; key?: string } = {},
) =>
  useQuery({
    queryKey: ['integrations', i._id, 'call', call.path, options.key ?? ''],
    queryFn: () => runCall(call, i._id),
    enabled: options.enabled ?? true,
    staleTime: 5 * 60_000,
  });

/** A connector's own call that writes; `after` (a read call) is asked again once it answers. */
export function useServerCallMutation(i: Integration, call: ServerCall, after?: ServerCall) {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: ({ body, query }: { body?: Record<string, unknown>; query?: Record<string, string> }) =>
      runCall(call, i._id, body, query),
    onSuccess: () =>
      after ? qc.invalidateQueries({ queryKey: ['integrations', i._id, 'call', after.path] }) : undefined,
  });
}
