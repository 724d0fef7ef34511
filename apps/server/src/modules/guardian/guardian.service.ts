// The guardian's drought watch (issue 19 part 4a; docs/adr/010-manager-bot.md): every quarter of an
// hour, each active source with enough history is judged by `judgeSilence` (lib/drought.ts) from its
// leads per hour of the week over the last four weeks, counted in SQL per account (the leads'
// (account_id, created_at) index). A drought opens one alert per source until a lead comes again.
import { connectors } from '@leadrelay/connectors';
import { type GuardianAlert, parseReason, SOURCE_TYPES } from '@leadrelay/shared';
import { and, desc, eq, isNull, sql } from 'drizzle-orm';
import { type Executor, rowsOf } from '../../db/client';
import { connectorConnections, type GuardianAlertRow, guardianAlerts, integrations } from '../../db/schema';
import { accountTimeZone } from '../../lib/account-zone';
import { judgeSilence } from '../../lib/drought';
import { type GuardianDeps, notifyOwner, ownerOf } from './guardian-notify';

const WEEKS = 4;
const WEEK_MS = 7 * 86_400_000;

interface HourRow {
  integration_id: string;
  how: number;
  n: number;
  last: Date | string;
}

/** Opens an alert for each source in a drought, closes those a lead has ended; what it opened. */
export async function checkDroughts(db: Executor, now: Date): Promise<{ opened: GuardianAlertRow[]; closed: number }> {
  const iso = now.toISOString();
  const closed = await db.execute(sql`
    update guardian_alerts a set closed_at = ${iso}::timestamptz
    where a.kind = 'drought' and a.closed_at is null
      and exists (select from leads l where l.account_id = a.account_id and l.integration_id = a.integration_id
                  and l.created_at > a.silent_since)`);
  const accounts = rowsOf<{ account_id: string }>(
    await db.execute(
      sql`select distinct account_id::text from integrations where active and type in ${[...SOURCE_TYPES]}`,
    ),
  );
  const from = new Date(now.getTime() - WEEKS * WEEK_MS).toISOString();
  const opened: GuardianAlertRow[] = [];
  for (const { account_id: accountId } of accounts) {
    // Hours of the week in the account's zone, as the drought judge reads them.
    const timeZone = await accountTimeZone(db, accountId);
    const rows = rowsOf<HourRow>(
      await db.execute(sql`
        select l.integration_id::text,
          ((extract(isodow from l.created_at at time zone ${timeZone})::int - 1) * 24
            + extract(hour from l.created_at at time zone ${timeZone})::int) as how,
          count(*)::int as n, max(l.created_at) as last
        from leads l join integrations i on i.id = l.integration_id and i.active
        where l.account_id = ${accountId}::uuid and l.created_at > ${from}::timestamptz and l.created_at <= ${iso}::timestamptz
        group by 1, 2`),
    );
    const sources = new Map<string, { rates: number[]; last: number; learned: number }>();
    for (const r of rows) {
      const s = sources.get(r.integration_id) ?? { rates: new Array<number>(168).fill(0), last: 0, learned: 0 };
      s.rates[r.how] = r.n / WEEKS;
      s.learned += r.n;
      s.last = Math.max(s.last, new Date(r.last).getTime());
      sources.set(r.integration_id, s);
    }
    for (const [integrationId, s] of sources) {
      const verdict = judgeSilence({ rates: s.rates, last: new Date(s.last), learned: s.learned }, now, { timeZone });
      if (!verdict.alert) continue;
      const [made] = await db
        .insert(guardianAlerts)
        .values({
          accountId,
          integrationId,
          kind: 'drought',
          silentSince: verdict.silentSince,
          expected: Math.round(verdict.expected * 10) / 10,
          openedAt: now,
        })
        .onConflictDoNothing({
          target: [guardianAlerts.integrationId, guardianAlerts.kind],
          where: sql`${guardianAlerts.closedAt} is null`,
        })
        .returning();
      if (made) opened.push(made);
    }
  }
  return { opened, closed: (closed as { rowCount?: number }).rowCount ?? 0 };
}

/**
 * Tells the owner of each open drought nobody was told of yet, once: `notified_at` is set only when
 * a channel told them, so a mail that failed (or a mail turned off, then on) goes out next run, and
 * a drought that lasts is never told twice. A new drought (leads came back, then stopped) is a new
 * alert, told again.
 */
export async function notifyDroughts(deps: GuardianDeps, tx: Executor, now: Date): Promise<number> {
  const open = await tx
    .select({ a: guardianAlerts, name: integrations.name })
    .from(guardianAlerts)
    .innerJoin(integrations, eq(integrations.id, guardianAlerts.integrationId))
    .where(and(eq(guardianAlerts.kind, 'drought'), isNull(guardianAlerts.closedAt), isNull(guardianAlerts.notifiedAt)));
  let told = 0;
  for (const { a, name } of open) {
    const owner = await ownerOf(tx, a.accountId);
    if (!owner || !a.silentSince) continue;
    const notice = {
      name,
      silentSince: a.silentSince,
      expected: a.expected ?? 0,
      timeZone: await accountTimeZone(tx, a.accountId),
    };
    if (!(await notifyOwner(deps, owner, { kind: 'drought', notice }))) continue;
    await tx.update(guardianAlerts).set({ notifiedAt: now }).where(eq(guardianAlerts.id, a.id));
    told++;
  }
  return told;
}

/** The account's alerts, newest first (the guardian's history on the web). */
export async function listAlerts(db: Executor, accountId: string): Promise<GuardianAlert[]> {
  const rows = await db
    .select({
      a: guardianAlerts,
      name: integrations.name,
      type: integrations.type,
      connectionName: connectorConnections.name,
    })
    .from(guardianAlerts)
    .leftJoin(integrations, eq(integrations.id, guardianAlerts.integrationId))
    .leftJoin(connectorConnections, eq(connectorConnections.id, guardianAlerts.connectionId))
    .where(eq(guardianAlerts.accountId, accountId))
    .orderBy(desc(guardianAlerts.openedAt))
    .limit(200);
  return rows.map(({ a, name, type, connectionName }) => ({
    _id: a.id,
    kind: a.kind,
    integration: a.integrationId && name !== null && type !== null ? { _id: a.integrationId, name, type } : null,
    connection: a.connectionId && connectionName !== null ? { _id: a.connectionId, name: connectionName } : null,
    silentSince: a.silentSince?.toISOString() ?? null,
    expected: a.expected,
    expiresAt: a.expiresAt?.toISOString() ?? null,
    daysAhead: a.daysAhead,
    // A connector's own stored forms read as its codes, as an integration's state does.
    reason: a.reason === null ? null : parseReason(a.reason, (type && connectors.get(type)?.codes?.stored) || []),
    openedAt: a.openedAt.toISOString(),
    closedAt: a.closedAt?.toISOString() ?? null,
    notifiedAt: a.notifiedAt?.toISOString() ?? null,
  }));
}
