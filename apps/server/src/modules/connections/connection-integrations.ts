// Integrations of a connector with connections: their settings name one of the account's connections,
// an asset it reaches and optionally the asset's form (the connector's `settings` says which keys).
// Registered with the integrations API: it checks them on create and update (with the connector's
// settings schema) and tells whether an integration is connected (its connection exists). Moving an
// integration to another connection, and an integration's action on its asset (a test lead), are here.
import { connectors, IntegrationNotConnected } from '@leadrelay/connectors';
import type { ErrorCode, Integration } from '@leadrelay/shared';
import { and, eq, inArray } from 'drizzle-orm';
import type { Executor } from '../../db/client';
import { connectorAssets, connectorConnections, integrations } from '../../db/schema';
import { AppError } from '../../lib/app-error';
import { isUuid } from '../../lib/ids';
import { zodAppError } from '../../plugins/errors';
import { getIntegration, type IntegrationTypeHooks, ownIntegrationOfType } from '../integrations';
import { type ConnectionConnector, type ConnectionDeps, callFor, configOf } from './connection-deps';
import { withConnection } from './connection-health';
import { type Actor, assetTokenOf, ownAsset, ownConnection } from './connection-store';

const fieldError = (field: string, code: ErrorCode) => new AppError('VALIDATION_ERROR', { errors: [{ field, code }] });

const settingOf = (settings: Record<string, unknown>, key: string) =>
  Object.hasOwn(settings, key) && typeof settings[key] === 'string' ? (settings[key] as string) : '';

/** The connection the settings may name: the actor's own, reaching the asset; its status goes to the integration. */
export async function connectionForAsset(
  db: Executor,
  c: ConnectionConnector,
  actor: Actor,
  ref: { connectionId: string; assetId: string },
  fields: { connection: string; asset: string },
) {
  const { connectionId, assetId } = ref;
  const [conn] = isUuid(connectionId)
    ? await db
        .select({
          id: connectorConnections.id,
          status: connectorConnections.status,
          statusReason: connectorConnections.statusReason,
        })
        .from(connectorConnections)
        .where(
          and(
            eq(connectorConnections.id, connectionId),
            eq(connectorConnections.accountId, actor.id),
            eq(connectorConnections.type, c.type),
          ),
        )
    : [];
  if (!conn) throw fieldError(fields.connection, c.spec.notFound.connection);
  const [asset] = await db
    .select({ id: connectorAssets.id })
    .from(connectorAssets)
    .where(
      and(
        eq(connectorAssets.connectionId, conn.id),
        eq(connectorAssets.kind, c.spec.asset.kind),
        eq(connectorAssets.externalId, assetId),
      ),
    );
  if (!asset) throw fieldError(fields.asset, c.spec.notFound.asset);
  return conn;
}

/** Of the given connection ids, those that still exist for the account. */
async function existingConnectionIds(db: Executor, c: ConnectionConnector, accountId: string, ids: unknown[]) {
  const wanted = [...new Set(ids.filter((id): id is string => typeof id === 'string' && isUuid(id)))];
  if (wanted.length === 0) return new Set<string>();
  const rows = await db
    .select({ id: connectorConnections.id })
    .from(connectorConnections)
    .where(
      and(
        eq(connectorConnections.accountId, accountId),
        eq(connectorConnections.type, c.type),
        inArray(connectorConnections.id, wanted),
      ),
    );
  return new Set(rows.map((r) => r.id));
}

/** The connector's type's hooks for the integrations API. */
export function connectionIntegrationType(c: ConnectionConnector): IntegrationTypeHooks {
  const keys = c.spec.settings;
  const schema = connectors.get(c.type)?.settings;
  return {
    async checkSettings(db, actor, raw) {
      const parsed = schema ? schema.safeParse(raw) : { success: true as const, data: raw };
      if (!parsed.success) throw zodAppError('settings', parsed.error);
      const settings = parsed.data as Record<string, unknown>;
      const conn = await connectionForAsset(
        db,
        c,
        actor,
        { connectionId: settingOf(settings, keys.connection), assetId: settingOf(settings, keys.asset) },
        { connection: `settings.${keys.connection}`, asset: `settings.${keys.asset}` },
      );
      return { settings, status: conn.status, statusReason: conn.statusReason };
    },
    async connectedIds(db, accountId, rows) {
      const existing = await existingConnectionIds(
        db,
        c,
        accountId,
        rows.map((r) => r.settings[keys.connection]),
      );
      return new Set(rows.filter((r) => existing.has(settingOf(r.settings, keys.connection))).map((r) => r.id));
    },
  };
}

