// Our subscription at the CRM for its stage changes (issue 19, speed to lead; ADR 010): made by us so
// the user does nothing. Best effort everywhere: when the destination is connected (OAuth or API
// token; the connect waits at most 5 s for it), by a periodic task for destinations connected before (or whose first try failed, at
// most once per RETRY_AFTER_MS), and removed when the destination is deleted. Never on a delivery's
// path: a CRM refusing the subscription (no admin rights, a plan without webhooks) costs nothing but
// the reaction, and the reason is kept in crm_watches.last_error.
// A watch set up by hand (a PastedStageWatch: the CRM's outgoing webhook needs an app to be made by
// API) has no subscription: its row keeps our address for the destination's page to show and the
// token the person pasted back from the CRM (both sealed; a CRM whose webhook carries no token has
// none); it is never removed at the CRM.
import { randomBytes } from 'node:crypto';
import {
  type AnyStageWatch,
  type ConnectorDefinition,
  connectors,
  getConnector,
  type PastedStageWatch,
  type StageWatch,
} from '@leadrelay/connectors';
import type { CrmWatch } from '@leadrelay/shared';
import { and, eq, inArray, isNull, lt, or, sql } from 'drizzle-orm';
import { z } from 'zod';
import type { Deps } from '../../config';
import { destinationPolicy } from '../../config';
import type { Db, Executor } from '../../db/client';
import { type CrmWatchSecret, crmWatches, type IntegrationRow, integrations } from '../../db/schema';
import { buildConnectorContext, reasonOf } from '../../delivery/connector-context';
import { runtimeExtras } from '../../delivery/connector-runtime';
import type { PeriodicTask } from '../../delivery/periodic';
import { AppError } from '../../lib/app-error';
import { isKnownCode } from '../../lib/error-codes';
import { type Actor, ownRow } from '../integrations';

/** The destination types whose CRM can tell us about stage changes: their connectors declare a stageWatch. */
export const watchedTypes = (setup?: 'subscribe' | 'pasted'): string[] =>
  [...connectors.values()]
    .filter((c) => {
      const watch = watchOf(c);
      return !!watch && (!setup || (watch.setup ?? 'subscribe') === setup);
    })
    .map((connector) => connector.slug);

/** A failed subscription is tried again after this long (the periodic task). */
export const RETRY_AFTER_MS = 6 * 60 * 60_000;
/** Subscriptions the periodic task makes per run, so one run stays short. */
const BATCH = 20;
/** One call to the CRM. */
const CALL_TIMEOUT_MS = 10_000;
/** The subscription made while the user waits for the connect to finish. */
const CONNECT_TIMEOUT_MS = 5_000;

/** Where the CRM posts: /api/{type}/events/{integrationId}/{secret} on our public URL. */
export const eventsUrl = (publicUrl: string, type: string, integrationId: string, secret: string) =>
  `${publicUrl.replace(/\/+$/, '')}/api/${type}/events/${integrationId}/${secret}`;

const newSecret = () => randomBytes(24).toString('base64url');

/** The connector's stage watch, subscribed by API or pasted by hand. */
const watchOf = (connector: ConnectorDefinition<unknown, unknown>): AnyStageWatch<unknown, unknown> | undefined =>
  connector.stageWatch ?? connector.pastedStageWatch;

type Watched = { connector: ConnectorDefinition<unknown, unknown>; watch: AnyStageWatch<unknown, unknown> };
export function watchedOf(type: string): Watched | undefined {
  const connector = getConnector(type);
  const watch = connector && watchOf(connector);
  return connector && watch ? { connector, watch } : undefined;
}

/**
 * The connector's ctx for a subscription call. Settings are taken as they are: a destination just
 * connected has none yet, and subscribing does not need them (a connector reads what it needs with a default).
 */
