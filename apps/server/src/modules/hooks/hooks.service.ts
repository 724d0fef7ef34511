import {
  HELD_DROP_NOTICE_DAYS,
  HELD_RETENTION_DAYS,
  type HeldSummary,
  HOOK_COUNTER_STATUSES,
  type Hook,
  type HookCounter,
  type HookDetail,
  type HookListQuery,
  type HookTotals,
  type Lead,
  type LeadAssignmentView,
  type LeadReaction,
  type LeadWarning,
  leadWarnings,
  TEST_LEAD_HEADER,
} from '@leadrelay/shared';
import { and, asc, count, desc, eq, ilike, inArray, or, sql } from 'drizzle-orm';
import type { Db, Executor } from '../../db/client';
import {
  accountHolds,
  deliveries,
  deliveryAttempts,
  hookCounts,
  hooks,
  integrations,
  leadAssignments,
  leads,
  type StoredRequest,
} from '../../db/schema';
import { toAttemptView } from '../../delivery/attempt-view';
import { announceDue, requeue } from '../../delivery/queue';
import { accountTimeZone } from '../../lib/account-zone';
import { AppError } from '../../lib/app-error';
import type { EngineEventBus } from '../../lib/events';
import { leadConversions } from '../conversions';
import { reactionsOf } from '../reactions';

// The views are the shared response types, so the web and the server cannot drift apart.
export type HookView = Hook;
export type HookDetailView = HookDetail;

const iso = (d: Date | null) => (d ? d.toISOString() : null);
const DAY_MS = 86_400_000;

function listWhere(accountId: string, query: Partial<HookListQuery>) {
  const search = query.search?.trim();
  const pattern = search ? `%${search.replace(/[\\%_]/g, (c) => `\\${c}`)}%` : undefined;
  return and(
    eq(hooks.accountId, accountId),
    query.integrationId ? eq(hooks.integrationId, query.integrationId) : undefined,
    query.status ? eq(hooks.status, query.status) : undefined,
    pattern
      ? or(
          ilike(sql`${leads.fields}::text`, pattern),
          ilike(hooks.reason, pattern),
          ilike(sql`${hooks.id}::text`, pattern),
        )
      : undefined,
  );
}

type HookRow = {
  hook: typeof hooks.$inferSelect;
  lead: unknown;
  /** The lead's raw body: the hook's request body when it is stored there (StoredRequest.bodyInLead). */
  leadRaw: unknown;
  integration: { id: string; name: string; type: string };
};
type DeliveryJoinRow = Awaited<ReturnType<typeof deliveriesOf>>[number];

const hookSelection = {
  hook: hooks,
  lead: leads.fields,
  leadRaw: leads.raw,
  integration: { id: integrations.id, name: integrations.name, type: integrations.type },
};

function deliveriesOf(db: Executor, hookIds: string[]) {
  if (!hookIds.length) return Promise.resolve([]);
  return db
    .select({
      d: deliveries,
      destination: { id: integrations.id, name: integrations.name, type: integrations.type },
    })
    .from(deliveries)
    .innerJoin(integrations, eq(integrations.id, deliveries.destinationId))
    .where(inArray(deliveries.hookId, hookIds))
    .orderBy(deliveries.seq);
}

/** The request as received: its body put back from the lead when stored there once. */
function requestOf(request: StoredRequest, leadRaw: unknown): StoredRequest {
  if (!request.bodyInLead) return request;
  const { bodyInLead: _once, ...rest } = request;
  return { ...rest, body: leadRaw ?? null };
}

/** Its source said the lead is a test (the header only the source machinery sets). */
const isTestLead = (request: StoredRequest) => request.headers?.[TEST_LEAD_HEADER] === 'true';

