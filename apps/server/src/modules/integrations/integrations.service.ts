// An account's integrations: sources (owning destination ids) and destinations; listing, reading,
// creating, updating and deleting them. Destinations of a source and its hook URL are in
// integration-destinations.service.ts, calls to the connector in connector-calls.service.ts.
import type {
  CreateIntegrationBody,
  Integration,
  IntegrationList,
  IntegrationListQuery,
  UpdateIntegrationBody,
} from '@leadrelay/shared';
import { and, count, desc, eq, ilike, sql } from 'drizzle-orm';
import type { Executor } from '../../db/client';
import { type IntegrationRow, integrations } from '../../db/schema';
import { AppError } from '../../lib/app-error';
import { findSettingBySlug, isStaffOnlyType, isTypeAvailable } from '../catalogue';
import { assertRoomForDestinations, assertRoomForIntegration, type PlanActor } from '../plans';
import { type Actor, one, ownRow, toApi } from './integration-rows';
import {
  checkedSettings,
  validDestinations,
  validDistribution,
  validOptions,
  validRouting,
} from './integration-validation';

const escapeLike = (s: string) => s.replace(/[\\%_]/g, (c) => `\\${c}`);

export async function listIntegrations(
  db: Executor,
  actor: Actor,
  query: IntegrationListQuery,
): Promise<IntegrationList> {
  const active = query.active === undefined ? undefined : query.active === 'true';
  const search = query.search || undefined;
  const where = and(
    eq(integrations.accountId, actor.id),
    query.type ? eq(integrations.type, query.type) : undefined,
    active === undefined ? undefined : eq(integrations.active, active),
    search ? ilike(integrations.name, `%${escapeLike(search)}%`) : undefined,
  );
  const [rows, [total]] = await Promise.all([
    db
      .select()
      .from(integrations)
      .where(where)
      .orderBy(desc(integrations.createdAt), desc(integrations.id))
      .limit(query.limit)
      .offset((query.page - 1) * query.limit),
    db.select({ n: count() }).from(integrations).where(where),
  ]);
  return {
    data: await toApi(db, actor, rows),
    total: Number(total?.n ?? 0),
    filter: {
      page: query.page,
      limit: query.limit,
      ...(query.type ? { type: query.type } : {}),
      ...(active === undefined ? {} : { active }),
      ...(search ? { search } : {}),
    },
  };
}

export async function getIntegration(db: Executor, actor: Actor, id: string): Promise<Integration> {
  return one(db, actor, await ownRow(db, actor, id));
}

export async function createIntegration(
  db: Executor,
  actor: PlanActor,
  body: CreateIntegrationBody,
): Promise<Integration> {
  const setting = await findSettingBySlug(db, body.type);
  // Hidden types (by an operator, or without a connector yet) are not offered, so they cannot be created;
  // staff types (parsers) are created by their own API only.
  if (!setting || setting.hidden || !isTypeAvailable(body.type) || isStaffOnlyType(body.type)) {
    throw new AppError('INTEGRATION_TYPE_UNKNOWN', { errors: [{ field: 'type', code: 'INTEGRATION_TYPE_UNKNOWN' }] });
  }
  await validRouting(db, actor, body.options, body.distributionId ?? null);
  const options = validOptions(setting.kind, body.options ?? {});
  const { settings, ...health } = await checkedSettings(db, actor, body.type, body.settings);
  const destinationIds = await validDestinations(db, actor, setting, body.destination ?? []);
  await validDistribution(db, actor, body.distributionId);
  await assertRoomForDestinations(db, actor, 0, destinationIds.length);
  return db.transaction(async (tx) => {
    await assertRoomForIntegration(tx, actor);
    const [row] = await tx
      .insert(integrations)
      .values({
        accountId: actor.id,
        type: body.type,
        name: body.name.trim(),
        options,
        settings,
        destinationIds,
        distributionId: body.distributionId ?? null,
        ...health,
      })
      .returning();
    return one(tx, actor, row!);
  });
}

export async function updateIntegration(
  db: Executor,
  actor: PlanActor,
  id: string,
  body: UpdateIntegrationBody,
): Promise<Integration> {
  return db.transaction(async (tx) => {
    const row = await ownRow(tx, actor, id, true);
    const setting = await findSettingBySlug(tx, row.type);
    const values: Partial<typeof integrations.$inferInsert> = { updatedAt: new Date() };
    if (body.name !== undefined) values.name = body.name.trim();
    if (body.active !== undefined) values.active = body.active;
    if (body.options !== undefined || body.distributionId !== undefined) {
      // A new collection must still hold the fallback person the options name.
      const options = body.options ?? row.options;
      await validRouting(
        tx,
        actor,
        options,
        body.distributionId !== undefined ? body.distributionId : row.distributionId,
      );
    }
    if (body.options !== undefined) values.options = validOptions(setting?.kind, body.options);
    if (body.settings !== undefined) Object.assign(values, await checkedSettings(tx, actor, row.type, body.settings));
    if (body.destination !== undefined) {
      values.destinationIds = await validDestinations(tx, actor, setting, body.destination, row.id);
      await assertRoomForDestinations(tx, actor, row.destinationIds.length, values.destinationIds.length);
    }
    if (body.distributionId !== undefined) {
      await validDistribution(tx, actor, body.distributionId);
      values.distributionId = body.distributionId;
    }
    const [updated] = await tx.update(integrations).set(values).where(eq(integrations.id, row.id)).returning();
    return one(tx, actor, updated!);
  });
}

export const updateOptions = (db: Executor, actor: PlanActor, id: string, options: Record<string, unknown>) =>
  updateIntegration(db, actor, id, { options });
/**
 * Deletes the integration (its leads, hooks and deliveries cascade) and drops it from sources' destination
 * lists. `beforeDelete` runs first, outside the transaction, with the row and its credentials (a
 * module's tidying at the destination, e.g. removing our CRM webhook); it must not throw.
 */
export async function deleteIntegration(
  db: Executor,
  actor: Actor,
  id: string,
  beforeDelete?: (row: IntegrationRow) => Promise<void>,
): Promise<void> {
  if (beforeDelete) await beforeDelete(await ownRow(db, actor, id));
  await db.transaction(async (tx) => {
    const row = await ownRow(tx, actor, id, true);
    await tx
      .update(integrations)
      .set({ destinationIds: sql`${integrations.destinationIds} - ${row.id}::text` })
      .where(
        and(
          eq(integrations.accountId, actor.id),
          sql`${integrations.destinationIds} @> jsonb_build_array(${row.id}::text)`,
        ),
      );
    await tx.delete(integrations).where(eq(integrations.id, row.id));
  });
}
