import type { LocaleAddBody, TranslationSaveBody } from '@leadrelay/shared';
import { keepPreviousData, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { type TranslationsParams, translationsApi } from './api';

export const translationKeys = {
  all: ['translations'] as const,
  languages: ['translations', 'languages'] as const,
  list: (locale: string, q: TranslationsParams) => ['translations', 'list', locale, q] as const,
};

export const useLanguagesQuery = () =>
  useQuery({ queryKey: translationKeys.languages, queryFn: () => translationsApi.languages() });

export const useTranslationsQuery = (locale: string, q: TranslationsParams) =>
  useQuery({
    queryKey: translationKeys.list(locale, q),
    queryFn: () => translationsApi.list(locale, q),
    placeholderData: keepPreviousData,
    enabled: Boolean(locale),
  });

export function useAddLanguageMutation() {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: (body: LocaleAddBody) => translationsApi.addLanguage(body),
    onSuccess: () => qc.invalidateQueries({ queryKey: translationKeys.languages }),
  });
}

export function useSaveTranslationMutation() {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: (body: TranslationSaveBody) => translationsApi.save(body),
    onSuccess: () => qc.invalidateQueries({ queryKey: translationKeys.all }),
  });
}

export function useRemoveTranslationMutation() {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: (id: string) => translationsApi.remove(id),
    onSuccess: () => qc.invalidateQueries({ queryKey: translationKeys.all }),
  });
}