export function watchContext(
  deps: Deps,
  connector: ConnectorDefinition<unknown, unknown>,
  row: IntegrationRow,
  timeoutMs = CALL_TIMEOUT_MS,
) {
  return buildConnectorContext({ ...connector, settings: z.unknown() }, row, {
    secrets: deps.secrets,
    extras: runtimeExtras(deps, connector, row.id),
    policy: destinationPolicy(deps.config),
    timeoutMs,
    logger: deps.log.child({ integrationId: row.id, connector: connector.slug }),
  });
}

const openSecret = (deps: Deps, row: { integrationId: string; secret: unknown }) =>
  deps.secrets.open(row.secret as never, row.integrationId) as unknown as CrmWatchSecret;

/** Removes our subscription at the CRM (best effort) and forgets it. */
export async function unwatchIntegration(deps: Deps, row: IntegrationRow): Promise<void> {
  const [existing] = await deps.db.select().from(crmWatches).where(eq(crmWatches.integrationId, row.id));
  if (!existing) return;
  const watched = watchedOf(row.type);
  if (watched && watched.watch.setup !== 'pasted' && existing.remoteId && row.auth) {
    try {
      const { url } = openSecret(deps, existing);
      await watched.watch.unsubscribe(watchContext(deps, watched.connector, row), { id: existing.remoteId, url });
    } catch (error) {
      deps.log.warn({ integrationId: row.id, reason: reasonOf(error) }, 'CRM webhook not removed');
    }
  }
  await deps.db.delete(crmWatches).where(eq(crmWatches.integrationId, row.id));
}

export type WatchOutcome = 'subscribed' | 'exists' | 'skipped' | 'failed';

/**
 * Subscribes the destination's CRM to our events URL, once. `renew` (a new connection, perhaps to
 * another CRM account): an earlier subscription is removed first and a new secret made.
 */
export async function watchIntegration(
  deps: Deps,
  row: IntegrationRow,
  options: { renew?: boolean; now?: Date; timeoutMs?: number } = {},
): Promise<WatchOutcome> {
  const watched = watchedOf(row.type);
  if (!watched || !row.auth) return 'skipped';
  const now = options.now ?? new Date();
  // Set up by hand: its address is made once and kept across reconnects (the CRM's webhook names it).
  if (watched.watch.setup === 'pasted') {
    await pastedWatchRow(deps, row, now);
    return 'skipped';
  }
  const watch: StageWatch<unknown, unknown> = watched.watch;
  if (options.renew) await unwatchIntegration(deps, row);
  const [existing] = await deps.db.select().from(crmWatches).where(eq(crmWatches.integrationId, row.id));
  if (existing?.remoteId) return 'exists';
  // An unfinished row keeps its URL: a CRM that did subscribe before we heard back knows that one.
  let sealed: CrmWatchSecret;
  try {
    sealed = existing ? openSecret(deps, existing) : { secret: '', url: '' };
  } catch {
    sealed = { secret: '', url: '' };
  }
  if (!sealed.secret) {
    const secret = newSecret();
    sealed = { secret, url: eventsUrl(deps.config.publicUrl, row.type, row.id, secret) };
  }
  await deps.db
    .insert(crmWatches)
    .values({
      integrationId: row.id,
      accountId: row.accountId,
      secret: deps.secrets.seal(sealed, row.id),
      attemptedAt: now,
    })
    .onConflictDoUpdate({
      target: crmWatches.integrationId,
      set: { secret: deps.secrets.seal(sealed, row.id), attemptedAt: now },
    });
  try {
    const ctx = watchContext(deps, watched.connector, row, options.timeoutMs);
    const made = await watch.subscribe(ctx, sealed.url);
    await deps.db
      .update(crmWatches)
      .set({ remoteId: made.id || null, subscribedAt: new Date(), lastError: null })
      .where(eq(crmWatches.integrationId, row.id));
    return made.id ? 'subscribed' : 'failed';
  } catch (error) {
    const reason = reasonOf(error);
    deps.log.warn({ integrationId: row.id, reason }, 'CRM webhook not subscribed');
    await deps.db.update(crmWatches).set({ lastError: reason }).where(eq(crmWatches.integrationId, row.id));
    return 'failed';
  }
}

