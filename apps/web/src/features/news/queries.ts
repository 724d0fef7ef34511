import { keepPreviousData, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { type NewPost, newsApi, type PostChange } from './api';

export const newsKeys = {
  all: ['news'] as const,
  list: (page: number, limit: number) => ['news', 'list', page, limit] as const,
  post: (id: string) => ['news', 'post', id] as const,
  analytics: (days: number) => ['news', 'analytics', days] as const,
};

export function usePostsQuery(page: number, limit: number) {
  return useQuery({
    queryKey: newsKeys.list(page, limit),
    queryFn: () => newsApi.list(page, limit),
    placeholderData: keepPreviousData,
  });
}

export function usePostQuery(id: string) {
  return useQuery({ queryKey: newsKeys.post(id), queryFn: () => newsApi.get(id), retry: false });
}

export function usePostAnalyticsQuery(days: number, enabled: boolean) {
  return useQuery({ queryKey: newsKeys.analytics(days), queryFn: () => newsApi.analytics(days), enabled });
}

export function useAddViewMutation() {
  return useMutation({ mutationFn: (id: string) => newsApi.addView(id) });
}

export function useCreatePostMutation() {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: (post: NewPost) => newsApi.create(post),
    onSuccess: () => qc.invalidateQueries({ queryKey: newsKeys.all }),
  });
}

export function useUpdatePostMutation() {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: ({ id, ...body }: PostChange & { id: string }) => newsApi.update(id, body),
    onSuccess: (post) => {
      qc.setQueryData(newsKeys.post(post._id), post);
      return qc.invalidateQueries({ queryKey: newsKeys.all });
    },
  });
}

export function useDeletePostMutation() {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: (id: string) => newsApi.remove(id),
    onSuccess: () => qc.invalidateQueries({ queryKey: newsKeys.all }),
  });
}
