import type {
  HookDetail,
  HookList,
  HookListQuery,
  HookTotals,
  ReactionKind,
  ReactionResult,
  StatisticPage,
} from '@leadrelay/shared';
import { api, http } from '../http';

/** The list query as the client sends it (page/limit required, the rest optional). */
export type HooksParams = Pick<HookListQuery, 'page' | 'limit'> & Partial<Omit<HookListQuery, 'page' | 'limit'>>;

export const hooksApi = {
  list: (q: HooksParams) => api.get<HookList>('/api/hook', { ...q, search: q.search?.trim() || undefined }),
  total: () => api.get<HookTotals>('/api/hook/total'),
  get: (id: string) => api.get<HookDetail>(`/api/hook/${encodeURIComponent(id)}`),
  statistic: (q: { page: number; limit: number }) => api.get<StatisticPage>('/api/legacy/api/admin/statistic', q),
  /** POST /api/hook {ids}: remove the selected hooks. */
  remove: (ids: string[]) => api.post<{ deleted: number }>('/api/hook', { ids }),
  /** DELETE /api/hook: remove every hook of the account. */
  removeAll: () => api.delete<{ deleted: number }>('/api/hook'),
  /** PUT /api/hook {ids}: deliver the selected hooks again. */
  renew: (ids: string[]) => http<{ renewed: number }>('/api/hook', { method: 'PUT', body: { ids } }),
  /** POST /api/hook/:id/reaction: a manager took the lead or called back, from the web (issue 19). */
  react: (id: string, kind: ReactionKind) =>
    api.post<ReactionResult>(`/api/hook/${encodeURIComponent(id)}/reaction`, { kind }),
};
