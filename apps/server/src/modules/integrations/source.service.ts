// A source's screen and its senders (kit/source.ts): what the screen reads (its connector's reading
// of the state, the subscription, the poll and the items seen lately), our receiver registered at
// the sender or removed, a poll now, and what a receiver does with a call: find the integration by
// its secret token, read the items out of the body, take each into the lead flow.
import { randomBytes } from 'node:crypto';
import {
  type ConnectorDefinition,
  type ConnectorSource,
  getConnector,
  type SourceItemOutcome,
  type SourceReceiver,
  type SourceView,
} from '@leadrelay/connectors';
import { ownValue } from '@leadrelay/shared';
import { and, desc, eq, sql } from 'drizzle-orm';
import { z } from 'zod';
import { type Deps, destinationPolicy } from '../../config';
import type { Executor } from '../../db/client';
import { connectorSeen, connectorState, hooks, type IntegrationRow, integrations } from '../../db/schema';
import { buildConnectorContext } from '../../delivery/connector-context';
import { runtimeExtras } from '../../delivery/connector-runtime';
import { readAuth } from '../../delivery/stored-auth';
import { AppError } from '../../lib/app-error';
import { nestsDeeperThan } from '../../plugins/input';
import { connectorError } from './connector-errors';
import { type Actor, ownIntegrationOfType, ownRow } from './integration-rows';
import type { SourceDeps } from './source-deps';
import { type Arrival, type SourceRef, takeItems } from './source-items';
import { pollSource } from './source-poll';
import { NO_SUBSCRIPTION, stateRow, stateView, upsertState } from './source-state';

type Connector = ConnectorDefinition<unknown, unknown>;
type Source = ConnectorSource<unknown, unknown>;

/** Items a screen lists when its connector does not say. */
const RECENT = 20;

/** The actor's integration: of `type` when an alias names it (another type's: 404), else of any. */
const rowFor = (db: Executor, actor: Actor, id: string, type?: string) =>
  type ? ownIntegrationOfType(db, actor, id, type) : ownRow(db, actor, id);

/** The connector of a source integration and what it declares; OPERATION_NOT_SUPPORTED for any other. */
export function sourceOf(row: Pick<IntegrationRow, 'type'>): { connector: Connector; source: Source } {
  const connector = getConnector(row.type);
  if (!connector?.source) throw new AppError('OPERATION_NOT_SUPPORTED');
  return { connector, source: connector.source };
}

/** A receiver's public URL for the integration's token. */
export const receiverUrl = (publicUrl: string, receiver: Pick<SourceReceiver, 'path'>, token: string) =>
  `${publicUrl}${receiver.path.replace(/:token$/, token)}`;

/** The ctx of a stored connection, for a person waiting (the interactive timeout). */
function storedContext(deps: Deps, connector: Connector, row: IntegrationRow) {
  return buildConnectorContext(connector, row, {
    secrets: deps.secrets,
    extras: runtimeExtras(deps, connector, row.id),
    policy: destinationPolicy(deps.config),
    logger: deps.log.child({ integrationId: row.id, connector: connector.slug }),
  });
}

// ---- What the screen reads ----

async function sourceView(deps: Deps, source: Source, row: IntegrationRow): Promise<SourceView> {
  const state = await stateRow(deps.db, row.id);
  let auth: Record<string, unknown> = {};
  try {
    auth = readAuth(deps.secrets, row);
  } catch {
    // Sealed with a key we no longer have: shown as not connected; connecting again replaces it.
  }
  const seen = await deps.db
    .select({ s: connectorSeen, status: hooks.status })
    .from(connectorSeen)
    .leftJoin(hooks, eq(hooks.id, connectorSeen.hookId))
    .where(eq(connectorSeen.integrationId, row.id))
    .orderBy(desc(connectorSeen.firstSeenAt), desc(connectorSeen.itemId))
    .limit(source.state?.recent ?? RECENT);
  const token = row.hookToken;
  return {
    auth,
    settings: row.settings ?? {},
    ...stateView(state),
    receivers: Object.fromEntries(
      token
        ? Object.entries(source.receivers ?? {}).map(([name, r]) => [
            name,
            receiverUrl(deps.config.publicUrl, r, token),
          ])
        : [],
    ),
    seen: seen.map(({ s, status }) => ({
      id: s.itemId,
      via: s.via,
      timesSeen: s.timesSeen,
      hookId: s.hookId,
      status: status ?? null,
      summary: s.summary,
      firstSeenAt: s.firstSeenAt,
      lastSeenAt: s.lastSeenAt,
    })),
  };
}

const iso = (d: Date | null) => (d ? d.toISOString() : null);

