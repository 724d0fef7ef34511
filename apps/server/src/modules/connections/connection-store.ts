// The connector_connections and connector_assets rows: reading them scoped to the account, opening
// their sealed tokens and writing what the service answered (a login, a refresh of the assets).
import { randomUUID } from 'node:crypto';
import type { AssetView, ConnectionAssetInput, ConnectionProfile, ConnectionView } from '@leadrelay/connectors';
import { and, asc, eq, inArray, notInArray } from 'drizzle-orm';
import type { Executor } from '../../db/client';
import {
  type ConnectorAssetRow,
  type ConnectorConnectionRow,
  connectorAssets,
  connectorConnections,
  type UserRow,
} from '../../db/schema';
import { AppError } from '../../lib/app-error';
import { isUuid } from '../../lib/ids';
import { type SecretBox, SecretUnreadableError } from '../../lib/secret-box';
import type { ConnectionConnector } from './connection-deps';

export type Actor = Pick<UserRow, 'id'>;

// ---- Reading (another account's ids, names that are no ids: 404) ----

export async function ownConnection(
  db: Executor,
  actor: Actor,
  c: ConnectionConnector,
  connectionId: string,
): Promise<ConnectorConnectionRow> {
  if (!isUuid(connectionId)) throw new AppError(c.spec.notFound.connection);
  const [row] = await db
    .select()
    .from(connectorConnections)
    .where(
      and(
        eq(connectorConnections.id, connectionId),
        eq(connectorConnections.accountId, actor.id),
        eq(connectorConnections.type, c.type),
      ),
    );
  if (!row) throw new AppError(c.spec.notFound.connection);
  return row;
}

export async function ownAsset(
  db: Executor,
  c: ConnectionConnector,
  conn: ConnectorConnectionRow,
  assetId: string,
): Promise<ConnectorAssetRow> {
  const [row] = await db
    .select()
    .from(connectorAssets)
    .where(
      and(
        eq(connectorAssets.connectionId, conn.id),
        eq(connectorAssets.accountId, conn.accountId),
        eq(connectorAssets.kind, c.spec.asset.kind),
        eq(connectorAssets.externalId, assetId),
      ),
    );
  if (!row) throw new AppError(c.spec.notFound.asset);
  return row;
}

/** The integrations' kind of asset of these connections, by name. */
export async function assetsOf(db: Executor, c: ConnectionConnector, connectionIds: string[]) {
  if (connectionIds.length === 0) return [];
  return db
    .select()
    .from(connectorAssets)
    .where(and(inArray(connectorAssets.connectionId, connectionIds), eq(connectorAssets.kind, c.spec.asset.kind)))
    .orderBy(asc(connectorAssets.name), asc(connectorAssets.externalId));
}

// ---- What the connector's views see (nothing secret) ----

export const connectionView = (row: ConnectorConnectionRow): ConnectionView => ({
  id: row.id,
  externalId: row.externalId,
  name: row.name,
  email: row.email,
  status: row.status,
  statusReason: row.statusReason,
  expiresAt: row.expiresAt,
  createdAt: row.createdAt,
});

export const assetView = (row: ConnectorAssetRow): AssetView => ({
  connectionId: row.connectionId,
  externalId: row.externalId,
  name: row.name,
  details: row.details,
  subscribed: row.subscribed,
});

// ---- Tokens (sealed { accessToken }, bound to the row id) ----

const seal = (secrets: SecretBox, id: string, accessToken: string) => secrets.seal({ accessToken }, id);

function open(secrets: SecretBox, stored: unknown, id: string): string {
  try {
    const token = secrets.open(stored, id).accessToken;
    if (typeof token === 'string' && token) return token;
  } catch (error) {
    if (!(error instanceof SecretUnreadableError)) throw error;
  }
  throw new AppError('INTEGRATION_AUTH_UNREADABLE');
}

export const connectionTokenOf = (secrets: SecretBox, conn: Pick<ConnectorConnectionRow, 'id' | 'secret'>) =>
  open(secrets, conn.secret, conn.id);
export const assetTokenOf = (secrets: SecretBox, asset: { id: string; secret: unknown }) =>
  open(secrets, asset.secret, asset.id);