function toHookView(
  { hook, lead, leadRaw, integration }: HookRow,
  deliveryRows: DeliveryJoinRow[],
  reactions: Map<string, LeadReaction[]>,
): HookView {
  return {
    _id: hook.id,
    integrationId: hook.integrationId,
    integration: { _id: integration.id, name: integration.name, type: integration.type },
    leadId: hook.leadId,
    status: hook.status,
    reason: hook.reason,
    lead: (lead as Record<string, unknown> | null) ?? null,
    // Worked out from the stored lead, so leads stored before the check are flagged as well.
    warnings: [
      ...(lead && typeof lead === 'object' ? leadWarnings(lead as Lead) : []),
      ...(isTestLead(hook.request) ? (['TEST_LEAD'] as LeadWarning[]) : []),
    ],
    request: requestOf(hook.request, leadRaw),
    deliveries: deliveryRows
      .filter((r) => r.d.hookId === hook.id)
      .map(({ d, destination }) => ({
        _id: d.id,
        destination: { _id: destination.id, name: destination.name, type: destination.type },
        status: d.status,
        attempts: d.attempts,
        lastError: d.lastError,
        nextAttemptAt: d.status === 'pending' ? iso(d.nextAttemptAt) : null,
        deliveredAt: iso(d.deliveredAt),
        externalId: d.externalId,
      })),
    reactions: (hook.leadId && reactions.get(hook.leadId)) || [],
    createdAt: hook.createdAt.toISOString(),
    updatedAt: hook.updatedAt.toISOString(),
  };
}

/** An account's hooks, newest first, each with its deliveries. */
export async function listHooks(
  db: Executor,
  accountId: string,
  query: HookListQuery,
): Promise<{ data: HookView[]; total: number }> {
  const where = listWhere(accountId, query);
  const [rows, [totals]] = await Promise.all([
    db
      .select(hookSelection)
      .from(hooks)
      .leftJoin(leads, eq(leads.id, hooks.leadId))
      .innerJoin(integrations, eq(integrations.id, hooks.integrationId))
      .where(where)
      .orderBy(desc(hooks.createdAt), desc(hooks.id))
      .limit(query.limit)
      .offset((query.page - 1) * query.limit),
    db.select({ n: count() }).from(hooks).leftJoin(leads, eq(leads.id, hooks.leadId)).where(where),
  ]);
  const [deliveryRows, reactions] = await Promise.all([
    deliveriesOf(
      db,
      rows.map((r) => r.hook.id),
    ),
    reactionsOf(
      db,
      rows.flatMap((r) => (r.hook.leadId ? [r.hook.leadId] : [])),
    ),
  ]);
  const data = rows.map((row) => toHookView(row, deliveryRows, reactions));
  return { data, total: totals?.n ?? 0 };
}

/**
 * One hook of the account as in the list, each delivery with its attempts oldest first
 * (request/response as stored, i.e. already redacted). Another account's id: HOOK_NOT_FOUND.
 */
export async function getHook(db: Executor, accountId: string, id: string): Promise<HookDetailView> {
  const [row] = await db
    .select(hookSelection)
    .from(hooks)
    .leftJoin(leads, eq(leads.id, hooks.leadId))
    .innerJoin(integrations, eq(integrations.id, hooks.integrationId))
    .where(and(eq(hooks.id, id), eq(hooks.accountId, accountId)));
  if (!row) throw new AppError('HOOK_NOT_FOUND');
  const deliveryRows = await deliveriesOf(db, [id]);
  const attempts = deliveryRows.length
    ? await db
        .select()
        .from(deliveryAttempts)
        .where(
          inArray(
            deliveryAttempts.deliveryId,
            deliveryRows.map((r) => r.d.id),
          ),
        )
        .orderBy(asc(deliveryAttempts.number), asc(deliveryAttempts.startedAt))
    : [];
  const leadIds = row.hook.leadId ? [row.hook.leadId] : [];
  const [reactions, assignment] = await Promise.all([reactionsOf(db, leadIds), assignmentOf(db, accountId, leadIds)]);
  const view = toHookView(row, deliveryRows, reactions);
  // The lead's conversion events (issue 33): each CRM stage sent back to the ad platform.
  const conversions = row.hook.leadId ? await leadConversions(db, accountId, row.hook.leadId) : [];
  return {
    ...view,
    assignment,
    conversions,
    deliveries: view.deliveries.map((d) => ({
      ...d,
      attemptsLog: attempts.filter((a) => a.deliveryId === d._id).map(toAttemptView),
    })),
  };
}

