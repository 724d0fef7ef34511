import type { Collection, CollectionItem } from '@leadrelay/shared';
import { api, http } from '../../lib/http';

export interface CollectionListParams {
  page: number;
  limit: number;
}

/** An item as the forms send it (the server gives a new item its id). */
export type CollectionItemInput = Omit<CollectionItem, 'id'> & { id?: string };

type Ok = { success: true };
const base = '/api/legacy/api/admin/collection';
const id = (value: string) => encodeURIComponent(value);

export const collectionsApi = {
  list: (q: CollectionListParams) => api.get<{ data: Collection[]; total: number }>(base, { ...q }),
  create: (name: string) => api.post<Collection>(base, { name }),
  /** PUT /:id: a new name and/or the whole item list (existing ids are kept). */
  update: (collectionId: string, body: { name?: string; items?: CollectionItemInput[] }) =>
    http<Collection>(`${base}/${id(collectionId)}`, { method: 'PUT', body }),
  remove: (collectionId: string) => api.delete<Ok>(`${base}/${id(collectionId)}`),
  addItem: (collectionId: string, item: Omit<CollectionItemInput, 'id'>) =>
    http<Collection>(`${base}/${id(collectionId)}/items`, { method: 'PUT', body: item }),
  removeItem: (collectionId: string, itemId: string) =>
    api.delete<Collection>(`${base}/${id(collectionId)}/items/${id(itemId)}`),
  /** The quick "away" switch of one member (issue 19). */
  setAway: (collectionId: string, itemId: string, away: boolean) =>
    http<Collection>(`${base}/${id(collectionId)}/items/${id(itemId)}/away`, { method: 'PUT', body: { away } }),
};
