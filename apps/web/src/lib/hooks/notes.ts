// Team notes on a lead in the lead log (POST /api/legacy/api/comment).
import type { Comment } from '@leadrelay/shared';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { api } from '../http';

const BASE = '/api/legacy/api/comment';

export const notesApi = {
  list: (hookId: string) => api.get<Comment[]>(BASE, { hookId }),
  add: (hookId: string, text: string) => api.post<Comment>(BASE, { hookId, text }),
  remove: (id: string) => api.delete<{ success: true }>(`${BASE}/${encodeURIComponent(id)}`),
};

const notesKey = (hookId: string) => ['notes', hookId] as const;

export function useNotesQuery(hookId: string) {
  return useQuery({ queryKey: notesKey(hookId), queryFn: () => notesApi.list(hookId) });
}

export function useAddNoteMutation(hookId: string) {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: (text: string) => notesApi.add(hookId, text),
    onSuccess: () => qc.invalidateQueries({ queryKey: notesKey(hookId) }),
  });
}

export function useDeleteNoteMutation(hookId: string) {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: (id: string) => notesApi.remove(id),
    onSuccess: () => qc.invalidateQueries({ queryKey: notesKey(hookId) }),
  });
}