/** Who held the lead (escalation, issue 19): none for a lead of a source that does not escalate. */
async function assignmentOf(db: Executor, accountId: string, leadIds: string[]): Promise<LeadAssignmentView | null> {
  if (!leadIds.length) return null;
  const [row] = await db
    .select({ history: leadAssignments.history, escalateAt: leadAssignments.escalateAt })
    .from(leadAssignments)
    .where(and(eq(leadAssignments.leadId, leadIds[0]!), eq(leadAssignments.accountId, accountId)));
  if (!row) return null;
  return {
    holders: row.history.map((h) => ({ name: h.name, from: h.from, until: h.until ?? null })),
    escalateAt: iso(row.escalateAt),
  };
}

/** The account's held leads for the dashboard's notice: why, since when, and the earliest drop. */
async function heldSummary(db: Executor, accountId: string, now: Date): Promise<HeldSummary | null> {
  const [row] = await db
    .select({
      reason: accountHolds.reason,
      dropAt: accountHolds.dropAt,
      // The oldest held delivery, from the held deliveries' own index.
      oldest: sql<string | null>`(select min(d.next_attempt_at) from deliveries d
        where d.account_id = ${accountId} and d.status = 'held')`,
    })
    .from(accountHolds)
    .where(eq(accountHolds.accountId, accountId));
  if (!row?.oldest) return null;
  const oldest = new Date(row.oldest);
  // Without a mail about it yet, the oldest goes no sooner than its retention ends and a notice's time after now.
  const earliest = Math.max(
    oldest.getTime() + HELD_RETENTION_DAYS * DAY_MS,
    now.getTime() + HELD_DROP_NOTICE_DAYS * DAY_MS,
  );
  return {
    reason: row.reason,
    oldestAt: oldest.toISOString(),
    dropsAt: (row.dropAt ?? new Date(earliest)).toISOString(),
  };
}

/** An account's counter rows beyond which reading them folds them into one per status. */
export const HOOK_COUNTS_FOLD_AT = 32;

/**
 * Counters for the dashboard. Hooks `accepted` with no active destination count only in `total`:
 * nothing is in progress for them. Held leads have their own count, and `hold` says why.
 * The counts are sums of `hook_counts` (kept by triggers on `hooks`, migration 0021): a read costs
 * the same for an account with a hundred leads or ten million, where counting the hooks took 22–67
 * ms at 65,000 and ran about four times a second while leads arrived (docs/benchmarks.md).
 */
export async function hookTotals(db: Executor, accountId: string, now = new Date()): Promise<HookTotals> {
  const [rows, hold] = await Promise.all([
    db
      .select({ status: hookCounts.status, n: sql<number>`sum(${hookCounts.n})::float8`, rows: count() })
      .from(hookCounts)
      .where(eq(hookCounts.accountId, accountId))
      .groupBy(hookCounts.status),
    heldSummary(db, accountId, now),
  ]);
  if (rows.reduce((a, r) => a + r.rows, 0) > HOOK_COUNTS_FOLD_AT) await foldHookCounts(db, accountId);
  const by = (counter: HookCounter) =>
    rows
      .filter((r) => (HOOK_COUNTER_STATUSES[counter] as readonly string[]).includes(r.status))
      .reduce((a, r) => a + r.n, 0);
  return {
    total: rows.reduce((a, r) => a + r.n, 0),
    delivered: by('delivered'),
    failed: by('failed'),
    pending: by('pending'),
    filtered: by('filtered'),
    duplicate: by('duplicate'),
    held: by('held'),
    hold: by('held') ? hold : null,
  };
}

/**
 * Replaces an account's counter rows by their sums, one row per status, in one statement: a read
 * at the same time sees either the rows or the sums, and rows added meanwhile stay as they are.
 * One fold per account at a time (an advisory lock; a second one skips), so two never wait on
 * each other's rows.
 */
