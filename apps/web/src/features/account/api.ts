import type { AccountPatchBody, ApiKeyList, CreateApiKeyBody, CreatedApiKey, Session, User } from '@leadrelay/shared';
import { api } from '../../lib/http';

type Ok = { success: true };

export const accountApi = {
  get: () => api.get<User>('/api/account'),
  patch: (body: AccountPatchBody) => api.patch<User>('/api/account', body),
  updatePassword: (body: { oldPassword: string; password: string; passwordConfirm: string }) =>
    api.post<Ok>('/api/account/update-password', body),
  clearAllData: (password: string) => api.post<Ok>('/api/account/clear-all-data', { password }),
  removeAccount: (password: string) => api.post<Ok>('/api/account/remove-account', { password }),
  sessions: () => api.get<{ data: Session[]; total: number }>('/api/auth/sessions'),
  revokeSession: (id: string) => api.delete<Ok>(`/api/auth/sessions/${encodeURIComponent(id)}`),
  revokeAll: () => api.post<Ok>('/api/auth/sessions/revoke-all'),
  apiKeys: () => api.get<ApiKeyList>('/api/account/api-keys'),
  createApiKey: (body: CreateApiKeyBody) => api.post<CreatedApiKey>('/api/account/api-keys', body),
  revokeApiKey: (id: string) => api.delete<Ok>(`/api/account/api-keys/${encodeURIComponent(id)}`),
};
