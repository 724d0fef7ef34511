// The weekly mail (issue 19 parts 2 and 4): on Monday from 09:00 Kyiv, each account with a source
// gets last week's speed to lead and reconciliation, in its language, once: the (account, week) row
// is written before the mail goes and removed when it could not go, so a retry never sends twice and
// a failure is tried again next run. An owner who turned it off gets none.
import { SOURCE_TYPES } from '@leadrelay/shared';
import { and, eq, sql } from 'drizzle-orm';
import { DateTime } from 'luxon';
import { type Executor, rowsOf } from '../../db/client';
import { guardianWeeklyMails } from '../../db/schema';
import type { WeeklyCounts } from '../../lib/mail/guardian-templates';
import { DEFAULT_TIME_ZONE } from '../../lib/working-time';
import { type GuardianDeps, notifyOwner, ownerOf } from './guardian-notify';
import { reconcile } from './reconciliation';

/** The whole of a period's speed to lead (modules/reactions' speedToLeadSummary, given by index.ts). */
export type SpeedSummaryOf = (
  db: Executor,
  accountId: string,
  from: Date,
  to: Date,
) => Promise<{
  reacted: number;
  neverTaken: number;
  medianMs: number | null;
  p90Ms: number | null;
  within: { '5': number; '15': number; '60': number };
}>;

/** The hour on Monday (in the account's zone) from which last week's mail goes. */
export const WEEKLY_MAIL_HOUR = 9;

/**
 * The week last finished at `now` (Monday 00:00 to Monday 00:00 in `zone`, the account's), or null
 * before Monday 09:00 there.
 */
export function lastWeek(now: Date, zone: string = DEFAULT_TIME_ZONE): { from: DateTime; to: DateTime } | null {
  const monday = DateTime.fromJSDate(now, { zone }).startOf('week');
  if (DateTime.fromJSDate(now) < monday.set({ hour: WEEKLY_MAIL_HOUR })) return null;
  return { from: monday.minus({ weeks: 1 }), to: monday };
}

const zero = (): WeeklyCounts => ({ received: 0, delivered: 0, held: 0, failed: 0 });

export async function sendWeeklyMails(
  deps: GuardianDeps,
  speedOf: SpeedSummaryOf,
  tx: Executor,
  now: Date,
): Promise<number> {
  // Accounts with a source, not opted out, not yet mailed for the week last begun in their zone
  // (date_trunc's week starts on Monday, as Luxon's does); each one's week is then in its own zone.
  const accounts = rowsOf<{ account_id: string; time_zone: string; first_source: Date | string }>(
    await tx.execute(sql`
      select i.account_id::text, u.time_zone, min(i.created_at) as first_source from integrations i
      join users u on u.id = i.account_id
      left join guardian_settings s on s.account_id = i.account_id
      where i.type in ${[...SOURCE_TYPES]} and coalesce(s.weekly_mail, true)
        and not exists (select from guardian_weekly_mails m where m.account_id = i.account_id
          and m.week = (date_trunc('week', ${now.toISOString()}::timestamptz at time zone u.time_zone) - interval '1 week')::date)
      group by 1, 2`),
  );
  let sent = 0;
  for (const { account_id: accountId, time_zone: zone, first_source: firstSource } of accounts) {
    const week = lastWeek(now, zone);
    if (!week) continue;
    const weekDay = week.from.toISODate()!;
    const from = week.from.toJSDate();
    const to = week.to.toJSDate();
    // Only an account that had a source before the week ended.
    if (new Date(firstSource) >= to) continue;
    const owner = await ownerOf(tx, accountId);
    if (!owner) continue;
    const claimed = await tx
      .insert(guardianWeeklyMails)
      .values({ accountId, week: weekDay, sentAt: now })
      .onConflictDoNothing()
      .returning();
    if (!claimed.length) continue;
    const rows = await reconcile(tx, accountId, from, to);
    const totals = zero();
    const bySource = new Map<string, WeeklyCounts & { name: string }>();
    for (const r of rows) {
      const s = bySource.get(r.integration._id) ?? { ...zero(), name: r.integration.name };
      for (const k of ['received', 'delivered', 'held', 'failed'] as const) {
        s[k] += r[k];
        totals[k] += r[k];
      }
      bySource.set(r.integration._id, s);
    }
    const notice = {
      from,
      timeZone: zone,
      to: week.to.minus({ days: 1 }).toJSDate(),
      totals,
      speed: await speedOf(tx, accountId, from, to),
      sources: [...bySource.values()].sort((a, b) => b.received - a.received),
    };
    if (await notifyOwner(deps, owner, { kind: 'weekly', notice })) {
      sent++;
      continue;
    }
    // Not sent: free the week so the next run tries again.
    await tx
      .delete(guardianWeeklyMails)
      .where(and(eq(guardianWeeklyMails.accountId, accountId), eq(guardianWeeklyMails.week, weekDay)));
  }
  return sent;
}
