// Which bot a webhook call is for: an account's own (the integration's sealed token, bot info and
// webhook secret) or the platform's (TELEGRAM_BOT_TOKEN and its derived secret).
import type { TelegramBotInfo } from '@leadrelay/connectors';
import { and, eq } from 'drizzle-orm';
import { integrations } from '../../db/schema';
import { isUuid } from '../../lib/ids';
import {
  authOfRow,
  PLATFORM,
  platformBot,
  platformSecret,
  type TelegramDeps,
  TYPE,
  telegramConfig,
} from './telegram.service';
import type { BotScope } from './telegram-bot';

export interface WebhookTarget {
  token: string;
  info: TelegramBotInfo;
  secret: string;
  scope: BotScope;
}

export async function webhookTarget(deps: TelegramDeps, id: string): Promise<WebhookTarget | null> {
  if (id === PLATFORM) {
    const { platformToken } = telegramConfig(deps);
    const info = await platformBot(deps)?.catch(() => null);
    if (!platformToken || !info) return null;
    return { token: platformToken, info, secret: platformSecret(platformToken), scope: { kind: 'platform' } };
  }
  if (!isUuid(id)) return null;
  const [row] = await deps.db
    .select()
    .from(integrations)
    .where(and(eq(integrations.id, id), eq(integrations.type, TYPE)));
  const auth = row ? authOfRow(deps, row) : null;
  if (!row || auth?.kind !== 'own') return null;
  return {
    token: auth.botToken,
    info: auth.bot,
    secret: auth.webhookSecret,
    scope: { kind: 'own', integrationId: row.id, accountId: row.accountId },
  };
}