/** The state of a source whose connector declares no reading of its own: never its credentials. */
export const ZSourceState = z.object({
  subscription: z.object({
    status: z.enum(['none', 'active', 'removed']),
    registeredAt: z.string().nullable(),
    removedAt: z.string().nullable(),
  }),
  poll: z.object({ cursor: z.unknown(), lastRunAt: z.string().nullable(), lastError: z.string().nullable() }),
  seen: z.array(
    z.object({
      id: z.string(),
      via: z.enum(['webhook', 'poll']),
      timesSeen: z.number().int(),
      hookId: z.string().nullable(),
      status: z.string().nullable(),
      summary: z.record(z.string(), z.string().nullable()),
      firstSeenAt: z.string(),
      lastSeenAt: z.string(),
    }),
  ),
});

function defaultState(view: SourceView): z.infer<typeof ZSourceState> {
  return {
    subscription: {
      ...view.subscription,
      registeredAt: iso(view.subscription.registeredAt),
      removedAt: iso(view.subscription.removedAt),
    },
    poll: { cursor: view.poll.cursor, lastRunAt: iso(view.poll.lastRunAt), lastError: view.poll.lastError },
    seen: view.seen.map((s) => ({
      ...s,
      firstSeenAt: s.firstSeenAt.toISOString(),
      lastSeenAt: s.lastSeenAt.toISOString(),
    })),
  };
}

/** What GET .../source answers for this type (the connector's schema, else ZSourceState). */
export const stateSchemaOf = (connector: Connector | undefined) => connector?.source?.state?.schema ?? ZSourceState;

/** The connector's reading of the view, or the generic one. */
export const readState = (source: Source, view: SourceView): unknown =>
  source.state ? source.state.read(view) : defaultState(view);

async function stateOfRow(deps: Deps, source: Source, row: IntegrationRow): Promise<unknown> {
  return readState(source, await sourceView(deps, source, row));
}

export async function sourceState(deps: Deps, actor: Actor, id: string, type?: string): Promise<unknown> {
  const row = await rowFor(deps.db, actor, id, type);
  return stateOfRow(deps, sourceOf(row).source, row);
}

// ---- Our receiver at the sender ----

const newToken = () => randomBytes(32).toString('base64url');

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

function subscriptionOf(source: Source) {
  const subscription = source.subscription;
  const receiver = subscription && (ownValue(source.receivers, subscription.receiver) as SourceReceiver | undefined);
  if (!subscription || !receiver) throw new AppError('OPERATION_NOT_SUPPORTED');
  return { subscription, receiver };
}

/**
 * Registers our receiver at the sender. One already registered by us is removed first, so
 * registering again never spends another of the sender's subscriptions.
 */
export async function subscribe(deps: Deps, actor: Actor, id: string, type?: string): Promise<{ data: unknown }> {
  const row = await rowFor(deps.db, actor, id, type);
  const { connector, source } = sourceOf(row);
  const { subscription, receiver } = subscriptionOf(source);
  if (!row.auth) throw new AppError('INTEGRATION_NOT_CONNECTED');
  const ctx = storedContext(deps, connector, row);
  const url = receiverUrl(deps.config.publicUrl, receiver, await ensureHookToken(deps.db, row));
  const before = await stateRow(deps.db, row.id);
  let subscriptionId: string;
  try {
    if (before?.subscriptionStatus === 'active' && before.subscriptionId) {
      await subscription
        .unsubscribe(ctx, { id: before.subscriptionId, url })
        .catch((error) =>
          deps.log.warn(
            { integrationId: row.id, connector: connector.slug, reason: (error as Error).message },
            'old receiver subscription not removed',
          ),
        );
    }
    ({ id: subscriptionId } = await subscription.subscribe(ctx, url));
  } catch (error) {
    throw connectorError(connector, error);
  }
  const now = new Date();
  await upsertState(deps.db, connector, row, now, {
    subscriptionId,
    subscriptionStatus: 'active',
    subscriptionRegisteredAt: now,
    subscriptionRemovedAt: null,
  });
  return { data: await stateOfRow(deps, source, row) };
}

/** Removes our subscription at the sender (one it already dropped counts as removed). */
export async function unsubscribe(deps: Deps, actor: Actor, id: string, type?: string): Promise<{ data: unknown }> {
  const row = await rowFor(deps.db, actor, id, type);
  const { connector, source } = sourceOf(row);
  const { subscription, receiver } = subscriptionOf(source);
  const before = await stateRow(deps.db, row.id);
  if (before?.subscriptionStatus === 'active' && before.subscriptionId && row.hookToken) {
    if (!row.auth) throw new AppError('INTEGRATION_NOT_CONNECTED');
    const url = receiverUrl(deps.config.publicUrl, receiver, row.hookToken);
    try {
      await subscription.unsubscribe(storedContext(deps, connector, row), { id: before.subscriptionId, url });
    } catch (error) {
      throw connectorError(connector, error);
    }
  }
  if (before) {
    await deps.db
      .update(connectorState)
      .set({ subscriptionId: null, subscriptionStatus: 'none', subscriptionRemovedAt: null, updatedAt: new Date() })
      .where(eq(connectorState.integrationId, row.id));
  }
  return { data: await stateOfRow(deps, source, row) };
}

// ---- A poll now ----

