import type { AccountPatchBody, CreateApiKeyBody } from '@leadrelay/shared';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { ME_KEY } from '../../lib/current-user';
import { accountApi } from './api';

const SESSIONS_KEY = ['sessions'] as const;
const API_KEYS_KEY = ['api-keys'] as const;

export function useSessionsQuery() {
  return useQuery({ queryKey: SESSIONS_KEY, queryFn: accountApi.sessions });
}

export function useUpdateProfileMutation() {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: (body: AccountPatchBody) => accountApi.patch(body),
    onSuccess: (user) => qc.setQueryData(ME_KEY, user),
  });
}

export function useRevokeSessionMutation() {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: (id: string | 'all') => (id === 'all' ? accountApi.revokeAll() : accountApi.revokeSession(id)),
    onSuccess: () => qc.invalidateQueries({ queryKey: SESSIONS_KEY }),
  });
}

export function useApiKeysQuery() {
  return useQuery({ queryKey: API_KEYS_KEY, queryFn: accountApi.apiKeys });
}

export function useCreateApiKeyMutation() {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: (body: CreateApiKeyBody) => accountApi.createApiKey(body),
    onSuccess: () => qc.invalidateQueries({ queryKey: API_KEYS_KEY }),
  });
}

export function useRevokeApiKeyMutation() {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: (id: string) => accountApi.revokeApiKey(id),
    onSuccess: () => qc.invalidateQueries({ queryKey: API_KEYS_KEY }),
  });
}
