// Typed calls of spec 7 "Shop" (POST .../horoshop/auth, .../horoshop/webhooks) and the integration
// page's own (the state with the last orders, removing the webhook, checking for orders now).
import type { HoroshopAuthBody, HoroshopState, Integration } from '@leadrelay/shared';
import { api } from '../../lib/http';

const base = (integrationId: string) => `/api/integrations/${encodeURIComponent(integrationId)}/horoshop`;

export const horoshopApi = {
  state: (integrationId: string) => api.get<HoroshopState>(base(integrationId)),
  connect: (integrationId: string, body: HoroshopAuthBody) =>
    api.post<{ data: { integration: Integration } }>(`${base(integrationId)}/auth`, body),
  registerWebhook: (integrationId: string) => api.post<{ data: HoroshopState }>(`${base(integrationId)}/webhooks`),
  removeWebhook: (integrationId: string) => api.delete<{ data: HoroshopState }>(`${base(integrationId)}/webhooks`),
  pollNow: (integrationId: string) => api.post<{ data: HoroshopState }>(`${base(integrationId)}/poll`),
};
