// Typed calls of spec 7 "Social-network lead forms" (shapes in @leadrelay/shared facebook.ts).
import type {
  CreateIntegrationBody,
  FacebookSettings,
  FbAccount,
  FbAccountState,
  FbConnection,
  FbLeadForm,
  FbPageItem,
  Integration,
  Locale,
} from '@leadrelay/shared';
import { api } from '../../lib/http';

type Ok = { success: true };
const id = (value: string) => encodeURIComponent(value);
const legacy = '/api/legacy/api/facebook';
const page = (cid: string, aid: string) => `/api/facebook/connection/${id(cid)}/account/${id(aid)}`;

/** One answer of a lead form question, as Facebook's field_data carries it. */
export interface FieldData {
  name: string;
  values: string[];
}

export const facebookApi = {
  /** POST {auth host}/facebook/start: the auth host is this server. */
  start: (locale: Locale) => api.post<{ authUrl: string }>('/facebook/start', { locale }),
  connections: () => api.get<FbConnection[]>('/api/facebook/connections'),
  picture: (accountId: string) => api.get<{ url: string | null }>('/api/facebook/accountPicture', { accountId }),
  accounts: (cid: string, refresh = false) =>
    api.get<FbAccount[]>(`/api/facebook/connection/${id(cid)}/accounts`, refresh ? { refresh: '1' } : undefined),
  pageState: (cid: string, aid: string) => api.get<FbAccountState>(page(cid, aid)),
  subscribe: (cid: string, aid: string) => api.post<Ok>(`${page(cid, aid)}/subscribe`),
  unsubscribe: (cid: string, aid: string) => api.delete<Ok>(`${page(cid, aid)}/unsubscribe`),
  removeConnection: (cid: string) => api.delete<Ok>(`${legacy}/accounts/${id(cid)}`),
  leadForms: (connectionId: string, pageId: string) =>
    api.post<FbLeadForm[]>(`${legacy}/leadform`, { connectionId, pageId }),
  pageItems: () => api.get<FbPageItem[]>('/api/legacy/api/admin/integration/fbPageItems'),
  createIntegration: (name: string, settings: FacebookSettings) =>
    api.post<Integration>('/api/integrations', { type: 'facebook', name, settings } satisfies CreateIntegrationBody),
  migrate: (integrationId: string, fbConnectionId: string) =>
    api.post<Integration>(`/api/integrations/migrate/fb/${id(integrationId)}`, { fbConnectionId }),
  /** Graph's test_leads on the integration's form; its webhook brings the lead back like a real one. */
  testLead: (integrationId: string, fieldData?: FieldData[]) =>
    api.post<{ leadgenId: string }>(`/api/facebook/integration/${id(integrationId)}/test-lead`, { fieldData }),
};
