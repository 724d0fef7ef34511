// Typed calls of AlphaSMS's own routes: the balance (through the integration's connector) and the
// account's SMS log (spec 7 "Other": GET /api/legacy/api/admin/sms).
import type { SmsBalance, SmsList, SmsStatus } from '@leadrelay/shared';
import { api } from '../../lib/http';

export interface SmsLogParams {
  page: number;
  limit: number;
  integrationId?: string;
  status?: SmsStatus;
}

export const smsApi = {
  balance: (integrationId: string) => api.get<SmsBalance>(`/api/alfasms/balance/${encodeURIComponent(integrationId)}`),
  log: (q: SmsLogParams) => api.get<SmsList>('/api/legacy/api/admin/sms', { ...q }),
};
