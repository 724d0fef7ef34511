// An account's connections, their assets (the person logged in and what they reach), an asset's live
// state, pictures, subscribing an asset to the service's events and forgetting a connection. Everything
// is scoped to the actor's account and the connector's type; the answers are generic views the
// connector's aliases shape.
import { and, asc, eq, ne } from 'drizzle-orm';
import type { Executor } from '../../db/client';
import {
  type ConnectorAssetRow,
  type ConnectorConnectionRow,
  connectorAssets,
  connectorConnections,
} from '../../db/schema';
import { AppError } from '../../lib/app-error';
import { type ConnectionConnector, type ConnectionDeps, callFor, isConfigured, receiverUrl } from './connection-deps';
import { reasonOf, withConnection } from './connection-health';
import {
  type Actor,
  assetsOf,
  assetTokenOf,
  assetView,
  connectionTokenOf,
  connectionView,
  ownAsset,
  ownConnection,
  syncAssets,
} from './connection-store';

export async function listConnections(db: Executor, c: ConnectionConnector, actor: Actor) {
  const rows = await db
    .select()
    .from(connectorConnections)
    .where(and(eq(connectorConnections.accountId, actor.id), eq(connectorConnections.type, c.type)))
    .orderBy(asc(connectorConnections.createdAt), asc(connectorConnections.id));
  const assets = await assetsOf(
    db,
    c,
    rows.map((r) => r.id),
  );
  return rows.map((r) => ({
    connection: connectionView(r),
    assets: assets.filter((a) => a.connectionId === r.id).map(assetView),
  }));
}

/** Reads the person's assets from the service again (new ones, renewed tokens, removed ones). */
export async function refreshAssets(deps: ConnectionDeps, c: ConnectionConnector, conn: ConnectorConnectionRow) {
  const call = callFor(deps, c);
  const assets = await withConnection(deps, c, conn, () =>
    c.spec.asset.list(call, connectionTokenOf(deps.secrets, conn)),
  );
  await deps.db.transaction((tx) => syncAssets(tx, deps.secrets, conn, c.spec.asset.kind, assets, true));
}

/** One connection's person with its assets (read again from the service first when `refresh`). */
export async function connectionAssets(
  deps: ConnectionDeps,
  c: ConnectionConnector,
  actor: Actor,
  connectionId: string,
  refresh = false,
) {
  const conn = await ownConnection(deps.db, actor, c, connectionId);
  if (refresh) await refreshAssets(deps, c, conn);
  const assets = await assetsOf(deps.db, c, [conn.id]);
  return { connection: connectionView(conn), assets: assets.map(assetView) };
}

export async function listAssets(db: Executor, c: ConnectionConnector, actor: Actor, connectionId: string) {
  const conn = await ownConnection(db, actor, c, connectionId);
  return (await assetsOf(db, c, [conn.id])).map(assetView);
}

/** An asset's state: subscribed or not, and what it offers integrations, live from the service. */
export async function assetState(
  deps: ConnectionDeps,
  c: ConnectionConnector,
  actor: Actor,
  connectionId: string,
  assetId: string,
) {
  const conn = await ownConnection(deps.db, actor, c, connectionId);
  const asset = await ownAsset(deps.db, c, conn, assetId);
  const call = callFor(deps, c);
  const live = await withConnection(deps, c, conn, () =>
    c.spec.asset.state(call, asset.externalId, assetTokenOf(deps.secrets, asset)),
  );
  let subscribed = asset.subscribed;
  // Removed at the service (e.g. in the page's settings): no events come, so show it unsubscribed.
  // Not the other way round: another account's subscription of the same asset is not ours.
  if (subscribed && !live.subscribed) {
    await deps.db
      .update(connectorAssets)
      .set({ subscribed: false, subscribedAt: null, updatedAt: new Date() })
      .where(eq(connectorAssets.id, asset.id));
    subscribed = false;
  }
  return { asset: { ...assetView(asset), subscribed }, state: { forms: live.forms, subscribed } };
}

/** The caller's connection (by the person's id) or asset (by its id) with the token to read its picture. */
async function pictureOwner(deps: ConnectionDeps, c: ConnectionConnector, actor: Actor, objectId: string) {
  const [conn] = await deps.db
    .select()
    .from(connectorConnections)
    .where(
      and(
        eq(connectorConnections.accountId, actor.id),
        eq(connectorConnections.type, c.type),
        eq(connectorConnections.externalId, objectId),
      ),
    )
    .limit(1);
  if (conn) return { conn, token: () => connectionTokenOf(deps.secrets, conn) };
  const [row] = await deps.db
    .select({ asset: connectorAssets, conn: connectorConnections })
    .from(connectorAssets)
    .innerJoin(connectorConnections, eq(connectorConnections.id, connectorAssets.connectionId))
    .where(
      and(
        eq(connectorAssets.accountId, actor.id),
        eq(connectorConnections.type, c.type),
        eq(connectorAssets.kind, c.spec.asset.kind),
        eq(connectorAssets.externalId, objectId),
      ),
    )
    .limit(1);
  if (!row) throw new AppError(c.spec.notFound.asset);
  return { conn: row.conn, token: () => assetTokenOf(deps.secrets, row.asset) };
}

