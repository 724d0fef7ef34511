// The daily reconciliation (issue 19 part 4c): per source integration and day (the account's zone), how many
// leads came in and what became of them, counted in SQL from the lead log (hooks, whose status the
// delivery engine keeps as the sum of the lead's deliveries), so each number is what the lead log
// shows when filtered by that source and status.
import type { Reconciliation, ReconciliationRow } from '@leadrelay/shared';
import { sql } from 'drizzle-orm';
import { DateTime } from 'luxon';
import { type Executor, rowsOf } from '../../db/client';
import { accountTimeZone } from '../../lib/account-zone';

interface Row {
  day: string;
  integration_id: string;
  name: string;
  type: string;
  received: number;
  delivered: number;
  held: number;
  failed: number;
}

/**
 * Leads of the account's sources received in [from, to), per day (the account's zone) and source, newest day first.
 * received: hooks that stored a lead (not filtered, not duplicates); delivered: every destination
 * took it; held: kept while the account is held; failed: some destination refused it for good
 * (`failed` or `partial`); other: still on its way.
 */
export async function reconcile(db: Executor, accountId: string, from: Date, to: Date): Promise<ReconciliationRow[]> {
  const zone = await accountTimeZone(db, accountId);
  const rows = rowsOf<Row>(
    await db.execute(sql`
      select to_char(h.created_at at time zone ${zone}, 'YYYY-MM-DD') as day, h.integration_id::text,
        i.name, i.type,
        count(*)::int as received,
        count(*) filter (where h.status = 'delivered')::int as delivered,
        count(*) filter (where h.status = 'held')::int as held,
        count(*) filter (where h.status in ('failed', 'partial'))::int as failed
      from hooks h join integrations i on i.id = h.integration_id
      where h.account_id = ${accountId}::uuid and h.status not in ('filtered', 'duplicate')
        and h.created_at >= ${from.toISOString()}::timestamptz and h.created_at < ${to.toISOString()}::timestamptz
      group by 1, 2, 3, 4
      order by 1 desc, 5 desc, 3`),
  );
  return rows.map((r) => ({
    day: r.day,
    integration: { _id: r.integration_id, name: r.name, type: r.type },
    received: r.received,
    delivered: r.delivered,
    held: r.held,
    failed: r.failed,
    other: r.received - r.delivered - r.held - r.failed,
  }));
}

/** The last `days` days in the account's zone, today included (GET /api/guardian/reconciliation). */
export async function reconciliation(
  db: Executor,
  accountId: string,
  days: number,
  now = new Date(),
): Promise<Reconciliation> {
  const timeZone = await accountTimeZone(db, accountId);
  const from = DateTime.fromJSDate(now, { zone: timeZone })
    .startOf('day')
    .minus({ days: days - 1 })
    .toJSDate();
  return { days, timeZone, rows: await reconcile(db, accountId, from, new Date(now.getTime() + 1)) };
}
