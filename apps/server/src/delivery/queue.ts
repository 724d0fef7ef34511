// The deliveries queue: one delivery per (lead, destination), made by ingest in the lead's own
// statement (held while its account is held: holds.ts), claimed under a lease by a worker,
// finished by it (finish.ts), made due again by a renew, a restart or the release of a hold.
// Everything that writes a delivery's state is here or in finish.ts.
import { HELD_EXPIRED, type HoldReason } from '@leadrelay/shared';
import { and, eq, inArray, ne, notInArray, type SQL, sql } from 'drizzle-orm';
import { type Db, type Executor, rowsOf } from '../db/client';
import { rowFromJson } from '../db/json-row';
import { rawDb, type Statement } from '../db/raw-sql';
import {
  accountHolds,
  type DeliveryRow,
  deliveries,
  hooks,
  type IntegrationRow,
  integrations,
  type LeadRow,
  leads,
} from '../db/schema';
import type { EngineEventBus } from '../lib/events';
import { holdReasonOf } from './holds';

export const iso = (d: Date) => d.toISOString();

/**
 * The enqueue step of ingest's statements (which write a lead, its hook and its deliveries in one
 * round trip): `rows` is a SQL source with account_id, lead_id, hook_id, destination_id, now and
 * held (a boolean: the account is held, see holds.ts), ordered by `order`. A delivery is due at
 * once, or `held` from now on (next_attempt_at is then when it was held); its idempotency key is
 * lead:destination, the same on every attempt, so a destination that honours it never takes a
 * lead twice.
 */
export function enqueueDeliveriesSql(rows: string, order: string): string {
  return `insert into deliveries (account_id, lead_id, hook_id, destination_id, status, next_attempt_at, idempotency_key, created_at)
  select q.account_id, q.lead_id, q.hook_id, q.destination_id, case when q.held then 'held' else 'pending' end,
    q.now, q.lead_id::text || ':' || q.destination_id::text, q.now
  from ${rows} q
  order by ${order}
  returning 1`;
}

/** Tells the workers (here and, through the app's bus, in other processes) that deliveries are due. */
export function announceDue(events: EngineEventBus): void {
  events.emit('deliveries.due');
}

