import type { GuardianAlert, GuardianSettings, Reconciliation } from '@leadrelay/shared';
import { api, http } from '../../lib/http';

export const guardianApi = {
  alerts: () => api.get<GuardianAlert[]>('/api/guardian/alerts'),
  reconciliation: (days: number) => api.get<Reconciliation>('/api/guardian/reconciliation', { days }),
  settings: () => api.get<GuardianSettings>('/api/guardian/settings'),
  saveSettings: (body: GuardianSettings) => http<GuardianSettings>('/api/guardian/settings', { method: 'PUT', body }),
};