/**
 * Moves an integration to another of the account's connections that reaches the same asset (after
 * the asset's admin changed, or a login as another person). The form and everything else stay.
 */
export async function migrateIntegration(
  deps: ConnectionDeps,
  c: ConnectionConnector,
  actor: Actor,
  integrationId: string,
  connectionId: string,
): Promise<Integration> {
  const keys = c.spec.settings;
  const changed = await deps.db.transaction(async (tx) => {
    const row = await ownIntegrationOfType(tx, actor, integrationId, c.type, true);
    const conn = await connectionForAsset(
      tx,
      c,
      actor,
      { connectionId, assetId: settingOf(row.settings, keys.asset) },
      { connection: keys.connection, asset: keys.connection },
    );
    const statusChanged = conn.status !== row.status || conn.statusReason !== row.statusReason;
    await tx
      .update(integrations)
      .set({
        settings: { ...row.settings, [keys.connection]: conn.id },
        status: conn.status,
        statusReason: conn.statusReason,
        updatedAt: new Date(),
      })
      .where(eq(integrations.id, row.id));
    return statusChanged ? conn : null;
  });
  if (changed) {
    deps.emitIntegrationUpdate(actor.id, {
      integrationId,
      status: changed.status,
      statusReason: changed.statusReason,
    });
  }
  return getIntegration(deps.db, actor, integrationId);
}

/** An integration's action on its asset, with the asset's token (the connector's `actions`). */
export async function runConnectionAction(
  deps: ConnectionDeps,
  c: ConnectionConnector,
  actor: Actor,
  integrationId: string,
  name: string,
  body: unknown,
): Promise<unknown> {
  const actions = c.spec.actions ?? {};
  const action = Object.hasOwn(actions, name) ? actions[name] : undefined;
  if (!action) throw new AppError('OPERATION_NOT_SUPPORTED');
  if (!isUuid(integrationId)) throw new AppError('INTEGRATION_NOT_FOUND');
  const [row] = await deps.db
    .select({ settings: integrations.settings })
    .from(integrations)
    .where(
      and(eq(integrations.id, integrationId), eq(integrations.accountId, actor.id), eq(integrations.type, c.type)),
    );
  if (!row) throw new AppError('INTEGRATION_NOT_FOUND');
  const connectionId = settingOf(row.settings, c.spec.settings.connection);
  const assetId = settingOf(row.settings, c.spec.settings.asset);
  const form = c.spec.settings.form;
  if (!connectionId || !assetId || (form && !settingOf(row.settings, form))) {
    throw new AppError('INTEGRATION_NOT_CONNECTED');
  }
  const conn = await ownConnection(deps.db, actor, c, connectionId);
  const asset = await ownAsset(deps.db, c, conn, assetId);
  const token = assetTokenOf(deps.secrets, asset);
  const call = callFor(deps, c);
  // Per connector, action and configuration: apps sharing a process (tests) talk to different services with the same ids.
  const memoryKey = `${c.type}:${name}:${JSON.stringify(configOf(deps, c.type))}`;
  const memory = deps.memory.get(memoryKey) ?? new Map<string, string>();
  deps.memory.set(memoryKey, memory);
  return withConnection(deps, c, conn, () =>
    action.run(call, { token, settings: row.settings, body, memory }).catch((error: unknown) => {
      if (error instanceof IntegrationNotConnected) throw new AppError('INTEGRATION_NOT_CONNECTED');
      throw error;
    }),
  );
}
