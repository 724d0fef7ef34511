// The calls of a lead-form source's account connections (kit/manifest-accounts.ts, ADR 014): the
// manifest names the paths and reads the answers; this file makes the calls, the same for every
// connector.
import type { AccountCall, AccountsScreen, LeadFormView } from '@leadrelay/connectors/manifest';
import type { Integration } from '@leadrelay/shared';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { http, type RequestOptions } from '../http';
import { integrationKeys } from '../integrations/queries';
import { currentLocale } from '../locale';
import { accountKeys } from './account-keys';

/** What fills a call's path and body. */
interface CallValues {
  id?: string;
  connection?: string;
  asset?: string;
  query?: Record<string, string>;
  body?: Record<string, unknown>;
}

const PLACES = ['id', 'connection', 'asset'] as const;

/** Makes the call: `:id`, `:connection`, `:asset` in the path; the body's named values; the fixed query. */
export function accountCall<T = unknown>(call: AccountCall, values: CallValues = {}): Promise<T> {
  let path = call.path;
  for (const place of PLACES) path = path.replaceAll(`:${place}`, encodeURIComponent(values[place] ?? ''));
  const query: RequestOptions['query'] = { ...call.query, ...values.query };
  const options: RequestOptions = { method: call.method, query };
  if (call.method === 'POST') {
    const named: [string, unknown][] = [];
    if (call.body?.connection) named.push([call.body.connection, values.connection]);
    if (call.body?.asset) named.push([call.body.asset, values.asset]);
    if (call.body?.locale) named.push([call.body.locale, currentLocale()]);
    options.body = { ...Object.fromEntries(named), ...values.body };
  }
  return http<T>(path, options);
}

type Screen = { slug: string; accounts: AccountsScreen };

export function useConnectionsQuery({ slug, accounts }: Screen) {
  return useQuery({
    queryKey: accountKeys.connections(slug),
    queryFn: async () => accounts.read.connections(await accountCall(accounts.calls.connections)),
  });
}

export function usePictureQuery({ slug, accounts }: Screen, accountId: string) {
  const { picture } = accounts.calls;
  return useQuery({
    queryKey: accountKeys.picture(slug, accountId),
    queryFn: () => accountCall<{ url?: string | null }>(picture, { query: { [picture.idQuery]: accountId } }),
    staleTime: picture.keepMs,
    gcTime: picture.keepMs,
    retry: false,
  });
}

export function useAssetQuery({ slug, accounts }: Screen, cid: string, aid: string, enabled = true) {
  return useQuery({
    queryKey: accountKeys.asset(slug, cid, aid),
    queryFn: async () => accounts.read.asset(await accountCall(accounts.calls.asset, { connection: cid, asset: aid })),
    enabled: enabled && Boolean(cid && aid),
    staleTime: 60_000,
    retry: false,
  });
}

export function useFormsQuery({ slug, accounts }: Screen, cid: string | undefined, aid: string | undefined) {
  return useQuery({
    queryKey: accountKeys.forms(slug, cid ?? '', aid ?? ''),
    queryFn: async () => accounts.read.forms(await accountCall(accounts.calls.forms, { connection: cid, asset: aid })),
    enabled: Boolean(cid && aid),
    staleTime: 60_000,
    retry: false,
  });
}

export function useItemsQuery({ slug, accounts }: Screen) {
  return useQuery({
    queryKey: accountKeys.items(slug),
    queryFn: async () => accounts.read.items(await accountCall(accounts.calls.items)),
  });
}

export function useSubscribeMutation({ slug, accounts }: Screen) {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: ({ cid, aid, subscribe }: { cid: string; aid: string; subscribe: boolean }) =>
      accountCall(subscribe ? accounts.calls.subscribe : accounts.calls.unsubscribe, { connection: cid, asset: aid }),
    onSettled: () => qc.invalidateQueries({ queryKey: accountKeys.all(slug) }),
  });
}

export function useRemoveConnectionMutation({ slug, accounts }: Screen) {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: (cid: string) => accountCall(accounts.calls.remove, { connection: cid }),
    onSettled: () => {
      void qc.invalidateQueries({ queryKey: accountKeys.all(slug) });
      return qc.invalidateQueries({ queryKey: integrationKeys.all });
    },
  });
}

export function useRefreshAssetsMutation({ slug, accounts }: Screen) {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: (cid: string) => accountCall(accounts.calls.refresh, { connection: cid }),
    onSettled: () => qc.invalidateQueries({ queryKey: accountKeys.all(slug) }),
  });
}

/** The connection, asset and form an integration takes leads from, as the manifest's settings name them. */
export interface FormChoice {
  connection: string;
  asset: string;
  form: string;
}

/** An integration's choice, empty strings where missing (an old or half-made row). */
export function choiceOf(accounts: AccountsScreen, integration: Pick<Integration, 'settings'>): FormChoice {
  const s = integration.settings as Record<string, unknown>;
  const str = (key: string) => {
    const v = Object.hasOwn(s, key) ? s[key] : undefined;
    return typeof v === 'string' ? v : '';
  };
  return {
    connection: str(accounts.settings.connection),
    asset: str(accounts.settings.asset),
    form: str(accounts.settings.form),
  };
}

const settingsOf = (accounts: AccountsScreen, choice: FormChoice) => ({
  [accounts.settings.connection]: choice.connection,
  [accounts.settings.asset]: choice.asset,
  [accounts.settings.form]: choice.form,
});

/** A new integration of the connector taking one form's leads (POST /api/integrations). */
export function useCreateFormIntegrationMutation({ slug, accounts }: Screen) {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: ({ name, choice }: { name: string; choice: FormChoice }) =>
      http<Integration>('/api/integrations', {
        method: 'POST',
        body: { type: slug, name, settings: settingsOf(accounts, choice) },
      }),
    onSuccess: (saved) => {
      qc.setQueryData(integrationKeys.detail(saved._id), saved);
      return qc.invalidateQueries({ queryKey: integrationKeys.all });
    },
  });
}

export function useMigrateMutation({ accounts }: Screen, integrationId: string) {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: (cid: string) =>
      accountCall<Integration>(accounts.calls.migrate, { id: integrationId, connection: cid }),
    onSuccess: (saved) => {
      qc.setQueryData(integrationKeys.detail(saved._id), saved);
      return qc.invalidateQueries({ queryKey: integrationKeys.all });
    },
  });
}

/** A test lead at the service on the integration's form, with an answer to each question when they are known. */
export function sendTestLead(
  { accounts }: Screen,
  integrationId: string,
  form: Pick<LeadFormView, 'questions'> | undefined,
) {
  const { testLead } = accounts.calls;
  const body = form ? { [testLead.answersField]: accounts.sample.answers(form) } : {};
  return accountCall(testLead, { id: integrationId, body });
}

export function useStartMutation({ accounts }: Screen) {
  return useMutation({
    mutationFn: async () => {
      const answer = await accountCall<Record<string, unknown>>(accounts.calls.start);
      const url = Object.hasOwn(answer, accounts.calls.start.url) ? answer[accounts.calls.start.url] : undefined;
      if (typeof url !== 'string') throw new Error('no sign-in page');
      return url;
    },
  });
}
