import { keepPreviousData, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { hookKeys } from '../../lib/hooks/queries';
import { type ErrorsParams, superErrorsApi } from './api';

/**
 * Error records change whenever a hook does, so their key starts with 'hooks' and the real-time
 * HOOK_INFORMER refreshes them too.
 */
export const superErrorKeys = {
  all: [...hookKeys.all, 'superErrors'] as const,
  list: (q: ErrorsParams) => [...hookKeys.all, 'superErrors', q] as const,
};

export function useSuperErrorsQuery(q: ErrorsParams) {
  return useQuery({
    queryKey: superErrorKeys.list(q),
    queryFn: () => superErrorsApi.list(q),
    placeholderData: keepPreviousData,
  });
}

export function useRestartErrorMutation() {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: (id: string) => superErrorsApi.restart(id),
    // The hook of the record changes too: refresh every hooks query, error records included.
    onSuccess: () => qc.invalidateQueries({ queryKey: hookKeys.all }),
  });
}