/** A claimed delivery with what its attempt needs, loaded for the whole batch by the claim itself. */
export interface ClaimedDelivery {
  row: DeliveryRow;
  lead: LeadRow | null;
  destination: IntegrationRow | null;
  /** Deliveries of its hook (ingest creates them all with the hook; none is added later). */
  hookDeliveries: number;
  /** An earlier attempt may have made the record (see CLAIM's `outcome_unknown`): the connector looks it up first. */
  outcomeUnknown: boolean;
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
 * The claim ($1 now, $2 the lease's end, $3 the worker, $4 how many, $5 the breaker's threshold):
 * the function `claim_deliveries` (migration 0042, where its plan is pinned and explained). It
 * takes due pending deliveries by their place in an index (due time, then creation order), so its
 * cost follows what it takes, not the backlog, and running ones whose lease ran out (a worker
 * died); it leases them, counts the attempt, and answers with each one's lead and destination as
 * `to_jsonb`, its hook's delivery count and whether an earlier attempt may have reached the
 * destination without its result being stored (the connector then looks its record up first).
 * A paused destination gives none; one that failed `threshold` times in a row only its oldest.
 */
export const CLAIM: Statement = {
  name: 'delivery_claim_v3',
  text: 'select * from claim_deliveries($1::timestamptz, $2::timestamptz, $3, $4::int, $5::int)',
};

/**
 * Takes due deliveries: pending ones whose time has come and running ones whose lease ran out
 * (a worker died). A paused destination gives none; one just out of its pause gives only its
 * oldest (the probe). Oldest due first (then creation order), so a backlog drains in the order it
 * arrived. One round trip for the whole batch, its leads and destinations included.
 */
export async function claimDeliveries(db: Db, options: ClaimOptions): Promise<ClaimedDelivery[]> {
  const { now, limit, threshold } = options;
  const leaseUntil = new Date(now.getTime() + options.leaseMs);
  const rows = await rawDb(db).query<{
    delivery: unknown;
    lead: unknown;
    destination: unknown;
    hook_deliveries: number;
    outcome_unknown: boolean;
  }>(CLAIM, [iso(now), iso(leaseUntil), options.workerId, String(limit), String(threshold)]);
  const claimed = rows.map((r) => ({
    row: rowFromJson(deliveries, r.delivery)!,
    lead: rowFromJson(leads, r.lead),
    destination: rowFromJson(integrations, r.destination),
    hookDeliveries: Number(r.hook_deliveries),
    outcomeUnknown: r.outcome_unknown === true,
  }));
  // In the order they were due (the function returns them unsorted).
  return claimed.sort(
    (a, b) => a.row.nextAttemptAt.getTime() - b.row.nextAttemptAt.getTime() || (a.row.seq ?? 0) - (b.row.seq ?? 0),
  );
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
 * Makes deliveries due now with a fresh 72-hour window (attempts kept), never a delivered one, one
 * in flight or a held one (only a release lets those go), and marks their hooks pending. When
 * their account is held now, they are held instead (from now), behind its other held leads: a
 * renew does not get round an expired plan or a full month. In the caller's transaction: announce
 * after commit.
 */
export async function requeue(tx: Executor, target: RequeueTarget, now: Date) {
  const where: SQL | undefined =
    'failedDeliveryId' in target
      ? and(eq(deliveries.id, target.failedDeliveryId), eq(deliveries.status, 'failed'))
      : and(inArray(deliveries.hookId, target.hookIds), notInArray(deliveries.status, ['running', 'held']));
  const targeted = and(where, ne(deliveries.status, 'delivered'));
  // One account: a renew's hooks are the caller's own, a restart is one delivery.
  const [one] = await tx.select({ accountId: deliveries.accountId }).from(deliveries).where(targeted).limit(1);
  if (!one) return [];
  const hold = await holdReasonOf(tx, one.accountId, now, { sticky: true });
  const rows = await tx
    .update(deliveries)
    .set({
      status: hold ? 'held' : 'pending',
      nextAttemptAt: now,
      firstAttemptAt: null,
      leaseUntil: null,
      leasedBy: null,
    })
    .where(targeted)
    .returning({ id: deliveries.id, hookId: deliveries.hookId });
  const hookIds = [...new Set(rows.map((r) => r.hookId))];
  if (hookIds.length) {
    await tx
      .update(hooks)
      .set({ status: hold ? 'held' : 'pending', reason: hold, updatedAt: now })
      .where(inArray(hooks.id, hookIds));
  }
  if (hold && rows.length) {
    await tx.insert(accountHolds).values({ accountId: one.accountId, reason: hold, since: now }).onConflictDoNothing();
  }
  return rows;
}

/**
 * Lets an account's held leads go: its held deliveries become due now with a fresh 72-hour window,
 * their hooks pending, and its hold is removed (new leads are delivered at once again). They keep
 * their `seq`, and claims take the oldest first, so they go out in arrival order, before anything
 * that arrives later. In the caller's transaction, which takes the hold's row lock first: two
 * releases at once release once. Announce after commit. Returns the released hooks.
 */
export async function releaseHeld(tx: Executor, accountId: string, now: Date): Promise<{ hookIds: string[] }> {
  await tx.delete(accountHolds).where(eq(accountHolds.accountId, accountId));
  const result = await tx.execute(sql`
    with released as (
      update deliveries set status = 'pending', next_attempt_at = ${iso(now)}::timestamptz,
        first_attempt_at = null, lease_until = null, leased_by = null
      where account_id = ${accountId} and status = 'held'
      returning hook_id
    )
    update hooks set status = 'pending', reason = null, updated_at = ${iso(now)}::timestamptz
    where id in (select hook_id from released) and status = 'held'
    returning id`);
  return { hookIds: rowsOf<{ id: string }>(result).map((r) => r.id) };
}

/**
 * Marks an account's leads held up to `heldUntil` as given up (retention, docs/adr/008): their
 * deliveries and hooks `failed` (`partial` when another delivery of the hook went through) with the
 * reason HELD_EXPIRED, kept in the log, never deleted.
 * Returns the dropped hooks.
 */
export async function dropHeld(
  tx: Executor,
  accountId: string,
  heldUntil: Date,
  now: Date,
): Promise<{ hookIds: string[] }> {
  const result = await tx.execute(sql`
    with dropped as (
      update deliveries set status = 'failed', last_error = ${HELD_EXPIRED}
      where account_id = ${accountId} and status = 'held' and next_attempt_at <= ${iso(heldUntil)}::timestamptz
      returning hook_id
    )
    update hooks set reason = ${HELD_EXPIRED}, updated_at = ${iso(now)}::timestamptz,
      -- A renewed hook may have a delivery that went through before it was held again.
      status = case when exists (select from deliveries o where o.hook_id = hooks.id and o.status = 'delivered')
        then 'partial' else 'failed' end
    where id in (select hook_id from dropped) and status = 'held'
    returning id`);
  return { hookIds: rowsOf<{ id: string }>(result).map((r) => r.id) };
}

/** A release or a drop tells at most this many hooks by id (the dashboard reloads its lists on any of them). */
const MAX_HOOK_EVENTS = 200;

/** After a commit: these hooks of the account changed (released or given up). */
export function announceHooks(events: EngineEventBus, accountId: string, hookIds: readonly string[]): void {
  for (const hookId of hookIds.slice(0, MAX_HOOK_EVENTS)) events.emit('hook.changed', { accountId, hookId });
}

/** After a commit: the released hooks changed, and their deliveries are due. */
export function announceReleased(events: EngineEventBus, accountId: string, hookIds: readonly string[]): void {
  if (!hookIds.length) return;
  announceHooks(events, accountId, hookIds);
  announceDue(events);
}

/**
 * In the caller's transaction: takes the account's hold (row lock), checks whether the account is
 * still held and, if not, releases its held leads; a changed reason is kept current. Returns why it
 * is held now and the hooks released (announce them after the commit: `announceReleased`).
 */
export async function checkHold(
  tx: Executor,
  accountId: string,
  now: Date,
): Promise<{ held: HoldReason | null; hookIds: string[] }> {
  const [hold] = await tx
    .select({ reason: accountHolds.reason })
    .from(accountHolds)
    .where(eq(accountHolds.accountId, accountId))
    .for('update');
  const reason = await holdReasonOf(tx, accountId, now);
  if (!hold) return { held: reason, hookIds: [] };
  if (!reason) return { held: null, ...(await releaseHeld(tx, accountId, now)) };
  if (reason !== hold.reason)
    await tx.update(accountHolds).set({ reason }).where(eq(accountHolds.accountId, accountId));
  return { held: reason, hookIds: [] };
}

/**
 * Checks whether the account is still held and, if not, releases its held leads at once. Safe to
 * call at any time, from anywhere (a payment that extended exp_date or changed plan_id calls it
 * right after; a periodic task does the same for every held account within 30 s): an account that
 * is not held, or still is, is left as it is. `db` may be the caller's transaction: the release then
 * commits with it and the workers find the deliveries by their poll (≤ 0.5 s); pass `events` only
 * with the database itself, as they are told when this returns.
 */
export async function refreshAccountHold(
  db: Executor,
  accountId: string,
  now = new Date(),
  events?: EngineEventBus,
): Promise<{ held: HoldReason | null; released: number }> {
  const outcome = await db.transaction((tx) => checkHold(tx, accountId, now));
  if (events) announceReleased(events, accountId, outcome.hookIds);
  return { held: outcome.held, released: outcome.hookIds.length };
}

/**
 * A lead passed to another manager (escalation, issue 19): its deliveries to destinations of these
 * types (a manager's card in a messenger) become due again now, delivered ones too, so the new holder
 * gets it; the rest (a CRM) keep what they have. One in flight or held is left alone (a held one
 * goes out with the new assignee when released). In the caller's transaction: announce after
 * commit. Returns the re-queued deliveries.
 */
export async function redeliverLeadTo(
  tx: Executor,
  leadId: string,
  types: readonly string[],
  now: Date,
): Promise<{ id: string; hookId: string }[]> {
  if (!types.length) return [];
  const result = await tx.execute(sql`
    with again as (
      update deliveries d set status = 'pending', next_attempt_at = ${iso(now)}::timestamptz,
        first_attempt_at = null, lease_until = null, leased_by = null, last_error = null
      from integrations i
      where d.lead_id = ${leadId} and i.id = d.destination_id
        and i.type in (${sql.join(
          types.map((type) => sql`${type}`),
          sql`, `,
        )})
        and d.status not in ('running', 'held')
      returning d.id, d.hook_id
    ), marked as (
      update hooks set status = 'pending', updated_at = ${iso(now)}::timestamptz
      where id in (select hook_id from again) and status <> 'held'
    )
    select id, hook_id as "hookId" from again`);
  return rowsOf<{ id: string; hookId: string }>(result);
}
