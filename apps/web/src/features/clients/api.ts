import type {
  Client,
  ClientList,
  ClientPatchBody,
  ClientStatistic,
  CreateClientBody,
  EnterSession,
  UserCounters,
} from '@leadrelay/shared';
import { api, http } from '../../lib/http';

const LEGACY = '/api/legacy/api/super-admin/users';
const SUPER = '/api/super/users';
const id = (value: string) => encodeURIComponent(value);

export interface ClientsParams {
  page: number;
  limit: number;
  search?: string;
  status?: 'active' | 'inactive' | 'deleted';
  plan?: string;
  sort?: string;
}

export const clientsApi = {
  count: () => api.get<UserCounters>(`${LEGACY}/count`),
  list: (q: ClientsParams) => api.get<ClientList>(LEGACY, { ...q }),
  create: (body: CreateClientBody) => api.post<{ user: Client; password: string }>(LEGACY, body),
  statistic: (userId: string) => api.get<ClientStatistic>(`${LEGACY}/${id(userId)}/statistic`),
  enter: (userId: string) => api.get<EnterSession>(`${SUPER}/enter`, { id: userId }),
  resetPassword: (userId: string) => api.post<{ success: true }>(`${SUPER}/${id(userId)}/reset-password`),
  patch: (userId: string, body: ClientPatchBody) => api.patch<Client>(`${SUPER}/${id(userId)}`, body),
  remove: (userId: string) => api.delete<{ success: true }>(`${SUPER}/${id(userId)}`),
  hardDelete: (userId: string, confirm: string) =>
    http<{ success: true }>(`${SUPER}/${id(userId)}/hard-delete`, { method: 'DELETE', body: { confirm } }),
  orphans: () => api.delete<{ removed: Record<string, number>; total: number }>(`${SUPER}/orphaned-documents`),
};