// ---- Writing what the service answered ----

export interface ConnectedLogin {
  profile: ConnectionProfile;
  token: { accessToken: string; expiresIn?: number };
}

/**
 * Inserts the connection, or updates the account's connection of the same person (new token,
 * status ok), then writes its assets. Runs in the caller's transaction.
 */
export async function upsertConnection(
  tx: Executor,
  secrets: SecretBox,
  c: ConnectionConnector,
  accountId: string,
  login: ConnectedLogin,
): Promise<{ id: string; wasBroken: boolean }> {
  const { profile, token } = login;
  const now = new Date();
  const expiresAt = token.expiresIn ? new Date(now.getTime() + token.expiresIn * 1000) : null;
  const fields = { name: profile.name, email: profile.email ?? null, expiresAt, updatedAt: now };
  const newId = randomUUID();
  const [inserted] = await tx
    .insert(connectorConnections)
    .values({
      id: newId,
      accountId,
      type: c.type,
      externalId: profile.externalId,
      secret: seal(secrets, newId, token.accessToken),
      ...fields,
    })
    .onConflictDoNothing({
      target: [connectorConnections.accountId, connectorConnections.type, connectorConnections.externalId],
    })
    .returning({ id: connectorConnections.id });
  let id = inserted?.id;
  let wasBroken = false;
  if (!id) {
    const [existing] = await tx
      .select({ id: connectorConnections.id, status: connectorConnections.status })
      .from(connectorConnections)
      .where(
        and(
          eq(connectorConnections.accountId, accountId),
          eq(connectorConnections.type, c.type),
          eq(connectorConnections.externalId, profile.externalId),
        ),
      )
      .for('update');
    if (!existing) throw new Error('connection vanished during reconnect');
    id = existing.id;
    wasBroken = existing.status === 'broken';
    // The status goes back to ok through markConnectionOk (it also tells the integrations).
    await tx
      .update(connectorConnections)
      .set({ ...fields, secret: seal(secrets, id, token.accessToken) })
      .where(eq(connectorConnections.id, id));
  }
  for (const [kind, assets] of Object.entries(profile.assets)) {
    if (assets) await syncAssets(tx, secrets, { id, accountId }, kind, assets, kind === c.spec.asset.kind);
  }
  return { id, wasBroken };
}

/** Makes the connection's assets of a kind what the service listed: new ones added, tokens renewed, gone ones removed. */
export async function syncAssets(
  tx: Executor,
  secrets: SecretBox,
  conn: { id: string; accountId: string },
  kind: string,
  assets: ConnectionAssetInput[],
  needsToken: boolean,
): Promise<void> {
  // The integrations' kind is used with its own token: one listed without it (not granted) is skipped.
  const listed = assets.filter((a) => a.externalId && (!needsToken || a.accessToken));
  const existing = await tx
    .select({ id: connectorAssets.id, externalId: connectorAssets.externalId })
    .from(connectorAssets)
    .where(and(eq(connectorAssets.connectionId, conn.id), eq(connectorAssets.kind, kind)));
  const idByExternal = new Map(existing.map((a) => [a.externalId, a.id]));
  const now = new Date();
  for (const asset of listed) {
    const values = { name: asset.name, details: asset.details ?? {}, updatedAt: now };
    const rowId = idByExternal.get(asset.externalId);
    if (rowId) {
      await tx
        .update(connectorAssets)
        .set({ ...values, secret: asset.accessToken ? seal(secrets, rowId, asset.accessToken) : null })
        .where(eq(connectorAssets.id, rowId));
    } else {
      const id = randomUUID();
      await tx.insert(connectorAssets).values({
        id,
        accountId: conn.accountId,
        connectionId: conn.id,
        kind,
        externalId: asset.externalId,
        secret: asset.accessToken ? seal(secrets, id, asset.accessToken) : null,
        ...values,
      });
    }
  }
  const keep = listed.map((a) => a.externalId);
  await tx
    .delete(connectorAssets)
    .where(
      and(
        eq(connectorAssets.connectionId, conn.id),
        eq(connectorAssets.kind, kind),
        keep.length ? notInArray(connectorAssets.externalId, keep) : undefined,
      ),
    );
}
