import { asc, count, desc, eq, inArray } from 'drizzle-orm';
import { alias } from 'drizzle-orm/pg-core';
import type { Db, Executor } from '../../db/client';
import { deliveries, deliveryAttempts, errorRecords, hooks, integrations, users } from '../../db/schema';
import { toAttemptView } from '../../delivery/attempt-view';
import { announceDue, requeue } from '../../delivery/queue';
import { AppError } from '../../lib/app-error';
import type { EngineEventBus } from '../../lib/events';

const destination = alias(integrations, 'destination');
const iso = (d: Date | null) => (d ? d.toISOString() : null);

/** Error records for super-admin, newest first; `children` are the delivery's attempts. */
export async function listErrorRecords(db: Executor, query: { page: number; limit: number; accountId?: string }) {
  const where = query.accountId ? eq(errorRecords.accountId, query.accountId) : undefined;
  const [rows, [total]] = await Promise.all([
    db
      .select({
        record: errorRecords,
        login: users.login,
        delivery: deliveries,
        source: { id: integrations.id, name: integrations.name, type: integrations.type },
        destination: { id: destination.id, name: destination.name, type: destination.type },
      })
      .from(errorRecords)
      .innerJoin(users, eq(users.id, errorRecords.accountId))
      .innerJoin(deliveries, eq(deliveries.id, errorRecords.deliveryId))
      .innerJoin(hooks, eq(hooks.id, deliveries.hookId))
      .innerJoin(integrations, eq(integrations.id, hooks.integrationId))
      .innerJoin(destination, eq(destination.id, deliveries.destinationId))
      .where(where)
      .orderBy(desc(errorRecords.createdAt), desc(errorRecords.id))
      .limit(query.limit)
      .offset((query.page - 1) * query.limit),
    db.select({ n: count() }).from(errorRecords).where(where),
  ]);
  const ids = rows.map((r) => r.delivery.id);
  const attempts = ids.length
    ? await db
        .select()
        .from(deliveryAttempts)
        .where(inArray(deliveryAttempts.deliveryId, ids))
        .orderBy(asc(deliveryAttempts.number))
    : [];
  const data = rows.map(({ record, login, delivery, source, destination: dest }) => ({
    _id: record.id,
    accountId: record.accountId,
    account: { _id: record.accountId, login },
    integration: { _id: source.id, name: source.name, type: source.type },
    destination: { _id: dest.id, name: dest.name, type: dest.type },
    hookId: delivery.hookId,
    deliveryId: delivery.id,
    status: delivery.status,
    message: record.message,
    createdAt: record.createdAt.toISOString(),
    restartedAt: iso(record.restartedAt),
    children: attempts.filter((a) => a.deliveryId === delivery.id).map(toAttemptView),
  }));
  return { data, total: total?.n ?? 0 };
}

/** Restart: the failed delivery is due again now (fresh 72-hour window), attempts kept. */
export async function restartErrorRecord(db: Db, events: EngineEventBus, id: string, now = new Date()) {
  const result = await db.transaction(async (tx) => {
    const [record] = await tx.select().from(errorRecords).where(eq(errorRecords.id, id));
    if (!record) throw new AppError('ERROR_RECORD_NOT_FOUND');
    const rows = await requeue(tx, { failedDeliveryId: record.deliveryId }, now);
    await tx.update(errorRecords).set({ restartedAt: now }).where(eq(errorRecords.id, id));
    return { record, rows };
  });
  for (const r of result.rows) events.emit('hook.changed', { accountId: result.record.accountId, hookId: r.hookId });
  if (result.rows.length) announceDue(events);
  return { ok: true, restarted: result.rows.length > 0, restartedAt: now.toISOString() };
}