/** One poll of this integration now (its failure is the state's last error, not an error answer). */
export async function pollNow(deps: SourceDeps, actor: Actor, id: string, type?: string): Promise<{ data: unknown }> {
  const row = await rowFor(deps.db, actor, id, type);
  const { connector, source } = sourceOf(row);
  if (!source.poll) throw new AppError('OPERATION_NOT_SUPPORTED');
  if (!row.auth || !row.hookToken) throw new AppError('INTEGRATION_NOT_CONNECTED');
  // An inactive source takes no leads: nothing to look for (the page says it is off).
  if (row.active) await pollSource(deps, connector, row, await stateRow(deps.db, row.id), new Date());
  return { data: await stateOfRow(deps, source, row) };
}

// ---- What a receiver does ----

/** The integration of `type` whose ingest token this is (active only, unless told); INTEGRATION_NOT_FOUND otherwise. */
async function sourceByToken(
  db: Executor,
  type: string,
  token: string,
  activeOnly: boolean,
): Promise<SourceRef & { auth: IntegrationRow['auth'] }> {
  const [row] = await db
    .select({
      id: integrations.id,
      accountId: integrations.accountId,
      active: integrations.active,
      auth: integrations.auth,
    })
    .from(integrations)
    .where(and(eq(integrations.hookToken, token), eq(integrations.type, type)));
  if (!row || (activeOnly && !row.active)) throw new AppError('INTEGRATION_NOT_FOUND');
  return { id: row.id, accountId: row.accountId, hookToken: token, auth: row.auth };
}

/** A receiver that checks a secret in the body against the stored credentials (none stored, or unreadable: refused). */
function verified(
  deps: Pick<Deps, 'secrets'>,
  receiver: SourceReceiver,
  row: { id: string; auth: IntegrationRow['auth'] },
  body: unknown,
) {
  if (!receiver.verify) return;
  let auth: Record<string, unknown> = {};
  try {
    auth = readAuth(deps.secrets, row);
  } catch {
    // Sealed with a key we no longer have: no secret to compare with, so nothing proves the sender.
  }
  if (!receiver.verify.check(body, auth)) throw new AppError(receiver.verify.refused);
}

/** A parsed body nesting too deep is BODY_TOO_DEEP; one with no item in it the receiver's `empty` error. */
function itemsIn(receiver: SourceReceiver, body: unknown) {
  if (nestsDeeperThan(body)) throw new AppError('BODY_TOO_DEEP');
  // Text PostgreSQL cannot store is cleaned in each item (source-items.ts), never by walking the whole body.
  const items = receiver.read(body);
  if (items.length === 0) throw new AppError(receiver.empty);
  return items;
}

/**
 * A call to a receiver: the token's integration first (404 before the body is read), then the items,
 * each taken into the lead flow. `body` parses the request's bytes (INVALID_JSON when they are not JSON).
 */
export async function receive(
  deps: Pick<Deps, 'db' | 'events' | 'log' | 'secrets'>,
  connector: Connector,
  receiver: SourceReceiver,
  token: string,
  body: () => Promise<unknown>,
  request: Omit<Arrival, 'via'>,
): Promise<SourceItemOutcome[]> {
  const { auth, ...source } = await sourceByToken(deps.db, connector.slug, token, true);
  const parsed = await body();
  verified(deps, receiver, { id: source.id, auth }, parsed);
  const items = itemsIn(receiver, parsed);
  // Ingest tells the browsers (hook.changed → HOOK_INFORMER); a source's screen listens to it.
  return takeItems(deps, connector, source, items, { ...request, via: 'webhook' });
}

/** The sender removed our subscription (a DELETE to the receiver): the screen says so, registering again fixes it. */
export async function subscriptionRemoved(deps: Deps, connector: Connector, token: string): Promise<void> {
  const source = await sourceByToken(deps.db, connector.slug, token, false);
  const now = new Date();
  await upsertState(deps.db, connector, source, now, { subscriptionStatus: 'removed', subscriptionRemovedAt: now });
  deps.log.info(
    { integrationId: source.id, connector: connector.slug },
    'the sender removed our receiver subscription',
  );
}

/** A source connected (again): the poll starts from now if it had not yet; another account at the other end starts afresh. */
export async function startSource(
  tx: Executor,
  connector: Connector,
  row: { id: string; accountId: string },
  isNewAccount: boolean,
  now: Date,
): Promise<void> {
  const poll = connector.source?.poll;
  const start = poll ? poll.start(now) : null;
  await upsertState(
    tx,
    connector,
    row,
    now,
    {},
    {
      ...(poll
        ? {
            cursor: isNewAccount ? start : sql`coalesce(${connectorState.cursor}, ${JSON.stringify(start)}::jsonb)`,
            pollFrom: isNewAccount ? now : sql`coalesce(${connectorState.pollFrom}, ${now.toISOString()}::timestamptz)`,
          }
        : {}),
      lastPollError: null,
      ...(isNewAccount ? NO_SUBSCRIPTION : {}),
    },
  );
}
