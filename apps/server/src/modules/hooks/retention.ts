// How long the lead log is kept (docs/operations.md, "Retention"): hooks, leads, their deliveries
// and attempts older than RETENTION_DAYS go, in small batches on a schedule, so pruning never
// holds long locks or slows ingest. Nothing still on its way goes: a hook or lead with a pending,
// running or held delivery stays until it is delivered, fails for good, or the holds module lets
// it go (ADR 008).
import { sql } from 'drizzle-orm';
import { type Executor, rowsOf } from '../../db/client';
import type { PeriodicTask } from '../../delivery/periodic';

export const DEFAULT_RETENTION_DAYS = 180;
/** Rows per table per run: one short transaction every few minutes. */
export const RETENTION_BATCH = 2000;

const UNFINISHED = sql`('pending', 'running', 'held')`;

/**
 * Deletes up to `batch` hooks and `batch` leads older than `days` (with their deliveries and
 * attempts, by cascade). Walks each account's (account_id, created_at) index, so no table scan.
 */
export async function pruneLeadLog(tx: Executor, now: Date, days: number, batch = RETENTION_BATCH) {
  const cutoff = new Date(now.getTime() - days * 86_400_000).toISOString();
  const hooks = await tx.execute(sql`
    delete from hooks where id in (
      select old.id from users u cross join lateral (
        select h.id from hooks h
        where h.account_id = u.id and h.created_at < ${cutoff}::timestamptz
          and not exists (select 1 from deliveries d where d.hook_id = h.id and d.status in ${UNFINISHED})
        order by h.created_at limit ${batch}
      ) old limit ${batch})
    returning id`);
  const leads = await tx.execute(sql`
    delete from leads where id in (
      select old.id from users u cross join lateral (
        select l.id from leads l
        where l.account_id = u.id and l.created_at < ${cutoff}::timestamptz
          and not exists (select 1 from deliveries d where d.lead_id = l.id and d.status in ${UNFINISHED})
          and not exists (select 1 from hooks h where h.lead_id = l.id)
        order by l.created_at limit ${batch}
      ) old limit ${batch})
    returning id`);
  return { hooks: rowsOf(hooks).length, leads: rowsOf(leads).length };
}

export const retentionTasks = (days: number): PeriodicTask[] => [
  { name: 'prune-lead-log', everyMs: 5 * 60_000, run: (tx, now) => pruneLeadLog(tx, now, days) },
];
