// Connecting the Telegram manager bot and linking managers to it (issue 19, ADR 010). An integration
// of type telegram uses the account's own bot (a BotFather token, checked with getMe; our webhook is
// set on it with a random secret; both sealed) or the platform's (TELEGRAM_BOT_TOKEN; its webhook's
// secret derived from the token). A manager (an item of the integration's distribution collection)
// is linked by a one-time code the web shows as https://t.me/<bot>?start=<code>; the bot's /start
// stores the chat on the item (telegram-bot.ts).
import { createHmac, randomBytes } from 'node:crypto';
import {
  callTelegram,
  createSafeFetch,
  getConnector,
  PermanentError,
  type TelegramAuth,
  type TelegramBotInfo,
  telegramApi,
  telegramClientOptions,
  ZTelegramAuth,
} from '@leadrelay/connectors';
import {
  TELEGRAM_LINK_CODE_TTL_MINUTES,
  type TelegramAccount,
  type TelegramBots,
  type TelegramConnectBody,
  type TelegramLinkCode,
  type TelegramLinkCodeBody,
} from '@leadrelay/shared';
import { and, eq, sql } from 'drizzle-orm';
import { type Deps, destinationPolicy } from '../../config';
import type { Executor } from '../../db/client';
import { collections, type IntegrationRow, integrations, telegramLinkCodes, type UserRow } from '../../db/schema';
import { INTERACTIVE_TIMEOUT_MS } from '../../delivery/connector-context';
import { readAuth } from '../../delivery/stored-auth';
import { AppError } from '../../lib/app-error';
import { connectorConfig } from '../../lib/connector-config';
import { isUuid } from '../../lib/ids';
import { ownIntegrationOfType, storeAuth } from '../integrations';

type Actor = Pick<UserRow, 'id'>;
export const TYPE = 'telegram';
/** The webhook path segment of the platform's bot (one bot, one webhook, for every account). */
export const PLATFORM = 'platform';

export type TelegramDeps = Pick<Deps, 'db' | 'config' | 'secrets' | 'log' | 'events'>;

/** The Bot API's root and the platform bot's token, from the configuration. */
export function telegramConfig(deps: Pick<Deps, 'config'>): { apiUrl?: string; platformToken?: string } {
  const connector = getConnector(TYPE);
  const cfg = connector ? connectorConfig(deps.config.crm, connector) : {};
  const apiUrl = typeof cfg.TELEGRAM_API_URL === 'string' ? cfg.TELEGRAM_API_URL : undefined;
  const token =
    typeof cfg.TELEGRAM_BOT_TOKEN === 'string' && cfg.TELEGRAM_BOT_TOKEN ? cfg.TELEGRAM_BOT_TOKEN : undefined;
  return { apiUrl, ...(token ? { platformToken: token } : {}) };
}

const callOf = (deps: Pick<Deps, 'config'>) => ({
  fetch: createSafeFetch({ ...destinationPolicy(deps.config), timeoutMs: INTERACTIVE_TIMEOUT_MS }),
  baseUrl: telegramConfig(deps).apiUrl,
});

/** A grammY Api for a token over the safe fetch, at the configured root. */
export const apiFor = (deps: Pick<Deps, 'config'>, token: string) => telegramApi(callOf(deps), token);

/** The same for a grammY Bot's `client`. */
export const clientOptions = (deps: Pick<Deps, 'config'>) => telegramClientOptions(callOf(deps));

/** The platform webhook's secret: derived from its token, so nothing needs storing and a new token changes it. */
export const platformSecret = (token: string) =>
  createHmac('sha256', token).update('leadrelay-telegram-webhook').digest('base64url').slice(0, 48);

export const webhookUrl = (deps: Pick<Deps, 'config'>, segment: string) =>
  `${deps.config.publicUrl}/api/telegram/webhook/${segment}`;

/** The stored auth, or null when the integration is not connected (or its auth no key opens). */
export function authOfRow(deps: Pick<Deps, 'secrets'>, row: Pick<IntegrationRow, 'id' | 'auth'>): TelegramAuth | null {
  if (row.auth === null) return null;
  try {
    const parsed = ZTelegramAuth.safeParse(readAuth(deps.secrets, row));
    return parsed.success ? parsed.data : null;
  } catch {
    return null;
  }
}

