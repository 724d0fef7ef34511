// Speed to lead (issue 19 part 2; docs/adr/010-manager-bot.md): a manager's reactions to a lead,
// recorded once per lead and kind, and the report on how fast they come per source integration,
// manager and day. The bot's buttons, the web's and a CRM status read all record through
// `recordReaction`.
import {
  type LeadReaction,
  type ReactionKind,
  type ReactionResult,
  type ReactionVia,
  SPEED_TO_LEAD_WITHIN_MINUTES,
  type SpeedStat,
  type SpeedToLeadBreakdown,
  type SpeedToLeadQuery,
  type SpeedToLeadReport,
  type SpeedToLeadRow,
} from '@leadrelay/shared';
import { and, eq, sql } from 'drizzle-orm';
import { DateTime } from 'luxon';
import { type Executor, rowsOf } from '../../db/client';
import { hooks, type LeadReactionRow, leadReactions, leads } from '../../db/schema';
import { accountTimeZone } from '../../lib/account-zone';
import { AppError } from '../../lib/app-error';

const toReactionView = (r: Pick<LeadReactionRow, 'kind' | 'byName' | 'via' | 'at'>): LeadReaction => ({
  kind: r.kind,
  byName: r.byName,
  via: r.via,
  at: r.at.toISOString(),
});

export interface ReactionInput {
  accountId: string;
  leadId: string;
  /** The lead's source integration, when the caller has read it (with the lead's account) already. */
  integrationId?: string;
  kind: ReactionKind;
  via: ReactionVia;
  by?: { id?: string; name?: string };
  at?: Date;
}

/**
 * Records the lead's first reaction of a kind. A second one (pressed twice, or by another manager
 * at the same moment) records nothing and answers the first: the unique key decides, not a read
 * before the write.
 */
export async function recordReaction(db: Executor, input: ReactionInput): Promise<ReactionResult> {
  const integrationId = input.integrationId ?? (await leadSource(db, input.accountId, input.leadId));
  const [made] = await db
    .insert(leadReactions)
    .values({
      accountId: input.accountId,
      leadId: input.leadId,
      integrationId,
      kind: input.kind,
      via: input.via,
      byId: input.by?.id ?? null,
      byName: input.by?.name ?? null,
      ...(input.at ? { at: input.at } : {}),
    })
    .onConflictDoNothing({ target: [leadReactions.leadId, leadReactions.kind] })
    .returning();
  if (made) return { recorded: true, reaction: toReactionView(made) };
  const [first] = await db
    .select()
    .from(leadReactions)
    .where(and(eq(leadReactions.leadId, input.leadId), eq(leadReactions.kind, input.kind)));
  if (!first) throw new AppError('HOOK_NOT_FOUND');
  return { recorded: false, reaction: toReactionView(first) };
}

/** The source integration of one of the account's leads. */
async function leadSource(db: Executor, accountId: string, leadId: string): Promise<string> {
  const [lead] = await db
    .select({ integrationId: leads.integrationId })
    .from(leads)
    .where(and(eq(leads.id, leadId), eq(leads.accountId, accountId)));
  if (!lead) throw new AppError('HOOK_NOT_FOUND');
  return lead.integrationId;
}

/** A reaction from the lead log: the hook's lead, by the signed-in user. */
export async function reactToHook(
  db: Executor,
  accountId: string,
  hookId: string,
  kind: ReactionKind,
  user: { id: string; name: string },
): Promise<ReactionResult> {
  const [hook] = await db
    .select({ leadId: hooks.leadId, integrationId: hooks.integrationId })
    .from(hooks)
    .where(and(eq(hooks.id, hookId), eq(hooks.accountId, accountId)));
  if (!hook) throw new AppError('HOOK_NOT_FOUND');
  if (!hook.leadId) throw new AppError('HOOK_HAS_NO_LEAD');
  // A hook and its lead come from the same source.
  const { leadId, integrationId } = hook;
  return recordReaction(db, { accountId, leadId, integrationId, kind, via: 'web', by: user });
}

/** The reactions of some leads, oldest first, by lead id. */
export async function reactionsOf(db: Executor, leadIds: string[]): Promise<Map<string, LeadReaction[]>> {
  const out = new Map<string, LeadReaction[]>();
  if (!leadIds.length) return out;
  const rows = await db
    .select()
    .from(leadReactions)
    .where(sql`${leadReactions.leadId} in ${leadIds}`)
    .orderBy(leadReactions.at);
  for (const r of rows) out.set(r.leadId, [...(out.get(r.leadId) ?? []), toReactionView(r)]);
  return out;
}

