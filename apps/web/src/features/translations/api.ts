import type { LocaleAddBody, LocaleEntry, Translation, TranslationList, TranslationSaveBody } from '@leadrelay/shared';
import { api, http } from '../../lib/http';

const BASE = '/api/legacy/api/super-admin/languages';

export interface TranslationsParams {
  page: number;
  limit: number;
  search?: string;
  namespace?: string;
  untranslated?: 'true';
}

export const translationsApi = {
  languages: () => api.get<{ data: LocaleEntry[]; total: number }>(BASE),
  addLanguage: (body: LocaleAddBody) => api.post<LocaleEntry>(`${BASE}/add`, body),
  list: (locale: string, q: TranslationsParams) =>
    api.get<TranslationList>(`${BASE}/translates/${encodeURIComponent(locale)}`, { ...q }),
  save: (body: TranslationSaveBody) => api.post<{ data: Translation[] }>(`${BASE}/translates`, body),
  update: (id: string, value: string) =>
    http<Translation>(`${BASE}/translates/${encodeURIComponent(id)}`, { method: 'PUT', body: { value } }),
  remove: (id: string) => api.delete<{ success: true }>(`${BASE}/translates/${encodeURIComponent(id)}`),
};
