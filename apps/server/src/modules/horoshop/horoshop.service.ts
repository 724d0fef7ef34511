// A Horoshop source's connection (spec 7 "Shop"): POST .../horoshop/auth checks the login and
// password (or token) with the shop before anything is stored, then seals them; .../horoshop/webhooks
// registers our receiver (a URL carrying the integration's secret ingest token: Horoshop signs
// nothing) for new orders; GET .../horoshop tells the connection, webhook, poll and last orders.
import { randomBytes } from 'node:crypto';
import {
  type HoroshopAuth,
  horoshopCheckAccess,
  horoshopHasPassword,
  horoshopSignIn,
  horoshopSubscribe,
  horoshopUnsubscribe,
} from '@leadrelay/connectors';
import {
  type HoroshopAuthBody,
  type HoroshopState,
  horoshopShopUrl,
  type Integration,
  ZHoroshopSettings,
} from '@leadrelay/shared';
import { desc, eq, sql } from 'drizzle-orm';
import type { Deps } from '../../config';
import type { Executor } from '../../db/client';
import { hooks, horoshopOrders, horoshopSources, type IntegrationRow, integrations } from '../../db/schema';
import { forgetConnectionCache } from '../../delivery/connection-cache';
import { readAuth, sealAuth } from '../../delivery/stored-auth';
import { AppError } from '../../lib/app-error';
import { type Actor, connectionChanged, getIntegration, ownIntegrationOfType } from '../integrations';
import { draftContext, horoshopError, storedContext, TYPE } from './horoshop-deps';

/** Orders the integration page lists. */
export const RECENT_ORDERS = 20;

const newToken = () => randomBytes(32).toString('base64url');

/** Where the shop sends order webhooks: public, proved by the secret token in the path. */
export const receiverUrl = (publicUrl: string, token: string) => `${publicUrl}/api/horoshop/webhook/${token}`;

const shopUrlOf = (row: Pick<IntegrationRow, 'settings'>): string | undefined => {
  const parsed = ZHoroshopSettings.safeParse(row.settings ?? {});
  return parsed.success ? parsed.data.shopUrl : undefined;
};

/**
 * Checks the credentials with the shop (a sign-in, then one order asked for), then stores them
 * sealed with the shop's address. A new shop address forgets the old shop's webhook and gives the
 * receiver a new secret URL, so the old shop's webhooks stop landing here.
 */
export async function connectShop(
  deps: Deps,
  actor: Actor,
  id: string,
  body: HoroshopAuthBody,
): Promise<{ data: { integration: Integration } }> {
  const row = await ownIntegrationOfType(deps.db, actor, id, TYPE);
  const shopUrl = horoshopShopUrl(body.domain);
  if (!shopUrl)
    throw new AppError('HOROSHOP_DOMAIN_INVALID', { errors: [{ field: 'domain', code: 'HOROSHOP_DOMAIN_INVALID' }] });
  const given: HoroshopAuth =
    body.login && body.password ? { login: body.login, password: body.password } : { token: body.token ?? '' };
  const ctx = draftContext(deps, given, shopUrl, row.id);
  try {
    if (horoshopHasPassword(given)) ctx.auth = await horoshopSignIn(ctx);
    await horoshopCheckAccess(ctx);
  } catch (error) {
    throw horoshopError(error);
  }

  const now = new Date();
  await deps.db.transaction(async (tx) => {
    const fresh = await ownIntegrationOfType(tx, actor, id, TYPE, true);
    const previous = shopUrlOf(fresh);
    const isNewShop = previous !== undefined && previous !== shopUrl;
    await tx
      .update(integrations)
      .set({
        auth: sealAuth(deps.secrets, fresh.id, ctx.auth as Record<string, unknown>),
        settings: { ...fresh.settings, shopUrl },
        status: 'ok',
        statusReason: null,
        hookToken: isNewShop || !fresh.hookToken ? newToken() : fresh.hookToken,
        updatedAt: now,
      })
      .where(eq(integrations.id, fresh.id));
    const reset = {
      webhookId: null,
      webhookStatus: 'none' as const,
      webhookRegisteredAt: null,
      webhookRemovedAt: null,
    };
    await tx
      .insert(horoshopSources)
      .values({ integrationId: fresh.id, accountId: actor.id, polledUntil: now, pollFrom: now, updatedAt: now })
      .onConflictDoUpdate({
        target: horoshopSources.integrationId,
        set: {
          // The poll starts from the connection; a new shop starts afresh.
          polledUntil: isNewShop
            ? now
            : sql`coalesce(${horoshopSources.polledUntil}, ${now.toISOString()}::timestamptz)`,
          pollFrom: isNewShop ? now : sql`coalesce(${horoshopSources.pollFrom}, ${now.toISOString()}::timestamptz)`,
          lastPollError: null,
          updatedAt: now,
          ...(isNewShop ? reset : {}),
        },
      });
  });
  forgetConnectionCache(row.id);
  connectionChanged(deps, row);
  return { data: { integration: await getIntegration(deps.db, actor, row.id) } };
}

/** The integration's ingest token, made once (two calls at once still end with one). */
async function ensureHookToken(db: Executor, row: IntegrationRow): Promise<string> {
  if (row.hookToken) return row.hookToken;
  const [updated] = await db
    .update(integrations)
    .set({ hookToken: sql`coalesce(${integrations.hookToken}, ${newToken()})` })
    .where(eq(integrations.id, row.id))
    .returning({ token: integrations.hookToken });
  if (!updated?.token) throw new AppError('INTEGRATION_NOT_FOUND');
  return updated.token;
}