interface ReportRow {
  day: string;
  integration_id: string;
  manager: string | null;
  leads: number;
  reacted: number;
  median_ms: number | null;
  p90_ms: number | null;
  within_5: number;
  within_15: number;
  within_60: number;
  delivery_median_ms: number | null;
}

/**
 * The report over the last `days` days (whole days in Kyiv time, today included): per day, source
 * integration and the manager the leads were given to, how many leads, how many got a first
 * reaction (a take or a call back, whichever came first) and how fast: median and 90th percentile
 * from receipt, the share of all leads reacted to within 5, 15 and 60 minutes, and the median time
 * from receipt to the first delivery.
 */
export async function speedToLead(
  db: Executor,
  accountId: string,
  query: SpeedToLeadQuery,
  now = new Date(),
): Promise<SpeedToLeadReport> {
  const zone = await accountTimeZone(db, accountId);
  // From the start of the first day (the account's zone) to now.
  const from = DateTime.fromJSDate(now, { zone })
    .startOf('day')
    .minus({ days: query.days - 1 })
    .toJSDate();
  const [w5, w15, w60] = SPEED_TO_LEAD_WITHIN_MINUTES.map((m) => m * 60_000);
  const result = await db.execute(sql`
    with l as (
      select l.id, l.integration_id, l.created_at, l.assignee->>'name' as manager,
        (select min(r.at) from lead_reactions r where r.lead_id = l.id) as first_reaction,
        (select min(d.delivered_at) from deliveries d where d.lead_id = l.id) as first_delivery
      from leads l
      where l.account_id = ${accountId}::uuid
        and l.created_at >= ${from.toISOString()}::timestamptz and l.created_at <= ${now.toISOString()}::timestamptz
        ${query.integrationId ? sql`and l.integration_id = ${query.integrationId}::uuid` : sql``}
    ), t as (
      select *, extract(epoch from first_reaction - created_at) * 1000 as reaction_ms,
        extract(epoch from first_delivery - created_at) * 1000 as delivery_ms
      from l
    )
    select to_char(created_at at time zone ${zone}, 'YYYY-MM-DD') as day, integration_id::text, manager,
      count(*)::int as leads,
      count(first_reaction)::int as reacted,
      percentile_cont(0.5) within group (order by reaction_ms)::float8 as median_ms,
      percentile_cont(0.9) within group (order by reaction_ms)::float8 as p90_ms,
      avg((coalesce(reaction_ms <= ${w5}, false))::int)::float8 as within_5,
      avg((coalesce(reaction_ms <= ${w15}, false))::int)::float8 as within_15,
      avg((coalesce(reaction_ms <= ${w60}, false))::int)::float8 as within_60,
      percentile_cont(0.5) within group (order by delivery_ms)::float8 as delivery_median_ms
    from t
    group by 1, 2, 3
    order by 1 desc, 2, 3 nulls last`);
  const round = (v: number | null) => (v === null ? null : Math.round(v));
  const share = (v: number) => Math.round(v * 1000) / 1000;
  const rows: SpeedToLeadRow[] = rowsOf<ReportRow>(result).map((r) => ({
    day: r.day,
    integrationId: r.integration_id,
    manager: r.manager,
    leads: r.leads,
    reacted: r.reacted,
    neverTaken: r.leads - r.reacted,
    medianMs: round(r.median_ms),
    p90Ms: round(r.p90_ms),
    within: { '5': share(r.within_5), '15': share(r.within_15), '60': share(r.within_60) },
    deliveryMedianMs: round(r.delivery_median_ms),
  }));
  return { from: from.toISOString(), to: now.toISOString(), timeZone: zone, rows };
}

interface StatRow {
  g_day: number;
  g_integration: number;
  g_manager: number;
  day: string | null;
  integration_id: string | null;
  name: string | null;
  type: string | null;
  manager: string | null;
  leads: number;
  reacted: number;
  median_ms: number | null;
  p90_ms: number | null;
  within_5: number | null;
  within_15: number | null;
  within_60: number | null;
}