/**
 * After a connect: subscribes before the connect answers (one call to the CRM, at most
 * CONNECT_TIMEOUT_MS), so the destination is watched once the user sees it connected. Never throws:
 * a refusal or a slow CRM is left to the periodic task.
 */
export async function watchAfterConnect(deps: Deps, row: Pick<IntegrationRow, 'id'>): Promise<void> {
  try {
    const [fresh] = await deps.db.select().from(integrations).where(eq(integrations.id, row.id));
    if (fresh) await watchIntegration(deps, fresh, { renew: true, timeoutMs: CONNECT_TIMEOUT_MS });
  } catch (error) {
    deps.log.warn({ integrationId: row.id, reason: reasonOf(error) }, 'CRM watch failed');
  }
}

/** Connected destinations of the watched types without a subscription, or whose last try is old enough. */
export async function destinationsToWatch(db: Executor, now: Date, limit = BATCH): Promise<IntegrationRow[]> {
  const retryBefore = new Date(now.getTime() - RETRY_AFTER_MS);
  const rows = await db
    .select({ row: integrations })
    .from(integrations)
    .leftJoin(crmWatches, eq(crmWatches.integrationId, integrations.id))
    .where(
      and(
        inArray(integrations.type, watchedTypes('subscribe')),
        sql`${integrations.auth} is not null`,
        eq(integrations.status, 'ok'),
        or(isNull(crmWatches.integrationId), and(isNull(crmWatches.remoteId), lt(crmWatches.attemptedAt, retryBefore))),
      ),
    )
    .orderBy(integrations.createdAt)
    .limit(limit);
  return rows.map((r) => r.row);
}

/** The periodic task: destinations connected before this feature, and failed tries, every so often. */
export const crmWatchTasks = (deps: Deps): PeriodicTask[] => [
  {
    name: 'crm-watch',
    everyMs: 15 * 60_000,
    async run(tx, now) {
      // Every query in the task's transaction (house style), the token refresh's too.
      const txDeps: Deps = { ...deps, db: tx as unknown as Db };
      let subscribed = 0;
      for (const row of await destinationsToWatch(tx, now)) {
        if ((await watchIntegration(txDeps, row, { now })) === 'subscribed') subscribed++;
      }
      return { subscribed };
    },
  },
];

/**
 * GET /api/integrations/:id/crm-watch: whether the destination's CRM tells us of stage changes, for
 * its page to say so (or why not). Another account's id, or a type without stage changes: 404.
 */
export async function crmWatchOf(deps: Deps, actor: Actor, id: string): Promise<CrmWatch> {
  const row = await ownRow(deps.db, actor, id);
  const watched = watchedOf(row.type);
  if (!watched) throw new AppError('INTEGRATION_NOT_FOUND');
  const none = { since: null, reason: null, nextTryAt: null };
  if (watched.watch.setup === 'pasted') return pastedState(deps, row, !!watched.watch.tokenOf);
  if (!row.auth) return { state: 'off', ...none };
  const [watch] = await deps.db.select().from(crmWatches).where(eq(crmWatches.integrationId, row.id));
  if (watch?.remoteId) return { ...none, state: 'watching', since: watch.subscribedAt?.toISOString() ?? null };
  if (watch?.lastError) {
    return {
      state: 'failed',
      since: watch.attemptedAt.toISOString(),
      reason: watch.lastError,
      nextTryAt: new Date(watch.attemptedAt.getTime() + RETRY_AFTER_MS).toISOString(),
    };
  }
  return { state: 'pending', ...none };
}

// ---- A watch set up by hand (PastedStageWatch) ----