async function sourceRow(db: Executor, row: IntegrationRow) {
  const [found] = await db.select().from(horoshopSources).where(eq(horoshopSources.integrationId, row.id));
  return found;
}

function connectedRow(row: IntegrationRow): IntegrationRow {
  if (!row.auth || !shopUrlOf(row)) throw new AppError('INTEGRATION_NOT_CONNECTED');
  return row;
}

/**
 * Registers the receiver for new orders (order_created). One already registered by us is removed
 * first, so registering again never spends another of the shop's five subscriptions per event.
 */
export async function registerWebhook(deps: Deps, actor: Actor, id: string): Promise<{ data: HoroshopState }> {
  const row = connectedRow(await ownIntegrationOfType(deps.db, actor, id, TYPE));
  const target = receiverUrl(deps.config.publicUrl, await ensureHookToken(deps.db, row));
  const before = await sourceRow(deps.db, row);
  const ctx = storedContext(deps, row);
  let webhookId: string;
  try {
    if (before?.webhookStatus === 'active' && before.webhookId) {
      await horoshopUnsubscribe(ctx, before.webhookId, target).catch((error) =>
        deps.log.warn({ integrationId: row.id, reason: (error as Error).message }, 'old horoshop webhook not removed'),
      );
    }
    ({ id: webhookId } = await horoshopSubscribe(ctx, target));
  } catch (error) {
    throw horoshopError(error);
  }
  const now = new Date();
  const values = {
    webhookId,
    webhookStatus: 'active' as const,
    webhookRegisteredAt: now,
    webhookRemovedAt: null,
    updatedAt: now,
  };
  await deps.db
    .insert(horoshopSources)
    .values({ integrationId: row.id, accountId: actor.id, polledUntil: now, pollFrom: now, ...values })
    .onConflictDoUpdate({ target: horoshopSources.integrationId, set: values });
  return { data: await horoshopState(deps, actor, id) };
}

/** Removes our subscription at the shop (one it already dropped counts as removed). */
export async function unregisterWebhook(deps: Deps, actor: Actor, id: string): Promise<{ data: HoroshopState }> {
  const row = await ownIntegrationOfType(deps.db, actor, id, TYPE);
  const before = await sourceRow(deps.db, row);
  if (before?.webhookStatus === 'active' && before.webhookId && row.hookToken) {
    try {
      await horoshopUnsubscribe(
        storedContext(deps, connectedRow(row)),
        before.webhookId,
        receiverUrl(deps.config.publicUrl, row.hookToken),
      );
    } catch (error) {
      throw horoshopError(error);
    }
  }
  if (before) {
    await deps.db
      .update(horoshopSources)
      .set({ webhookId: null, webhookStatus: 'none', webhookRemovedAt: null, updatedAt: new Date() })
      .where(eq(horoshopSources.integrationId, row.id));
  }
  return { data: await horoshopState(deps, actor, id) };
}

const iso = (d: Date | null | undefined) => (d ? d.toISOString() : null);

/** The connection (never its password or token), webhook, poll and the last orders with their leads' status. */
export async function horoshopState(deps: Deps, actor: Actor, id: string): Promise<HoroshopState> {
  const row = await ownIntegrationOfType(deps.db, actor, id, TYPE);
  const source = await sourceRow(deps.db, row);
  let auth: Record<string, unknown> = {};
  try {
    auth = readAuth(deps.secrets, row);
  } catch {
    // Sealed with a key we no longer have: shown as not connected; connecting again replaces it.
  }
  const login = typeof auth.login === 'string' ? auth.login : null;
  const authMode = login && auth.password ? 'password' : auth.token ? 'token' : 'none';
  const orders = await deps.db
    .select({
      orderId: horoshopOrders.orderId,
      name: horoshopOrders.name,
      phone: horoshopOrders.phone,
      total: horoshopOrders.total,
      currency: horoshopOrders.currency,
      via: horoshopOrders.via,
      timesSeen: horoshopOrders.timesSeen,
      hookId: horoshopOrders.hookId,
      status: hooks.status,
      receivedAt: horoshopOrders.receivedAt,
      lastSeenAt: horoshopOrders.lastSeenAt,
    })
    .from(horoshopOrders)
    .leftJoin(hooks, eq(hooks.id, horoshopOrders.hookId))
    .where(eq(horoshopOrders.integrationId, row.id))
    .orderBy(desc(horoshopOrders.receivedAt), desc(horoshopOrders.orderId))
    .limit(RECENT_ORDERS);
  return {
    shopUrl: shopUrlOf(row) ?? null,
    authMode,
    login: authMode === 'password' ? login : null,
    webhook: {
      status: source?.webhookStatus ?? 'none',
      registeredAt: iso(source?.webhookRegisteredAt),
      removedAt: iso(source?.webhookRemovedAt),
    },
    poll: {
      polledUntil: iso(source?.polledUntil),
      lastPollAt: iso(source?.lastPollAt),
      lastError: source?.lastPollError ?? null,
    },
    orders: orders.map((o) => ({
      ...o,
      status: o.status ?? null,
      receivedAt: o.receivedAt.toISOString(),
      lastSeenAt: o.lastSeenAt.toISOString(),
    })),
  };
}
