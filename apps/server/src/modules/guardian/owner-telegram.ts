// The account owner's own Telegram (issue 19 part 4: "the account is told in Telegram and by
// e-mail"). The owner links their chat to the account's Telegram bot (its own bot or the
// platform's; the first connected one unless they choose) with the managers' one-time code (15
// minutes, once; `telegram_link_codes.purpose` 'owner', no collection or item); the bot's /start
// stores the chat in `guardian_settings.telegram`. The guardian's notices then go there too, through
// `telegramChannel` in guardian-notify.ts's list.

import { randomBytes } from 'node:crypto';
import { callTelegram } from '@leadrelay/connectors';
import {
  type OwnerTelegram,
  type OwnerTelegramLink,
  type OwnerTelegramLinkCodeBody,
  TELEGRAM_LINK_CODE_TTL_MINUTES,
  type TelegramLinkCode,
} from '@leadrelay/shared';
import { and, asc, eq } from 'drizzle-orm';
import type { Executor } from '../../db/client';
import { guardianSettings, type IntegrationRow, integrations, telegramLinkCodes } from '../../db/schema';
import { AppError } from '../../lib/app-error';
import { ownIntegrationOfType } from '../integrations';
import { apiFor, authOfRow, platformBot, type TelegramDeps, TYPE, telegramConfig } from '../telegram';

type Actor = { id: string };

/** The bot's username and token of a connected telegram integration; null when not connected. */
export async function botOf(
  deps: TelegramDeps,
  row: Pick<IntegrationRow, 'id' | 'auth'>,
): Promise<{ username: string; token: string } | null> {
  const auth = authOfRow(deps, row);
  if (!auth) return null;
  if (auth.kind === 'own') return { username: auth.bot.username, token: auth.botToken };
  const token = telegramConfig(deps).platformToken;
  const info = await platformBot(deps)?.catch(() => null);
  return token && info ? { username: info.username, token } : null;
}

/** The account's first active, connected telegram integration and its bot, or null. */
async function defaultBot(deps: TelegramDeps, accountId: string) {
  const rows = await deps.db
    .select()
    .from(integrations)
    .where(and(eq(integrations.accountId, accountId), eq(integrations.type, TYPE), eq(integrations.active, true)))
    .orderBy(asc(integrations.createdAt));
  for (const row of rows) {
    const bot = await botOf(deps, row);
    if (bot) return { row, bot };
  }
  return null;
}

async function linkOf(db: Executor, accountId: string): Promise<OwnerTelegramLink | null> {
  const [row] = await db
    .select({ telegram: guardianSettings.telegram })
    .from(guardianSettings)
    .where(eq(guardianSettings.accountId, accountId));
  return row?.telegram ?? null;
}

/** GET /api/guardian/telegram: the owner's link and the bot a new link would use. */
export async function ownerTelegram(deps: TelegramDeps, actor: Actor): Promise<OwnerTelegram> {
  const [link, found] = await Promise.all([linkOf(deps.db, actor.id), defaultBot(deps, actor.id)]);
  return {
    linked: link
      ? {
          integrationId: link.integrationId,
          linkedAt: link.linkedAt,
          ...(link.username ? { username: link.username } : {}),
        }
      : null,
    bot: found ? { integrationId: found.row.id, botUsername: found.bot.username } : null,
  };
}

/** POST /api/guardian/telegram/link-code: a one-time code for the owner's chat, valid 15 minutes. */
export async function createOwnerLinkCode(
  deps: TelegramDeps,
  actor: Actor,
  body: OwnerTelegramLinkCodeBody,
  now = new Date(),
): Promise<TelegramLinkCode> {
  let target: { row: IntegrationRow; bot: { username: string } } | null;
  if (body.integrationId) {
    const row = await ownIntegrationOfType(deps.db, actor, body.integrationId, TYPE);
    const bot = await botOf(deps, row);
    if (!bot) throw new AppError('INTEGRATION_NOT_CONNECTED');
    target = { row, bot };
  } else {
    target = await defaultBot(deps, actor.id);
    if (!target) throw new AppError('INTEGRATION_NOT_CONNECTED');
  }
  const code = randomBytes(15).toString('base64url');
  const expiresAt = new Date(now.getTime() + TELEGRAM_LINK_CODE_TTL_MINUTES * 60_000);
  await deps.db.insert(telegramLinkCodes).values({
    code,
    accountId: actor.id,
    purpose: 'owner',
    integrationId: target.row.id,
    expiresAt,
    createdAt: now,
  });
  const botUsername = target.bot.username;
  return { code, url: `https://t.me/${botUsername}?start=${code}`, botUsername, expiresAt: expiresAt.toISOString() };
}

/** DELETE /api/guardian/telegram: the owner's chat no longer gets the notices. */
export async function unlinkOwner(db: Executor, actor: Actor): Promise<void> {
  await db
    .update(guardianSettings)
    .set({ telegram: null, updatedAt: new Date() })
    .where(eq(guardianSettings.accountId, actor.id));
}

/** Sends one HTML message to the owner's linked chat through the bot it was linked on. */
export async function sendToOwner(deps: TelegramDeps, link: OwnerTelegramLink, html: string): Promise<boolean> {
  const [row] = await deps.db.select().from(integrations).where(eq(integrations.id, link.integrationId));
  const bot = row ? await botOf(deps, row) : null;
  // The bot was removed or disconnected since: this channel does not apply.
  if (!bot) return false;
  await callTelegram(() =>
    apiFor(deps, bot.token).sendMessage(link.chatId, html, {
      parse_mode: 'HTML',
      link_preview_options: { is_disabled: true },
    }),
  );
  return true;
}
