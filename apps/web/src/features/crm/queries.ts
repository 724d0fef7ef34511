// The "CRM store" of spec section 3 (apiToken stays on the server; dealFields, users, webhooks here)
// is this query cache. Keys start with 'integrations', so UPDATE_INTEGRATION (a reconnect, a
// broken connection) refreshes them with the integration itself.
import type { Integration, UspacyTarget } from '@leadrelay/shared';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { integrationsApi } from '../../lib/integrations/api';
import { integrationKeys } from '../../lib/integrations/queries';
import { amoApi, type CrmUser, createUsersCollection, crmWatchApi, pipedriveApi, uspacyApi } from './api';

export const crmKeys = {
  all: (id: string) => ['integrations', 'crm', id] as const,
  amo: (id: string, what: 'users' | 'pipelines' | 'fields' | 'backups') =>
    ['integrations', 'crm', id, 'amo', what] as const,
  pd: (id: string, what: string) => ['integrations', 'crm', id, 'pipedrive', what] as const,
  us: (id: string, what: string) => ['integrations', 'crm', id, 'uspacy', what] as const,
  watch: (id: string) => ['integrations', 'crm', id, 'watch'] as const,
};

/** Our stage-change webhook at the CRM; a reconnect (UPDATE_INTEGRATION) reads it again. */
export const useCrmWatch = (i: Integration) =>
  useQuery({ queryKey: crmKeys.watch(i._id), queryFn: () => crmWatchApi.get(i._id), enabled: i.isConnected });

/** CRM data is read only from a connected integration; five minutes is fresh enough for pickers. */
const crmQuery = (integration: Integration) => ({ enabled: integration.isConnected, staleTime: 5 * 60_000 });

export const useAmoUsers = (i: Integration) =>
  useQuery({ queryKey: crmKeys.amo(i._id, 'users'), queryFn: () => amoApi.users(i._id), ...crmQuery(i) });
export const useAmoPipelines = (i: Integration) =>
  useQuery({ queryKey: crmKeys.amo(i._id, 'pipelines'), queryFn: () => amoApi.pipelines(i._id), ...crmQuery(i) });
export const useAmoFields = (i: Integration) =>
  useQuery({ queryKey: crmKeys.amo(i._id, 'fields'), queryFn: () => amoApi.fields(i._id), ...crmQuery(i) });
export const useAmoBackups = (i: Integration) =>
  useQuery({ queryKey: crmKeys.amo(i._id, 'backups'), queryFn: () => amoApi.backups(i._id), ...crmQuery(i) });

export const usePipedriveFields = (i: Integration, kind: 'deal' | 'person' | 'organization') =>
  useQuery({
    queryKey: crmKeys.pd(i._id, `${kind}Fields`),
    queryFn: () => pipedriveApi.fields(kind, i._id),
    ...crmQuery(i),
  });
export const usePipedrivePipelines = (i: Integration) =>
  useQuery({ queryKey: crmKeys.pd(i._id, 'pipelines'), queryFn: () => pipedriveApi.pipelines(i._id), ...crmQuery(i) });
export const usePipedriveUsers = (i: Integration) =>
  useQuery({ queryKey: crmKeys.pd(i._id, 'users'), queryFn: () => pipedriveApi.users(i._id), ...crmQuery(i) });
export const usePipedriveActivityTypes = (i: Integration) =>
  useQuery({
    queryKey: crmKeys.pd(i._id, 'activityTypes'),
    queryFn: () => pipedriveApi.activityTypes(i._id),
    ...crmQuery(i),
  });
export const usePipedriveWebhooks = (i: Integration) =>
  useQuery({ queryKey: crmKeys.pd(i._id, 'webhooks'), queryFn: () => pipedriveApi.webhooks(i._id), ...crmQuery(i) });

export const useUspacyFunnels = (i: Integration, target: UspacyTarget) =>
  useQuery({
    queryKey: crmKeys.us(i._id, `${target}Funnels`),
    queryFn: () => uspacyApi.funnels(target, i._id),
    ...crmQuery(i),
  });
export const useUspacyFields = (i: Integration) =>
  useQuery({ queryKey: crmKeys.us(i._id, 'fields'), queryFn: () => uspacyApi.fields(i._id), ...crmQuery(i) });
export const useUspacyUsers = (i: Integration) =>
  useQuery({ queryKey: crmKeys.us(i._id, 'users'), queryFn: () => uspacyApi.users(i._id), ...crmQuery(i) });
/** How it is connected (no secret): read whenever the integration is, connected or not. */
export const useUspacyAccount = (i: Integration) =>
  useQuery({ queryKey: crmKeys.us(i._id, `account-${i.updatedAt}`), queryFn: () => uspacyApi.account(i._id) });

/** Connects (or reconnects) Uspacy; the integration and everything read from the portal are read again. */
export function useUspacyConnect() {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: uspacyApi.connect,
    onSuccess: () => qc.invalidateQueries({ queryKey: integrationKeys.all }),
  });
}

/** Saves the whole settings object through PUT …/connect (the server replaces it and checks the connection). */
export function useSaveCrmSettings(integration: Integration) {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: (settings: Record<string, unknown>) => integrationsApi.connect(integration._id, { settings }),
    onSuccess: (result) => {
      qc.setQueryData(integrationKeys.detail(integration._id), result.integration);
      // Saving settings does not change the CRM's own data: no need to ask it again.
      return qc.invalidateQueries({ queryKey: integrationKeys.all, predicate: (q) => q.queryKey[1] !== 'crm' });
    },
  });
}

export function useAmoConnect() {
  return useMutation({ mutationFn: (integrationId: string) => amoApi.connect(integrationId) });
}

export function useAmoBackupMutation(integrationId: string) {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: () => amoApi.createBackup(integrationId),
    onSuccess: () => qc.invalidateQueries({ queryKey: crmKeys.amo(integrationId, 'backups') }),
  });
}

/** Pipedrive's OAuth start: a state bound to the integration, then the authorisation URL. */
export function usePipedriveAuthUrl() {
  return useMutation({
    mutationFn: async (integrationId: string) => {
      const { state } = await pipedriveApi.state(integrationId);
      return (await pipedriveApi.start(state)).authUrl;
    },
  });
}

export function usePipedriveConnect() {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: pipedriveApi.connect,
    onSuccess: () => qc.invalidateQueries({ queryKey: integrationKeys.all }),
  });
}

export function usePipedriveWebhookMutations(integrationId: string) {
  const qc = useQueryClient();
  const refresh = () => qc.invalidateQueries({ queryKey: crmKeys.pd(integrationId, 'webhooks') });
  return {
    create: useMutation({
      mutationFn: (body: { url: string; event: string; name?: string }) =>
        pipedriveApi.createWebhook(integrationId, body),
      onSuccess: refresh,
    }),
    remove: useMutation({
      mutationFn: (webhookId: string) => pipedriveApi.deleteWebhook(integrationId, webhookId),
      onSuccess: refresh,
    }),
  };
}

export function useUsersCollectionMutation() {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: ({ name, users }: { name: string; users: CrmUser[] }) => createUsersCollection(name, users),
    onSuccess: () => qc.invalidateQueries({ queryKey: ['collections'] }),
  });
}