/** The picture URL of the caller's person or asset, asked of the service once per 2 hours per id. */
export async function picture(
  deps: ConnectionDeps,
  c: ConnectionConnector,
  actor: Actor,
  objectId: string,
): Promise<{ url: string | null }> {
  const owner = await pictureOwner(deps, c, actor, objectId);
  const key = `${c.type}:${objectId}`;
  const cached = deps.pictures.get(key);
  if (cached !== undefined) return { url: cached };
  const call = callFor(deps, c);
  const url = await withConnection(deps, c, owner.conn, () => c.spec.picture(call, objectId, owner.token()));
  deps.pictures.set(key, url);
  return { url };
}

/** Asset rows of other connections (any account) that keep our app subscribed on the same asset. */
export async function othersSubscribed(db: Executor, asset: ConnectorAssetRow): Promise<boolean> {
  const [other] = await db
    .select({ id: connectorAssets.id })
    .from(connectorAssets)
    .where(
      and(
        eq(connectorAssets.kind, asset.kind),
        eq(connectorAssets.externalId, asset.externalId),
        eq(connectorAssets.subscribed, true),
        ne(connectorAssets.id, asset.id),
      ),
    )
    .limit(1);
  return !!other;
}

/**
 * Subscribes the asset to the service's events: the app's subscription to our receiver when missing
 * (its failure is CONNECTION_FAILED with the connector's words, the connection stays as it is), then
 * the asset's own with its token.
 */
export async function subscribeAsset(
  deps: ConnectionDeps,
  c: ConnectionConnector,
  actor: Actor,
  connectionId: string,
  assetId: string,
) {
  const conn = await ownConnection(deps.db, actor, c, connectionId);
  const asset = await ownAsset(deps.db, c, conn, assetId);
  const call = callFor(deps, c);
  const url = receiverUrl(deps, c);
  try {
    await c.spec.inbound.ensure(call, { url, verifyToken: c.spec.verifyToken(call.config) ?? '' });
  } catch (error) {
    const message = error instanceof Error ? error.message : String(error);
    deps.log.error({ callback: url, reason: message }, 'app webhook subscription failed');
    throw new AppError('CONNECTION_FAILED', { message });
  }
  await withConnection(deps, c, conn, () =>
    c.spec.asset.subscribe(call, asset.externalId, assetTokenOf(deps.secrets, asset), { url }),
  );
  const now = new Date();
  await deps.db
    .update(connectorAssets)
    .set({ subscribed: true, subscribedAt: now, updatedAt: now })
    .where(eq(connectorAssets.id, asset.id));
  return { success: true as const };
}

/** Takes our app off the asset at the service, unless another connection still has it subscribed. */
export async function unsubscribeAsset(
  deps: ConnectionDeps,
  c: ConnectionConnector,
  actor: Actor,
  connectionId: string,
  assetId: string,
) {
  const conn = await ownConnection(deps.db, actor, c, connectionId);
  const asset = await ownAsset(deps.db, c, conn, assetId);
  const call = callFor(deps, c);
  if (!(await othersSubscribed(deps.db, asset))) {
    await withConnection(deps, c, conn, () =>
      c.spec.asset.unsubscribe(call, asset.externalId, assetTokenOf(deps.secrets, asset), {
        url: receiverUrl(deps, c),
      }),
    );
  }
  await deps.db
    .update(connectorAssets)
    .set({ subscribed: false, subscribedAt: null, updatedAt: new Date() })
    .where(eq(connectorAssets.id, asset.id));
  return { success: true as const };
}

/**
 * Removes the connection with its assets. Our app is taken off its subscribed assets at the service
 * when no other connection still uses them (best effort). Integrations that used it stay, not
 * connected, until they are moved to another connection.
 */
export async function removeConnection(
  deps: ConnectionDeps,
  c: ConnectionConnector,
  actor: Actor,
  connectionId: string,
) {
  const conn = await ownConnection(deps.db, actor, c, connectionId);
  const assets = await assetsOf(deps.db, c, [conn.id]);
  const subscribed = assets.filter((a) => a.subscribed);
  if (subscribed.length && isConfigured(deps, c)) {
    const call = callFor(deps, c);
    for (const asset of subscribed) {
      if (await othersSubscribed(deps.db, asset)) continue;
      try {
        await c.spec.asset.unsubscribe(call, asset.externalId, assetTokenOf(deps.secrets, asset), {
          url: receiverUrl(deps, c),
        });
      } catch (error) {
        deps.log.warn(
          { connectionId, assetId: asset.externalId, reason: reasonOf(c, error) },
          'asset not unsubscribed at the service',
        );
      }
    }
  }
  await deps.db
    .delete(connectorConnections)
    .where(and(eq(connectorConnections.id, conn.id), eq(connectorConnections.accountId, actor.id)));
  return { success: true as const };
}

/** What the integration form's asset picker lists: every asset of every connection of the account. */
export async function assetItems(db: Executor, c: ConnectionConnector, actor: Actor) {
  const rows = await db
    .select({ asset: connectorAssets, conn: connectorConnections })
    .from(connectorAssets)
    .innerJoin(connectorConnections, eq(connectorConnections.id, connectorAssets.connectionId))
    .where(
      and(
        eq(connectorAssets.accountId, actor.id),
        eq(connectorConnections.type, c.type),
        eq(connectorAssets.kind, c.spec.asset.kind),
      ),
    )
    .orderBy(
      asc(connectorConnections.name),
      asc(connectorConnections.createdAt),
      asc(connectorAssets.name),
      asc(connectorAssets.externalId),
    );
  return rows.map(({ asset, conn }) => ({ connection: connectionView(conn), asset: assetView(asset) }));
}
