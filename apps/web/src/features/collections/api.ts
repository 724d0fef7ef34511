import type { Collection, CollectionItem, TelegramBots, TelegramLinkCode } from '@leadrelay/shared';
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
    http<Collection>(`${base}/${id(collectionId)}`, {
      method: 'PUT',
      // A manager's Telegram link is the bot's to set: the list is sent without it (the server keeps it).
      body: body.items ? { ...body, items: body.items.map(({ telegram: _linked, ...item }) => item) } : body,
    }),
  remove: (collectionId: string) => api.delete<Ok>(`${base}/${id(collectionId)}`),
  addItem: (collectionId: string, item: Omit<CollectionItemInput, 'id'>) =>
    http<Collection>(`${base}/${id(collectionId)}/items`, { method: 'PUT', body: item }),
  removeItem: (collectionId: string, itemId: string) =>
    api.delete<Collection>(`${base}/${id(collectionId)}/items/${id(itemId)}`),
  // A manager's Telegram (issue 19): the account's bots, a one-time link code, unlinking.
  telegramBots: () => api.get<TelegramBots>('/api/telegram/bots'),
  telegramLinkCode: (body: { integrationId: string; collectionId: string; itemId: string }) =>
    api.post<TelegramLinkCode>('/api/telegram/link-codes', body),
  telegramUnlink: (body: { collectionId: string; itemId: string }) => api.post<Ok>('/api/telegram/unlink', body),
  /** The quick "away" switch of one member (issue 19). */
  setAway: (collectionId: string, itemId: string, away: boolean) =>
    http<Collection>(`${base}/${id(collectionId)}/items/${id(itemId)}/away`, { method: 'PUT', body: { away } }),
};
