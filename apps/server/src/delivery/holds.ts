// When an account's leads are held (docs/adr/008-held-leads.md): its paid or demo period is over
// (plan_expired), or it got its plan's leads for this UTC month (monthly_limit). Staff accounts are
// never held. One definition, in SQL fragments, for ingest's statements (which decide per lead,
// in the lead's own statement) and for the checks that release a hold.
import { DEMO_PLAN_LIMITS, type HoldReason } from '@leadrelay/shared';
import { sql } from 'drizzle-orm';
import { type Executor, rowsOf } from '../db/client';

/** The UTC day of a timestamptz expression, as a date. */
export const utcDaySql = (ts: string) => `(${ts} at time zone 'UTC')::date`;
/** The first day of the UTC month of a timestamptz expression, as a date (lead_usage.month). */
export const utcMonthSql = (ts: string) => `date_trunc('month', ${ts} at time zone 'UTC')::date`;

/** Leads a month the account may get delivered: its plan's, DEMO_PLAN_LIMITS without one; null is no limit. */
const monthlyLimitSql = (user: string, plan: string) =>
  `case when ${user}.role <> 'client' then null
    when ${user}.plan_id is null then ${DEMO_PLAN_LIMITS.leadsPerMonth ?? 'null'}::bigint
    else (${plan}.limits ->> 'leadsPerMonth')::bigint end`;

/** The account's leads that counted towards the limit in the UTC month `month` (a date expression). */
export const usedInMonthSql = (accountId: string, month: string) =>
  `coalesce((select sum(n.leads) from lead_usage n where n.account_id = ${accountId} and n.month = ${month}), 0)`;

/**
 * Why a lead of the account would be held, or null: `user` is its users row, `plan` its plans row
 * (left joined on users.plan_id), `day` the lead's UTC day (a date), `usedBefore` the leads that
 * counted this month before this one. Expired wins over the limit.
 */
export function holdReasonSql(o: { user: string; plan: string; day: string; usedBefore: string }): string {
  const limit = monthlyLimitSql(o.user, o.plan);
  return `case
    when ${o.user}.role = 'client' and ${o.user}.exp_date < ${o.day} then 'plan_expired'
    when ${limit} is not null and ${o.usedBefore} >= ${limit} then 'monthly_limit'
  end`;
}

/** The hold reason of the users row `u` (plans row `pl`) at `p.now`: a select list item. */
const REASON_NOW = holdReasonSql({
  user: 'u',
  plan: 'pl',
  day: utcDaySql('p.now'),
  usedBefore: usedInMonthSql('u.id', utcMonthSql('p.now')),
});

/**
 * Why the account's leads are held at `now`, or null. `sticky`: an account that still has a hold
 * (held leads not yet released) counts as held with the hold's reason, as ingest sees it, so that
 * nothing overtakes its held leads.
 */
export async function holdReasonOf(
  tx: Executor,
  accountId: string,
  now: Date,
  options: { sticky?: boolean } = {},
): Promise<HoldReason | null> {
  const result = await tx.execute(sql`
    select ${sql.raw(REASON_NOW)} as reason, h.reason as "heldFor"
    from (select ${now.toISOString()}::timestamptz as now) p, users u
    left join plans pl on pl.id = u.plan_id
    left join account_holds h on h.account_id = u.id
    where u.id = ${accountId}`);
  const [row] = rowsOf<{ reason: HoldReason | null; heldFor: HoldReason | null }>(result);
  return row?.reason ?? (options.sticky ? (row?.heldFor ?? null) : null);
}

/** Every account with a hold, oldest hold first, and why it is held at `now` (null: release it). */
export async function holdsToCheck(
  tx: Executor,
  now: Date,
): Promise<{ accountId: string; heldFor: HoldReason; reason: HoldReason | null }[]> {
  const result = await tx.execute(sql`
    select h.account_id as "accountId", h.reason as "heldFor", ${sql.raw(REASON_NOW)} as reason
    from (select ${now.toISOString()}::timestamptz as now) p, account_holds h
    join users u on u.id = h.account_id
    left join plans pl on pl.id = u.plan_id
    order by h.since`);
  return rowsOf(result);
}