export async function foldHookCounts(db: Executor, accountId: string): Promise<void> {
  await db.execute(sql`
    with lock as materialized (
      select pg_try_advisory_xact_lock(hashtext('hook_counts'), hashtext(${accountId}::text)) as got
    ), gone as (
      delete from hook_counts where account_id = ${accountId}::uuid and (select got from lock) returning status, n
    )
    insert into hook_counts (account_id, status, n)
    select ${accountId}::uuid, status, sum(n) from gone group by status having sum(n) <> 0`);
}

/** Removes hooks (all of the account's, or the given ids) with their leads and deliveries. */
export async function removeHooks(
  db: Db,
  events: EngineEventBus,
  accountId: string,
  ids?: string[],
): Promise<{ deleted: number }> {
  const removed = await db.transaction(async (tx) => {
    const where = and(eq(hooks.accountId, accountId), ids ? inArray(hooks.id, ids) : undefined);
    const rows = await tx.select({ id: hooks.id, leadId: hooks.leadId }).from(hooks).where(where);
    if (ids && rows.length !== new Set(ids).size) throw new AppError('HOOK_NOT_FOUND');
    if (!rows.length) return [];
    const leadIds = rows.map((r) => r.leadId).filter((id): id is string => !!id);
    // Deliveries, attempts and error records go with the hook and the lead (cascades).
    await tx.delete(hooks).where(where);
    if (leadIds.length) {
      await tx.delete(leads).where(and(eq(leads.accountId, accountId), inArray(leads.id, leadIds)));
    }
    return rows;
  });
  for (const r of removed) events.emit('hook.changed', { accountId, hookId: r.id });
  return { deleted: removed.length };
}

/**
 * Renew: every delivery of the hooks that is not delivered (nor in flight) is due again now,
 * with a fresh 72-hour window; its attempts history is kept.
 */
export async function renewHooks(
  db: Db,
  events: EngineEventBus,
  accountId: string,
  ids: string[],
  now = new Date(),
): Promise<{ renewed: number }> {
  const renewed = await db.transaction(async (tx) => {
    const owned = await tx
      .select({ id: hooks.id })
      .from(hooks)
      .where(and(eq(hooks.accountId, accountId), inArray(hooks.id, ids)));
    if (owned.length !== new Set(ids).size) throw new AppError('HOOK_NOT_FOUND');
    return requeue(tx, { hookIds: ids }, now);
  });
  const hookIds = [...new Set(renewed.map((r) => r.hookId))];
  for (const hookId of hookIds) events.emit('hook.changed', { accountId, hookId });
  if (renewed.length) announceDue(events);
  return { renewed: renewed.length };
}

/** A day's count of one counter, by the same statuses /api/hook/total counts (HOOK_COUNTER_STATUSES). */
const counted = (counter: HookCounter) =>
  sql<number>`count(*) filter (where ${inArray(hooks.status, [...HOOK_COUNTER_STATUSES[counter]])})::int`;

/**
 * Per-day counts of the account's leads, newest day first (days in the account's time zone):
 * { date: 'YYYY-MM-DD', received, delivered, failed, pending, filtered, duplicate, held }.
 * `received` counts every inbound event (hooks); the rest split them by their status.
 */
export async function statistic(db: Executor, accountId: string, page: number, limit: number) {
  const zone = await accountTimeZone(db, accountId);
  const day = sql<string>`to_char(${hooks.createdAt} at time zone ${zone}, 'YYYY-MM-DD')`;
  const rows = await db
    .select({
      date: day,
      received: count(),
      delivered: counted('delivered'),
      failed: counted('failed'),
      pending: counted('pending'),
      filtered: counted('filtered'),
      duplicate: counted('duplicate'),
      held: counted('held'),
    })
    .from(hooks)
    .where(eq(hooks.accountId, accountId))
    // By position: a second copy of `day` would bind the zone again, and PostgreSQL would not see it as the same expression.
    .groupBy(sql`1`)
    .orderBy(sql`1 desc`)
    .limit(limit)
    .offset((page - 1) * limit);
  const [total] = await db
    .select({ n: sql<number>`count(distinct ${day})::int` })
    .from(hooks)
    .where(eq(hooks.accountId, accountId));
  return { data: rows.map((r) => ({ _id: r.date, ...r })), limit, page, total: total?.n ?? 0 };
}
