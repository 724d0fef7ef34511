// Typed calls of the Telegram bot's own routes (issue 19): how an integration is connected, and
// connecting it (the account's own bot by its BotFather token, or the platform's bot).
import type { TelegramAccount, TelegramConnectBody } from '@leadrelay/shared';
import { api } from '../../lib/http';

export const telegramApi = {
  account: (integrationId: string) =>
    api.get<TelegramAccount>(`/api/telegram/account/${encodeURIComponent(integrationId)}`),
  connect: (body: TelegramConnectBody) => api.post<TelegramAccount>('/api/telegram/connect', body),
};
