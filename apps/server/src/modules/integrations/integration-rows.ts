// Reading an account's integration rows and their API shape. Every query is scoped to the actor's
// account; another account's id answers 404, never data.
import { getConnector } from '@leadrelay/connectors';
import { computeIntegrationState, type Integration, type IntegrationState } from '@leadrelay/shared';
import { and, eq, inArray } from 'drizzle-orm';
import type { Executor } from '../../db/client';
import {
  destinationHealth,
  type IntegrationRow,
  integrationCategories,
  integrations,
  type UserRow,
} from '../../db/schema';
import { AppError } from '../../lib/app-error';
import { isUuid } from '../../lib/ids';
import { settingsBySlug } from '../catalogue';
import { connectedElsewhere } from './integration-types';

export type Actor = Pick<UserRow, 'id'>;

export async function ownRow(db: Executor, actor: Actor, id: string, lock = false): Promise<IntegrationRow> {
  if (!isUuid(id)) throw new AppError('INTEGRATION_NOT_FOUND');
  const query = db
    .select()
    .from(integrations)
    .where(and(eq(integrations.id, id), eq(integrations.accountId, actor.id)));
  const [row] = lock ? await query.for('update') : await query;
  if (!row) throw new AppError('INTEGRATION_NOT_FOUND');
  return row;
}

/** An integration of the account, or INTEGRATION_NOT_FOUND (a filter by integration on the lead log). */
export async function assertIntegration(db: Executor, accountId: string, integrationId: string): Promise<void> {
  const [row] = await db
    .select({ id: integrations.id })
    .from(integrations)
    .where(and(eq(integrations.id, integrationId), eq(integrations.accountId, accountId)));
  if (!row) throw new AppError('INTEGRATION_NOT_FOUND');
}

/** The actor's own integration of `type`; another account's id, or another type's, answers INTEGRATION_NOT_FOUND. */
export async function ownIntegrationOfType(
  db: Executor,
  actor: Actor,
  id: string,
  type: string,
  lock = false,
): Promise<IntegrationRow> {
  const row = await ownRow(db, actor, id, lock);
  if (row.type !== type) throw new AppError('INTEGRATION_NOT_FOUND');
  return row;
}

type Health = Map<string, Date | null>;

/** When the delivery engine's breaker paused these destinations until (absent: never paused). */
async function pausedUntilOf(db: Executor, ids: string[]): Promise<Health> {
  if (ids.length === 0) return new Map();
  const rows = await db
    .select({ id: destinationHealth.destinationId, until: destinationHealth.pausedUntil })
    .from(destinationHealth)
    .where(inArray(destinationHealth.destinationId, ids));
  return new Map(rows.map((r) => [r.id, r.until]));
}

/**
 * The one computed status of a row (issue 17), from the row, its connector and, for a source, its
 * destinations' states: what every screen and UPDATE_INTEGRATION show.
 */
function stateOf(
  row: IntegrationRow,
  kind: Integration['kind'],
  isConnected: boolean,
  health: Health,
  destinations: { name: string; active: boolean; state: IntegrationState }[] = [],
): IntegrationState {
  const connector = getConnector(row.type);
  return computeIntegrationState({
    kind,
    active: row.active,
    needsConnection: connector?.connectAuth !== undefined,
    isConnected,
    isConfigured: connector ? connector.settings.safeParse(row.settings).success : true,
    status: row.status,
    statusReason: row.statusReason,
    destinations,
    pausedUntil: health.get(row.id) ?? null,
    reconnect: connector?.codes?.reconnect,
    stored: connector?.codes?.stored,
  });
}

/** The API shape of rows, with destination names and catalogue category resolved in a few queries. */
export async function toApi(db: Executor, actor: Actor, rows: IntegrationRow[]): Promise<Integration[]> {
  if (rows.length === 0) return [];
  const destinationIds = [...new Set(rows.flatMap((r) => r.destinationIds))];
  const destinations = destinationIds.length
    ? await db
        .select()
        .from(integrations)
        .where(and(eq(integrations.accountId, actor.id), inArray(integrations.id, destinationIds)))
    : [];
  const destinationById = new Map(destinations.map((d) => [d.id, d]));
  const health = await pausedUntilOf(db, [...new Set([...rows, ...destinations].map((r) => r.id))]);
  const settings = await settingsBySlug(db, [...new Set([...rows, ...destinations].map((r) => r.type))]);
  const categoryIds = [...new Set([...settings.values()].map((s) => s.categoryId).filter((c) => c !== null))];
  const categories = categoryIds.length
    ? await db.select().from(integrationCategories).where(inArray(integrationCategories.id, categoryIds))
    : [];
  const categoryById = new Map(categories.map((c) => [c.id, c]));
  // Types whose credentials live elsewhere (an account connection) tell which rows are connected.
  const connected = await connectedElsewhere(db, actor.id, [...rows, ...destinations]);
  const isConnected = (row: IntegrationRow) =>
    connected.get(row.id) ?? (row.auth !== null && Object.keys(row.auth).length > 0);
  const destinationStates = new Map(
    destinations.map((d) => [
      d.id,
      { name: d.name, active: d.active, state: stateOf(d, settings.get(d.type)?.kind ?? null, isConnected(d), health) },
    ]),
  );

  return rows.map((row) => {
    const setting = settings.get(row.type);
    const category = setting?.categoryId ? categoryById.get(setting.categoryId) : undefined;
    const kind = setting?.kind ?? null;
    const own = row.destinationIds.flatMap((id) => destinationStates.get(id) ?? []);
    return {
      _id: row.id,
      name: row.name,
      type: row.type,
      kind,
      active: row.active,
      options: row.options,
      settings: row.settings,
      destination: row.destinationIds.flatMap((id) => {
        const d = destinationById.get(id);
        return d ? [{ _id: d.id, name: d.name, type: d.type }] : [];
      }),
      distributionId: row.distributionId,
      category: category ? { _id: category.id, name: category.name } : null,
      isConnected: isConnected(row),
      status: row.status,
      statusReason: row.statusReason,
      state: stateOf(row, kind, isConnected(row), health, own),
      createdAt: row.createdAt.toISOString(),
      updatedAt: row.updatedAt.toISOString(),
    };
  });
}

export const one = async (db: Executor, actor: Actor, row: IntegrationRow) => (await toApi(db, actor, [row]))[0]!;
