// A source's destinations (the ordered list of integrations its leads go to), its incoming hook URL,
// and the hooks (received requests) of one integration.
import { randomBytes } from 'node:crypto';
import type { Integration } from '@leadrelay/shared';
import { and, count, desc, eq, inArray, sql } from 'drizzle-orm';
import type { Deps } from '../../config';
import type { Executor } from '../../db/client';
import { hooks, integrations } from '../../db/schema';
import { AppError } from '../../lib/app-error';
import { findSettingBySlug } from '../catalogue';
import { assertRoomForDestinations, type PlanActor } from '../plans';
import { type Actor, one, ownRow, toApi } from './integration-rows';
import { validDestinations } from './integration-validation';

/** The source's destinations as full integration objects, in the source's order. */
export async function listDestinations(db: Executor, actor: Actor, id: string): Promise<Integration[]> {
  const row = await ownRow(db, actor, id);
  if (row.destinationIds.length === 0) return [];
  const rows = await db
    .select()
    .from(integrations)
    .where(and(eq(integrations.accountId, actor.id), inArray(integrations.id, row.destinationIds)));
  const byId = new Map(rows.map((r) => [r.id, r]));
  return toApi(
    db,
    actor,
    row.destinationIds.flatMap((d) => byId.get(d) ?? []),
  );
}

export async function addDestination(db: Executor, actor: PlanActor, id: string, destinationId: string) {
  return db.transaction(async (tx) => {
    const row = await ownRow(tx, actor, id, true);
    if (row.destinationIds.includes(destinationId)) return one(tx, actor, row);
    const setting = await findSettingBySlug(tx, row.type);
    await validDestinations(tx, actor, setting, [destinationId], row.id);
    await assertRoomForDestinations(tx, actor, row.destinationIds.length, row.destinationIds.length + 1);
    const [updated] = await tx
      .update(integrations)
      .set({ destinationIds: [...row.destinationIds, destinationId], updatedAt: new Date() })
      .where(eq(integrations.id, row.id))
      .returning();
    return one(tx, actor, updated!);
  });
}

/** Removing an id that is not in the list is not an error: the answer is the integration as it is. */
export async function removeDestination(db: Executor, actor: Actor, id: string, destinationId: string) {
  return db.transaction(async (tx) => {
    const row = await ownRow(tx, actor, id, true);
    if (!row.destinationIds.includes(destinationId)) return one(tx, actor, row);
    const [updated] = await tx
      .update(integrations)
      .set({ destinationIds: row.destinationIds.filter((d) => d !== destinationId), updatedAt: new Date() })
      .where(eq(integrations.id, row.id))
      .returning();
    return one(tx, actor, updated!);
  });
}

// ---- Source webhook URL ----

export async function generateHook(deps: Deps, actor: Actor, id: string): Promise<{ url: string; token: string }> {
  const row = await ownRow(deps.db, actor, id);
  const setting = await findSettingBySlug(deps.db, row.type);
  if (setting?.kind !== 'source') throw new AppError('OPERATION_NOT_SUPPORTED');
  // coalesce: two calls at once still end with one token, and every later call answers it.
  const [updated] = await deps.db
    .update(integrations)
    .set({ hookToken: sql`coalesce(${integrations.hookToken}, ${randomBytes(32).toString('base64url')})` })
    .where(and(eq(integrations.id, row.id), eq(integrations.accountId, actor.id)))
    .returning({ token: integrations.hookToken });
  const token = updated!.token!;
  return { url: `${deps.config.publicUrl}/api/hooks/in/${token}`, token };
}

// ---- Hooks of one integration (legacy GET /{id}/webhooks) ----

export async function listIntegrationHooks(
  db: Executor,
  actor: Actor,
  id: string,
  page: { page: number; limit: number },
) {
  const row = await ownRow(db, actor, id);
  const where = and(eq(hooks.accountId, actor.id), eq(hooks.integrationId, row.id));
  const [rows, [total]] = await Promise.all([
    db
      .select()
      .from(hooks)
      .where(where)
      .orderBy(desc(hooks.createdAt))
      .limit(page.limit)
      .offset((page.page - 1) * page.limit),
    db.select({ n: count() }).from(hooks).where(where),
  ]);
  return {
    data: rows.map((h) => ({
      _id: h.id,
      status: h.status,
      reason: h.reason,
      leadId: h.leadId,
      createdAt: h.createdAt.toISOString(),
    })),
    total: Number(total?.n ?? 0),
  };
}