/** The row of a pasted watch, made with a new secret (and our address) when there is none; its sealed contents. */
async function pastedWatchRow(deps: Deps, row: IntegrationRow, now = new Date()): Promise<CrmWatchSecret> {
  const secret = newSecret();
  const made: CrmWatchSecret = { secret, url: eventsUrl(deps.config.publicUrl, row.type, row.id, secret) };
  await deps.db
    .insert(crmWatches)
    .values({
      integrationId: row.id,
      accountId: row.accountId,
      secret: deps.secrets.seal(made, row.id),
      attemptedAt: now,
    })
    .onConflictDoNothing({ target: crmWatches.integrationId });
  const [stored] = await deps.db.select().from(crmWatches).where(eq(crmWatches.integrationId, row.id));
  return openSecret(deps, stored!);
}

/**
 * A pasted watch as its page shows it: `off` until the destination is connected; then our address
 * to paste at the CRM, and `pending` until the CRM's token is pasted back, `watching` after.
 */
async function pastedState(deps: Deps, row: IntegrationRow, takesToken: boolean): Promise<CrmWatch> {
  const none = { since: null, reason: null, nextTryAt: null };
  if (!row.auth) return { state: 'off', ...none, setup: 'pasted', address: null, tokenSet: false };
  const sealed = await pastedWatchRow(deps, row);
  const [watch] = await deps.db.select().from(crmWatches).where(eq(crmWatches.integrationId, row.id));
  const tokenSet = typeof sealed.token === 'string' && sealed.token !== '';
  // Without a token to paste, watching since the CRM's first call (crm-events.service.ts).
  const watching = takesToken ? tokenSet : !!watch?.subscribedAt;
  return {
    ...none,
    state: watching ? 'watching' : 'pending',
    since: watching ? (watch?.subscribedAt?.toISOString() ?? null) : null,
    setup: 'pasted',
    address: sealed.url,
    tokenSet,
  };
}

/**
 * POST /api/integrations/:id/crm-watch/token: the token the CRM showed for the outgoing webhook the
 * person made with our address, stored sealed beside the address's secret (a new one replaces it).
 */
export async function savePastedToken(deps: Deps, actor: Actor, id: string, body: unknown): Promise<CrmWatch> {
  const row = await ownRow(deps.db, actor, id);
  const watched = watchedOf(row.type);
  if (!watched) throw new AppError('INTEGRATION_NOT_FOUND');
  if (watched.watch.setup !== 'pasted') throw new AppError('OPERATION_NOT_SUPPORTED');
  const watch: PastedStageWatch<unknown, unknown> = watched.watch;
  // A CRM whose webhook carries no token has none to paste.
  if (!watch.token) throw new AppError('OPERATION_NOT_SUPPORTED');
  if (!row.auth) throw new AppError('INTEGRATION_NOT_CONNECTED');
  const raw = (body as { token?: unknown } | null)?.token;
  const token = typeof raw === 'string' ? raw.trim() : raw;
  if (token === undefined || token === null || token === '') {
    throw new AppError('VALIDATION_ERROR', { errors: [{ field: 'token', code: 'REQUIRED' }] });
  }
  if (typeof token !== 'string') {
    throw new AppError('VALIDATION_ERROR', { errors: [{ field: 'token', code: 'INVALID_TYPE' }] });
  }
  const parsed = watch.token.safeParse(token);
  if (!parsed.success) {
    const message = parsed.error.issues[0]?.message ?? '';
    throw new AppError('VALIDATION_ERROR', {
      errors: [{ field: 'token', code: isKnownCode(message) ? message : 'VALIDATION_ERROR' }],
    });
  }
  const sealed = await pastedWatchRow(deps, row);
  await deps.db
    .update(crmWatches)
    .set({
      secret: deps.secrets.seal({ ...sealed, token: parsed.data }, row.id),
      subscribedAt: new Date(),
      lastError: null,
    })
    .where(eq(crmWatches.integrationId, row.id));
  return pastedState(deps, row, true);
}