/**
 * The platform bot's getMe, kept per token for the app (a username does not change under a token).
 * Keyed by the app's config: apps sharing a process (tests) may reach different Bot APIs with one token.
 */
const platformBots = new WeakMap<Deps['config'], Map<string, Promise<TelegramBotInfo>>>();
export function platformBot(deps: Pick<Deps, 'config'>): Promise<TelegramBotInfo> | null {
  const { platformToken } = telegramConfig(deps);
  if (!platformToken) return null;
  const bots = platformBots.get(deps.config) ?? new Map<string, Promise<TelegramBotInfo>>();
  platformBots.set(deps.config, bots);
  let bot = bots.get(platformToken);
  if (!bot) {
    bot = callTelegram(() => apiFor(deps, platformToken).getMe()).then((me) => me as unknown as TelegramBotInfo);
    bot.catch(() => bots.delete(platformToken));
    bots.set(platformToken, bot);
  }
  return bot;
}

/** Why a call to Telegram failed, for the person connecting. */
function connectFailure(error: unknown): AppError {
  if (error instanceof AppError) return error;
  if (error instanceof PermanentError && error.code === 'AUTH') return new AppError('TELEGRAM_TOKEN_INVALID');
  return new AppError('TELEGRAM_UNAVAILABLE');
}

/** POST /api/telegram/connect: an own bot's token checked and its webhook set, or the platform's bot; stored sealed. */
export async function connect(deps: TelegramDeps, actor: Actor, body: TelegramConnectBody): Promise<TelegramAccount> {
  const row = await ownIntegrationOfType(deps.db, actor, body.integrationId, TYPE);
  let auth: TelegramAuth;
  try {
    if (body.mode === 'own') {
      const api = apiFor(deps, body.botToken);
      const bot = (await callTelegram(() => api.getMe())) as unknown as TelegramBotInfo;
      const webhookSecret = randomBytes(24).toString('base64url');
      await callTelegram(() =>
        api.setWebhook(webhookUrl(deps, row.id), {
          secret_token: webhookSecret,
          allowed_updates: ['message', 'callback_query'],
        }),
      );
      auth = { kind: 'own', botToken: body.botToken, webhookSecret, bot };
    } else {
      const { platformToken } = telegramConfig(deps);
      const bot = platformBot(deps);
      if (!platformToken || !bot) throw new AppError('TELEGRAM_PLATFORM_BOT_UNAVAILABLE');
      await bot;
      // Idempotent: every account on the platform's bot shares this one webhook.
      await callTelegram(() =>
        apiFor(deps, platformToken).setWebhook(webhookUrl(deps, PLATFORM), {
          secret_token: platformSecret(platformToken),
          allowed_updates: ['message', 'callback_query'],
        }),
      );
      auth = { kind: 'platform' };
    }
  } catch (error) {
    throw connectFailure(error);
  }
  await storeAuth(deps, row, auth);
  return account(deps, actor, row.id);
}

async function usernameOf(deps: TelegramDeps, auth: TelegramAuth | null): Promise<string | undefined> {
  if (!auth) return undefined;
  if (auth.kind === 'own') return auth.bot.username;
  return (await platformBot(deps)?.catch(() => null))?.username;
}

/** GET /api/telegram/account/{id}: how it is connected (the bot's username), nothing secret. */
export async function account(deps: TelegramDeps, actor: Actor, id: string): Promise<TelegramAccount> {
  const row = await ownIntegrationOfType(deps.db, actor, id, TYPE);
  const auth = authOfRow(deps, row);
  const botUsername = await usernameOf(deps, auth);
  return {
    connected: auth !== null,
    ...(auth ? { mode: auth.kind } : {}),
    ...(botUsername ? { botUsername } : {}),
    platformAvailable: Boolean(telegramConfig(deps).platformToken),
    collectionId: row.distributionId,
  };
}

