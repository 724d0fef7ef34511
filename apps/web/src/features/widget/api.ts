import type { WidgetData, WidgetMessageBody } from '@leadrelay/shared';
import { api } from '../../lib/http';

const id = (value: string) => encodeURIComponent(value);

export const widgetApi = {
  /** The panel URL of a Pipedrive integration (signed in). */
  url: (integrationId: string) => api.get<{ url: string }>(`/api/pipedrive/widget/${id(integrationId)}`),
  /** The person and their SendPulse contacts (the panel; authorised by its token). */
  data: (token: string, personId: number) =>
    api.get<WidgetData>('/api/legacy/api/pipedrive/sendpulse', { token, personId }),
  send: (body: WidgetMessageBody) => api.post<{ success: true }>('/api/legacy/api/pipedrive/sendpulse/message', body),
};
