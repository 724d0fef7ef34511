import type {
  GuardianAlert,
  GuardianSettings,
  OwnerTelegram,
  Reconciliation,
  TelegramLinkCode,
} from '@leadrelay/shared';
import { api, http } from '../../lib/http';

export const guardianApi = {
  alerts: () => api.get<GuardianAlert[]>('/api/guardian/alerts'),
  reconciliation: (days: number) => api.get<Reconciliation>('/api/guardian/reconciliation', { days }),
  settings: () => api.get<GuardianSettings>('/api/guardian/settings'),
  saveSettings: (body: GuardianSettings) => http<GuardianSettings>('/api/guardian/settings', { method: 'PUT', body }),
  // The owner's own Telegram chat for the guardian's notices.
  telegram: () => api.get<OwnerTelegram>('/api/guardian/telegram'),
  telegramLinkCode: () => api.post<TelegramLinkCode>('/api/guardian/telegram/link-code', {}),
  telegramUnlink: () => api.delete<{ success: true }>('/api/guardian/telegram'),
};