const toStat = (r: StatRow | undefined): SpeedStat => {
  const round = (v: number | null | undefined) => (v === null || v === undefined ? null : Math.round(v));
  const share = (v: number | null | undefined) => Math.round((v ?? 0) * 1000) / 1000;
  const leads = r?.leads ?? 0;
  const reacted = r?.reacted ?? 0;
  return {
    leads,
    reacted,
    neverTaken: leads - reacted,
    medianMs: round(r?.median_ms),
    p90Ms: round(r?.p90_ms),
    within: { '5': share(r?.within_5), '15': share(r?.within_15), '60': share(r?.within_60) },
  };
};

/**
 * Speed to lead of the account's leads received in [from, to): as a whole, per day (the account's zone), per source
 * integration and per manager, in one statement (grouping sets), so every median is over its own
 * leads rather than a median of medians.
 */
export async function speedBreakdown(
  db: Executor,
  accountId: string,
  range: { from: Date; to: Date; integrationId?: string },
): Promise<SpeedToLeadBreakdown> {
  const zone = await accountTimeZone(db, accountId);
  const [w5, w15, w60] = SPEED_TO_LEAD_WITHIN_MINUTES.map((m) => m * 60_000);
  const rows = rowsOf<StatRow>(
    await db.execute(sql`
      with t as (
        select to_char(l.created_at at time zone ${zone}, 'YYYY-MM-DD') as day, l.integration_id,
          l.assignee->>'name' as manager,
          extract(epoch from (select min(r.at) from lead_reactions r where r.lead_id = l.id) - l.created_at) * 1000
            as reaction_ms
        from leads l
        where l.account_id = ${accountId}::uuid
          and l.created_at >= ${range.from.toISOString()}::timestamptz and l.created_at < ${range.to.toISOString()}::timestamptz
          ${range.integrationId ? sql`and l.integration_id = ${range.integrationId}::uuid` : sql``}
      )
      select grouping(t.day)::int as g_day, grouping(t.integration_id)::int as g_integration,
        grouping(t.manager)::int as g_manager, t.day, t.integration_id::text, min(i.name) as name, min(i.type) as type,
        t.manager, count(*)::int as leads, count(reaction_ms)::int as reacted,
        percentile_cont(0.5) within group (order by reaction_ms)::float8 as median_ms,
        percentile_cont(0.9) within group (order by reaction_ms)::float8 as p90_ms,
        avg((coalesce(reaction_ms <= ${w5}, false))::int)::float8 as within_5,
        avg((coalesce(reaction_ms <= ${w15}, false))::int)::float8 as within_15,
        avg((coalesce(reaction_ms <= ${w60}, false))::int)::float8 as within_60
      from t join integrations i on i.id = t.integration_id
      group by grouping sets ((t.day), (t.integration_id), (t.manager), ())
      order by t.day, count(*) desc, min(i.name), t.manager nulls last`),
  );
  const groups = (d: number, i: number, m: number) =>
    rows.filter((r) => r.g_day === d && r.g_integration === i && r.g_manager === m);
  return {
    from: range.from.toISOString(),
    to: range.to.toISOString(),
    timeZone: zone,
    total: toStat(groups(1, 1, 1)[0]),
    byDay: groups(0, 1, 1).map((r) => ({ day: r.day!, ...toStat(r) })),
    byIntegration: groups(1, 0, 1).map((r) => ({
      integration: { _id: r.integration_id!, name: r.name ?? '', type: r.type ?? '' },
      ...toStat(r),
    })),
    byManager: groups(1, 1, 0).map((r) => ({ manager: r.manager, ...toStat(r) })),
  };
}

/** The breakdown over the last `days` days in the account's zone, today included (GET /api/report/speed-to-lead/breakdown). */
export async function speedBreakdownOf(
  db: Executor,
  accountId: string,
  query: SpeedToLeadQuery,
  now = new Date(),
): Promise<SpeedToLeadBreakdown> {
  const from = DateTime.fromJSDate(now, { zone: await accountTimeZone(db, accountId) })
    .startOf('day')
    .minus({ days: query.days - 1 })
    .toJSDate();
  return speedBreakdown(db, accountId, { from, to: new Date(now.getTime() + 1), integrationId: query.integrationId });
}

/** The whole of a period's speed to lead (the weekly mail). */
export async function speedToLeadSummary(db: Executor, accountId: string, from: Date, to: Date): Promise<SpeedStat> {
  return (await speedBreakdown(db, accountId, { from, to })).total;
}
