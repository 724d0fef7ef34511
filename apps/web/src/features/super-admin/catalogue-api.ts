import type { Category, Module, Setting } from '@leadrelay/shared';
import { api, http } from '../../lib/http';

const BASE = '/api/legacy/api/admin/integration';
const id = (v: string) => encodeURIComponent(v);

export interface SettingInput {
  slug?: string;
  name: string;
  kind?: 'source' | 'destination';
  categoryId: string | null;
  hidden: boolean;
  destinations: string[];
  tags: string[];
}

export const catalogueApi = {
  createCategory: (body: { name: string; order?: number }) => api.post<Category>(`${BASE}/categories`, body),
  updateCategory: (categoryId: string, body: { name?: string; order?: number }) =>
    http<Category>(`${BASE}/categories/${id(categoryId)}`, { method: 'PUT', body }),
  deleteCategory: (categoryId: string) => api.delete<{ success: true }>(`${BASE}/categories/${id(categoryId)}`),
  createSetting: (body: SettingInput) => api.post<Setting>(`${BASE}/settings`, body),
  updateSetting: (settingId: string, { slug: _slug, kind: _kind, ...body }: SettingInput) =>
    http<Setting>(`${BASE}/settings/${id(settingId)}`, { method: 'PUT', body }),
  deleteSetting: (settingId: string) => api.delete<{ success: true }>(`${BASE}/settings/${id(settingId)}`),
  modules: (settingId: string) => api.get<Module[]>(`${BASE}/modules`, { settingId }),
  createModule: (body: { settingId: string; name: string; slug?: string | null }) =>
    api.post<Module>(`${BASE}/modules`, body),
  updateModule: (moduleId: string, body: { name?: string; slug?: string | null }) =>
    http<Module>(`${BASE}/modules/${id(moduleId)}`, { method: 'PUT', body }),
  deleteModule: (moduleId: string) => api.delete<{ success: true }>(`${BASE}/modules/${id(moduleId)}`),
  sortModules: (ids: string[]) => api.post<Module[]>('/api/admin/integration/modules/sort', { ids }),
};
