// Typed calls of spec section 7 "amoCRM" and "Pipedrive". Answers are read through the shared
// schemas (packages/shared/src/crm.ts); an entry that does not match is dropped, not shown half-read.
import type { Collection, CrmWatch } from '@leadrelay/shared';
import {
  type AmoBackup,
  type AmoFields,
  type AmoPipeline,
  type AmoUser,
  type PipedriveActivityType,
  type PipedriveField,
  type PipedrivePipeline,
  type PipedriveWebhook,
  type UspacyAccount,
  type UspacyConnectBody,
  type UspacyFields,
  type UspacyFunnel,
  type UspacyTarget,
  ZAmoBackup,
  ZAmoField,
  ZAmoPipeline,
  ZAmoUser,
  ZLoaderUsers,
  ZPipedriveActivityType,
  ZPipedriveField,
  ZPipedrivePipeline,
  ZPipedriveWebhook,
  ZUspacyAccount,
  ZUspacyField,
  ZUspacyFunnel,
  ZUspacyUser,
} from '@leadrelay/shared';
import type { z } from 'zod';
import { api, http } from '../../lib/http';
import { currentLocale } from '../../lib/locale';

const id = (value: string) => encodeURIComponent(value);
const amo = '/api/legacy/api/amocrm';
const pd = '/api/pipedrive';

/** The entries of a list answer, bare or wrapped in `{ data }`, that match the schema. */
export function listOf<T>(schema: z.ZodType<T>, raw: unknown): T[] {
  const items = Array.isArray(raw) ? raw : (raw as { data?: unknown } | null)?.data;
  if (!Array.isArray(items)) return [];
  return items.flatMap((item) => {
    const parsed = schema.safeParse(item);
    return parsed.success ? [parsed.data] : [];
  });
}

/** A user of the CRM, as the pickers show it (Pipedrive's loader sends ids as strings). */
export interface CrmUser {
  id: number;
  name: string;
  email?: string;
}

export const amoApi = {
  /** The locale makes amoCRM's return land on this language's screen. */
  connect: (integrationId: string) =>
    api.post<{ url: string }>(`${amo}/connect`, { integrationId, locale: currentLocale() }),
  users: async (integrationId: string): Promise<AmoUser[]> =>
    listOf(ZAmoUser, await api.get(`${amo}/users/${id(integrationId)}`)),
  pipelines: async (integrationId: string): Promise<AmoPipeline[]> =>
    listOf(ZAmoPipeline, await api.get(`${amo}/pipelines/${id(integrationId)}`)),
  fields: async (integrationId: string): Promise<AmoFields> => {
    const raw = await api.get<{ lead?: unknown; contact?: unknown; data?: unknown }>(
      `${amo}/fields/${id(integrationId)}`,
    );
    const body = (raw?.lead || raw?.contact ? raw : raw?.data) as { lead?: unknown; contact?: unknown } | undefined;
    return { lead: listOf(ZAmoField, body?.lead ?? []), contact: listOf(ZAmoField, body?.contact ?? []) };
  },
  createBackup: (integrationId: string) => api.post<AmoBackup>(`${amo}/backup`, { integrationId }),
  backups: async (integrationId: string): Promise<{ data: AmoBackup[]; total: number }> => {
    const raw = await api.get<{ total?: number }>(`${amo}/backup/${id(integrationId)}`);
    const data = listOf(ZAmoBackup, raw);
    return { data, total: typeof raw?.total === 'number' ? raw.total : data.length };
  },
};

export const pipedriveApi = {
  /** At the auth host (here the API's own origin), without the /api prefix. */
  state: (integrationId: string) =>
    api.post<{ state: string }>('/pipedrive/state', { integrationId, locale: currentLocale() }),
  start: (state: string) => api.post<{ authUrl: string }>('/pipedrive/start', { state }),
  connect: (body: { code: string; state: string } | { integrationId: string; apiToken: string }) =>
    api.post<{ integrationId: string; type: 'pipedrive' }>('/api/legacy/api/pipedrive/connect', body),
  /** The CRM store's dealFields: only fields with an id are kept (spec section 3). */
  fields: async (kind: 'deal' | 'person' | 'organization', integrationId: string): Promise<PipedriveField[]> =>
    listOf(ZPipedriveField, await api.get(`${pd}/${kind}Fields/${id(integrationId)}`)),
  pipelines: async (integrationId: string): Promise<PipedrivePipeline[]> =>
    listOf(ZPipedrivePipeline, await api.get(`${pd}/getStages/${id(integrationId)}`)),
  users: async (integrationId: string): Promise<CrmUser[]> =>
    listOf(ZLoaderUsers.element, await api.get(`/api/integrations/${id(integrationId)}/pipedrive/users`))
      .map((u) => ({ id: Number(u.id), name: u.name }))
      .filter((u) => Number.isInteger(u.id) && u.id > 0),
  activityTypes: async (integrationId: string): Promise<PipedriveActivityType[]> =>
    listOf(ZPipedriveActivityType, await api.get(`/api/legacy/api/pipedrive/getActivityTypes/${id(integrationId)}`)),
  webhooks: async (integrationId: string): Promise<PipedriveWebhook[]> =>
    listOf(ZPipedriveWebhook, await api.get(`${pd}/webhooks/${id(integrationId)}`)),
  createWebhook: (integrationId: string, body: { url: string; event: string; name?: string }) =>
    api.post<PipedriveWebhook>(`${pd}/webhooks/${id(integrationId)}`, body),
  deleteWebhook: (integrationId: string, webhookId: string) =>
    http<unknown>(`${pd}/webhooks/${id(integrationId)}`, { method: 'DELETE', query: { id: webhookId } }),
};

const us = '/api/uspacy';

export const uspacyApi = {
  /** Signs in once with the portal's e-mail and password, or stores the incoming webhook URL. */
  connect: (body: UspacyConnectBody) =>
    api.post<{ integrationId: string; type: 'uspacy'; mode: UspacyConnectBody['mode'] }>(`${us}/connect`, body),
  account: async (integrationId: string): Promise<UspacyAccount> => {
    const parsed = ZUspacyAccount.safeParse(await api.get(`${us}/account/${id(integrationId)}`));
    return parsed.success ? parsed.data : { connected: false };
  },
  funnels: async (target: UspacyTarget, integrationId: string): Promise<UspacyFunnel[]> =>
    listOf(ZUspacyFunnel, await api.get(`${us}/${target}Funnels/${id(integrationId)}`)),
  fields: async (integrationId: string): Promise<UspacyFields> => {
    const raw = await api.get<Partial<Record<keyof UspacyFields, unknown>>>(`${us}/fields/${id(integrationId)}`);
    return {
      lead: listOf(ZUspacyField, raw?.lead ?? []),
      deal: listOf(ZUspacyField, raw?.deal ?? []),
      contact: listOf(ZUspacyField, raw?.contact ?? []),
    };
  },
  users: async (integrationId: string): Promise<CrmUser[]> =>
    listOf(ZUspacyUser, await api.get(`${us}/users/${id(integrationId)}`)),
};

/** A distribution collection whose people are the CRM's users (the lead's assignee id is the user id). */
export const createUsersCollection = (name: string, users: CrmUser[]) =>
  api.post<Collection>('/api/legacy/api/admin/collection', {
    name,
    items: users.map((u) => ({ name: u.name, value: String(u.id) })),
  });

/** Whether the destination's CRM tells us of stage changes (speed to lead, issue 19), or why not. */
export const crmWatchApi = {
  get: (integrationId: string) => api.get<CrmWatch>(`/api/integrations/${id(integrationId)}/crm-watch`),
};
