import type {
  Category,
  Collection,
  ConnectionCheck,
  CreateIntegrationBody,
  Integration,
  IntegrationList,
  Setting,
  UpdateIntegrationBody,
} from '@leadrelay/shared';
import { API_URL, api, HttpError, http } from '../http';

export interface IntegrationListParams {
  page: number;
  limit: number;
  type?: string;
  active?: 'true' | 'false';
  search?: string;
}

/** What the public webhook URL answers (ADR 002). */
export interface IngestReply {
  ok: true;
  hookId: string;
  status: string;
}

type Ok = { success: true };
const legacy = '/api/legacy/api/admin/integration';
const id = (value: string) => encodeURIComponent(value);

export const integrationsApi = {
  list: (q: IntegrationListParams) =>
    api.get<IntegrationList>('/api/integrations', { ...q, search: q.search?.trim() || undefined }),
  get: (integrationId: string) => api.get<Integration>(`/api/integrations/${id(integrationId)}`),
  create: (body: CreateIntegrationBody) => api.post<Integration>('/api/integrations', body),
  update: (integrationId: string, body: UpdateIntegrationBody) =>
    http<Integration>(`/api/integrations/${id(integrationId)}/update`, { method: 'PUT', body }),
  remove: (integrationId: string) => api.delete<Ok>(`${legacy}/${id(integrationId)}`),
  destinations: (integrationId: string) =>
    api.get<Integration[]>(`/api/integrations/${id(integrationId)}/destinations`),
  addDestination: (integrationId: string, destination: string) =>
    http<Integration>(`${legacy}/${id(integrationId)}/addDestination`, { method: 'PUT', body: { destination } }),
  removeDestination: (integrationId: string, destination: string) =>
    http<Integration>(`${legacy}/${id(integrationId)}/removeDestination`, { method: 'PUT', body: { destination } }),
  generateHook: (integrationId: string) =>
    api.get<{ url: string; token: string }>(`/api/integrations/${id(integrationId)}/generateHook`),
  checkConnection: (integrationId: string) =>
    api.post<ConnectionCheck>(`/api/admin/integration/${id(integrationId)}/check-connection`),
  connect: (integrationId: string, body: { auth?: Record<string, unknown>; settings?: Record<string, unknown> }) =>
    http<ConnectionCheck & { integration: Integration }>(`/api/admin/integration/${id(integrationId)}/connect`, {
      method: 'PUT',
      body,
    }),
  catalogue: () => api.get<Setting[]>(`${legacy}/settings`),
  categories: () => api.get<Category[]>(`${legacy}/categories`),
  collections: () =>
    api.get<{ data: Collection[]; total: number }>('/api/legacy/api/admin/collection', { page: 1, limit: 100 }),
};

/**
 * Posts a sample to the integration's own webhook URL, as a website form would: no session
 * header, so the hook is stored exactly as a real one.
 */
export async function sendToWebhook(token: string, sample: Record<string, unknown>): Promise<IngestReply> {
  const res = await fetch(`${API_URL}/api/hooks/in/${encodeURIComponent(token)}`, {
    method: 'POST',
    headers: { 'Content-Type': 'application/json', Accept: 'application/json' },
    body: JSON.stringify(sample),
  });
  const text = await res.text();
  let data: unknown = null;
  try {
    data = text ? JSON.parse(text) : null;
  } catch {
    data = { message: text };
  }
  if (!res.ok) throw new HttpError(res.status, data as never);
  return data as IngestReply;
}

/** Every integration of the account (the destinations picker needs all candidates, not one page). */
export async function listAllIntegrations(): Promise<Integration[]> {
  const limit = 100;
  const out: Integration[] = [];
  for (let page = 1; page <= 20; page++) {
    const res = await integrationsApi.list({ page, limit });
    out.push(...res.data);
    if (out.length >= res.total || res.data.length < limit) break;
  }
  return out;
}
