import type { ParserConfigBody, ParserCreateBody, ParserRules, ParserUpdateBody } from '@leadrelay/shared';
import { keepPreviousData, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { parsersApi } from './api';

/**
 * Under 'hooks': every processed mail sends HOOK_INFORMER (lib/realtime refreshes every 'hooks'
 * query), so the list's last mail and the page's mail log follow the mail as it comes.
 */
export const parserKeys = {
  all: ['hooks', 'parsers'] as const,
  list: (q: object) => ['hooks', 'parsers', 'list', q] as const,
  one: (id: string) => ['hooks', 'parsers', 'one', id] as const,
  mails: (id: string, q: object) => ['hooks', 'parsers', 'mails', id, q] as const,
};

export function useParsersQuery(q: { page: number; limit: number; search?: string }) {
  return useQuery({
    queryKey: parserKeys.list(q),
    queryFn: () => parsersApi.list(q),
    placeholderData: keepPreviousData,
  });
}

export function useParserQuery(id: string) {
  return useQuery({ queryKey: parserKeys.one(id), queryFn: () => parsersApi.get(id), retry: false });
}

export function useParserMailsQuery(id: string, q: { page: number; limit: number }) {
  return useQuery({
    queryKey: parserKeys.mails(id, q),
    queryFn: () => parsersApi.mails(id, q),
    placeholderData: keepPreviousData,
    refetchInterval: 30_000,
  });
}

export function useParserDestinationsQuery() {
  return useQuery({ queryKey: ['parsers', 'destinations'], queryFn: () => parsersApi.destinations() });
}

/** What the sample yields under the rules being edited (the server decodes the mail as it would a real one). */
export function useParserPreviewQuery(
  id: string,
  source: { sample: string } | { mailId: string },
  rules: ParserRules | null,
) {
  const ready = 'mailId' in source || source.sample.trim() !== '';
  return useQuery({
    queryKey: ['parsers', 'preview', id, source, rules],
    queryFn: () => parsersApi.preview(id, { ...source, ...(rules ? { rules } : {}) }),
    enabled: ready && rules !== null,
    placeholderData: keepPreviousData,
    retry: false,
  });
}

export function useCreateParserMutation() {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: (body: ParserCreateBody) => parsersApi.create(body),
    onSuccess: () => qc.invalidateQueries({ queryKey: parserKeys.all }),
  });
}

export function useUpdateParserMutation(id: string) {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: (body: ParserUpdateBody) => parsersApi.update(id, body),
    onSuccess: (data) => {
      qc.setQueryData(parserKeys.one(id), data);
      void qc.invalidateQueries({ queryKey: parserKeys.all });
      void qc.invalidateQueries({ queryKey: ['integrations'] });
    },
  });
}

export function useConfigParserMutation(id: string) {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: (body: ParserConfigBody) => parsersApi.config(id, body),
    onSuccess: (data) => {
      qc.setQueryData(parserKeys.one(id), data);
      void qc.invalidateQueries({ queryKey: parserKeys.all });
    },
  });
}

export function useDeleteParserMutation() {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: (id: string) => parsersApi.remove(id),
    onSuccess: () => qc.invalidateQueries({ queryKey: parserKeys.all }),
  });
}

/** "Try again" on a failed mail: answered with what became of it; the mail log and the list follow. */
export function useRetryParserMailMutation(id: string) {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: (mailId: string) => parsersApi.retryMail(id, mailId),
    onSettled: () => qc.invalidateQueries({ queryKey: parserKeys.all }),
  });
}

export function usePollParserMutation(id: string) {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: () => parsersApi.poll(id),
    onSettled: () => qc.invalidateQueries({ queryKey: parserKeys.all }),
  });
}
