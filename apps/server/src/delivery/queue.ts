// The deliveries queue: one delivery per (lead, destination), made by ingest in the lead's own
// statement, claimed under a lease by a worker, finished by it (finish.ts), made due again by a
// renew or a restart. Everything that writes a delivery's state is here or in finish.ts.
import { and, eq, inArray, ne, type SQL, sql } from 'drizzle-orm';
import type { Db, Executor } from '../db/client';
import {
  type DeliveryRow,
  deliveries,
  hooks,
  type IntegrationRow,
  integrations,
  type LeadRow,
  leads,
} from '../db/schema';
import type { EngineEventBus } from '../lib/events';

export const iso = (d: Date) => d.toISOString();

/**
 * The enqueue step of ingest's statements (which write a lead, its hook and its deliveries in one
 * round trip): `rows` is a SQL source with account_id, lead_id, hook_id, destination_id and now,
 * ordered by `order`. A delivery is due at once; its idempotency key is lead:destination, the same
 * on every attempt, so a destination that honours it never takes a lead twice.
 */
export function enqueueDeliveriesSql(rows: string, order: string): string {
  return `insert into deliveries (account_id, lead_id, hook_id, destination_id, next_attempt_at, idempotency_key, created_at)
  select q.account_id, q.lead_id, q.hook_id, q.destination_id, q.now, q.lead_id::text || ':' || q.destination_id::text, q.now
  from ${rows} q
  order by ${order}
  returning 1`;
}

/** Tells the workers (here and, through the app's bus, in other processes) that deliveries are due. */
export function announceDue(events: EngineEventBus): void {
  events.emit('deliveries.due');
}

/** A claimed delivery with what its attempt needs, loaded for the whole batch in one query. */
export interface ClaimedDelivery {
  row: DeliveryRow;
  lead: LeadRow | null;
  destination: IntegrationRow | null;
  /** Deliveries of its hook (ingest creates them all with the hook; none is added later). */
  hookDeliveries: number;
}

export interface ClaimOptions {
  workerId: string;
  limit: number;
  now: Date;
  leaseMs: number;
  /** The breaker's threshold: a destination failing this often in a row gives only its oldest. */
  threshold: number;
}

/**
 * Takes due deliveries: pending ones whose time has come and running ones whose lease ran out
 * (a worker died). A paused destination gives none; one just out of its pause gives only its
 * oldest (the probe). Oldest first, so a backlog drains in creation order. Two queries for the
 * whole batch: the claim, then the claimed rows' leads and destinations.
 */
export async function claimDeliveries(db: Db, options: ClaimOptions): Promise<ClaimedDelivery[]> {
  const { now, limit, threshold } = options;
  const leaseUntil = new Date(now.getTime() + options.leaseMs);
  const rows = await db
    .update(deliveries)
    .set({
      status: 'running',
      leaseUntil,
      leasedBy: options.workerId,
      attempts: sql`${deliveries.attempts} + 1`,
      firstAttemptAt: sql`coalesce(${deliveries.firstAttemptAt}, ${iso(now)}::timestamptz)`,
    })
    .where(sql`${deliveries.id} in (
      select d.id from deliveries d
      left join destination_health h on h.destination_id = d.destination_id
      where ((d.status = 'pending' and d.next_attempt_at <= ${iso(now)}::timestamptz)
          or (d.status = 'running' and d.lease_until < ${iso(now)}::timestamptz))
        and (h.paused_until is null or h.paused_until <= ${iso(now)}::timestamptz)
        and (h.consecutive_failures is null or h.consecutive_failures < ${threshold}
          or d.seq = (select min(o.seq) from deliveries o
                      where o.destination_id = d.destination_id and o.status in ('pending', 'running')))
      order by d.seq
      limit ${limit}
      for update of d skip locked
    )`)
    .returning();
  if (!rows.length) return [];
  const loaded = await db
    .select({
      id: deliveries.id,
      lead: leads,
      destination: integrations,
      hookDeliveries: sql<number>`(select count(*)::int from deliveries o where o.hook_id = ${deliveries.hookId})`,
    })
    .from(deliveries)
    .leftJoin(leads, eq(leads.id, deliveries.leadId))
    .leftJoin(integrations, eq(integrations.id, deliveries.destinationId))
    .where(
      inArray(
        deliveries.id,
        rows.map((r) => r.id),
      ),
    );
  const byId = new Map(loaded.map((l) => [l.id, l]));
  return rows
    .sort((a, b) => (a.seq ?? 0) - (b.seq ?? 0))
    .map((row) => {
      const more = byId.get(row.id);
      return {
        row,
        lead: more?.lead ?? null,
        destination: more?.destination ?? null,
        hookDeliveries: Number(more?.hookDeliveries ?? 0),
      };
    });
}

/** Gives back the leases a stopping worker still holds, so another worker takes them at once. */
export async function releaseLeases(db: Db, workerId: string, now: Date): Promise<void> {
  await db
    .update(deliveries)
    .set({ status: 'pending', leaseUntil: null, leasedBy: null, nextAttemptAt: now })
    .where(and(eq(deliveries.leasedBy, workerId), eq(deliveries.status, 'running')));
}

/** Which deliveries a renew or restart makes due: one failed delivery (restart), or every delivery of some hooks (renew). */
export type RequeueTarget = { failedDeliveryId: string } | { hookIds: string[] };

/**
 * Makes deliveries due now with a fresh 72-hour window (attempts kept), never a delivered one nor
 * one in flight, and marks their hooks pending. In the caller's transaction: announce after commit.
 */
export async function requeue(tx: Executor, target: RequeueTarget, now: Date) {
  const where: SQL | undefined =
    'failedDeliveryId' in target
      ? and(eq(deliveries.id, target.failedDeliveryId), eq(deliveries.status, 'failed'))
      : and(inArray(deliveries.hookId, target.hookIds), ne(deliveries.status, 'running'));
  const rows = await tx
    .update(deliveries)
    .set({
      status: 'pending',
      nextAttemptAt: now,
      firstAttemptAt: null,
      leaseUntil: null,
      leasedBy: null,
    })
    .where(and(where, ne(deliveries.status, 'delivered')))
    .returning({ id: deliveries.id, hookId: deliveries.hookId });
  const hookIds = [...new Set(rows.map((r) => r.hookId))];
  if (hookIds.length) {
    await tx.update(hooks).set({ status: 'pending', updatedAt: now }).where(inArray(hooks.id, hookIds));
  }
  return rows;
}
