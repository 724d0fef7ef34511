// The calls of a connector's own connect and of a source's screen (ADR 014), the same for every
// connector: the state a path of ours answers (GET /api/integrations/:id/source, or a path the
// manifest names), credentials typed in and sent once (POST /api/integrations/:id/connect, or the
// manifest's path), and a source's subscription and poll now.
import type { Integration } from '@leadrelay/shared';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { api } from '../http';
import { integrationKeys } from '../integrations/queries';

/** What a source's screen reads (kit/source.ts `state`). */
export const SOURCE_STATE_PATH = '/api/integrations/:id/source';
const CONNECT_PATH = '/api/integrations/:id/connect';

/** A path of ours with the integration's id in place of `:id`. */
export const ownPath = (path: string, id: string) => path.replaceAll(':id', encodeURIComponent(id));

/**
 * A state's key. A live one (a source's: every new item is a hook) sits under 'hooks', so
 * HOOK_INFORMER (lib/realtime) refreshes it as items arrive. `version`: what else the state depends
 * on (whether the integration is connected), so it is read again when that changes.
 */
export const ownStateKey = (id: string, path: string, live: boolean, version?: string) => {
  const key = live ? ['hooks', 'connector-state', id, path] : ['connector-state', id, path];
  return version === undefined ? key : [...key, version];
};

/** GET of a state path; a live one is also asked again every minute (a subscription's state, the last poll). */
export const useOwnState = (id: string, path: string, live: boolean, version?: string) =>
  useQuery({
    queryKey: ownStateKey(id, path, live, version),
    queryFn: () => api.get<unknown>(ownPath(path, id)),
    refetchInterval: live ? 60_000 : false,
  });

/**
 * Credentials typed in, sent once; `idField` puts the integration's id in the body. The state is the
 * answer (`answersState`) or is read again.
 */
export function useOwnConnect(
  id: string,
  submit: { path: string; idField?: string; answersState?: boolean } | undefined,
  state: { path: string; live: boolean; version?: string },
) {
  const qc = useQueryClient();
  const stateKey = ownStateKey(id, state.path, state.live, state.version);
  return useMutation({
    mutationFn: (values: Record<string, unknown>) =>
      api.post<unknown>(
        ownPath(submit?.path ?? CONNECT_PATH, id),
        submit?.idField ? { ...values, [submit.idField]: id } : values,
      ),
    onSuccess: (answer) => {
      if (submit?.answersState) qc.setQueryData(stateKey, answer);
      else {
        const saved = (answer as { data?: { integration?: Integration } } | undefined)?.data?.integration;
        if (saved) qc.setQueryData(integrationKeys.detail(id), saved);
        void qc.invalidateQueries({ queryKey: stateKey });
      }
      void qc.invalidateQueries({ queryKey: integrationKeys.all });
    },
  });
}

const SOURCE_CALLS = {
  subscribe: { method: 'post', path: '/source/subscription' },
  unsubscribe: { method: 'delete', path: '/source/subscription' },
  poll: { method: 'post', path: '/source/poll' },
} as const;

/** A source's subscription registered or removed, or a poll now: each answers the state, shown at once. */
export function useSourceCall(id: string, call: keyof typeof SOURCE_CALLS) {
  const qc = useQueryClient();
  const { method, path } = SOURCE_CALLS[call];
  return useMutation({
    mutationFn: () => api[method]<{ data: unknown }>(`/api/integrations/${encodeURIComponent(id)}${path}`),
    onSuccess: ({ data }) => {
      qc.setQueryData(ownStateKey(id, SOURCE_STATE_PATH, true), data);
      // A poll may mark the integration broken, or mend it.
      if (call === 'poll') void qc.invalidateQueries({ queryKey: integrationKeys.detail(id) });
    },
  });
}