/** GET /api/telegram/bots: the account's Telegram destinations, for the collections page's "Link Telegram". */
export async function bots(deps: TelegramDeps, actor: Actor): Promise<TelegramBots> {
  const rows = await deps.db
    .select()
    .from(integrations)
    .where(and(eq(integrations.accountId, actor.id), eq(integrations.type, TYPE)))
    .orderBy(integrations.createdAt);
  return Promise.all(
    rows.map(async (row) => ({
      integrationId: row.id,
      name: row.name,
      botUsername: (await usernameOf(deps, authOfRow(deps, row))) ?? null,
      collectionId: row.distributionId,
    })),
  );
}

/** Telegram's start parameter takes [A-Za-z0-9_-], up to 64: 20 of them, about 120 bits. */
const newCode = () => randomBytes(15).toString('base64url');

/** POST /api/telegram/link-codes: a code for one item of the integration's collection, valid 15 minutes, once. */
export async function createLinkCode(
  deps: TelegramDeps,
  actor: Actor,
  body: TelegramLinkCodeBody,
  now = new Date(),
): Promise<TelegramLinkCode> {
  const row = await ownIntegrationOfType(deps.db, actor, body.integrationId, TYPE);
  const collection = await ownCollection(deps.db, actor, body.collectionId);
  if (!collection.items.some((i) => i.id === body.itemId)) throw new AppError('ITEM_NOT_FOUND');
  if (row.distributionId !== collection.id) throw new AppError('TELEGRAM_COLLECTION_MISMATCH');
  const botUsername = await usernameOf(deps, authOfRow(deps, row));
  if (!botUsername) throw new AppError('INTEGRATION_NOT_CONNECTED');
  const code = newCode();
  const expiresAt = new Date(now.getTime() + TELEGRAM_LINK_CODE_TTL_MINUTES * 60_000);
  await deps.db.insert(telegramLinkCodes).values({
    code,
    accountId: actor.id,
    collectionId: collection.id,
    itemId: body.itemId,
    integrationId: row.id,
    expiresAt,
    createdAt: now,
  });
  return { code, url: `https://t.me/${botUsername}?start=${code}`, botUsername, expiresAt: expiresAt.toISOString() };
}

async function ownCollection(db: Executor, actor: Actor, id: string) {
  if (!isUuid(id)) throw new AppError('COLLECTION_NOT_FOUND');
  const [collection] = await db
    .select()
    .from(collections)
    .where(and(eq(collections.id, id), eq(collections.accountId, actor.id)));
  if (!collection) throw new AppError('COLLECTION_NOT_FOUND');
  return collection;
}

/** Sets (or with `value` null removes) one key of one item of a collection, in one statement. */
export async function setItemKey(
  db: Executor,
  where: { collectionId: string; accountId: string },
  itemId: string,
  key: 'telegram' | 'away',
  value: unknown,
): Promise<boolean> {
  const change =
    value === null
      ? sql`e - ${key}::text`
      : sql`e || jsonb_build_object(${key}::text, ${JSON.stringify(value)}::jsonb)`;
  const rows = await db
    .update(collections)
    .set({
      items: sql`(select jsonb_agg(case when e->>'id' = ${itemId} then ${change} else e end order by n) from jsonb_array_elements(${collections.items}) with ordinality as t(e, n))`,
      updatedAt: new Date(),
    })
    .where(
      and(
        eq(collections.id, where.collectionId),
        eq(collections.accountId, where.accountId),
        sql`exists (select 1 from jsonb_array_elements(${collections.items}) e where e->>'id' = ${itemId})`,
      ),
    )
    .returning({ id: collections.id });
  return rows.length > 0;
}

/** POST /api/telegram/unlink: the item no longer gets cards. */
export async function unlink(
  deps: TelegramDeps,
  actor: Actor,
  body: { collectionId: string; itemId: string },
): Promise<void> {
  const collection = await ownCollection(deps.db, actor, body.collectionId);
  const changed = await setItemKey(
    deps.db,
    { collectionId: collection.id, accountId: actor.id },
    body.itemId,
    'telegram',
    null,
  );
  if (!changed) throw new AppError('ITEM_NOT_FOUND');
}
