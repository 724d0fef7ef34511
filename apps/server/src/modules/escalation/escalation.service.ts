// Escalation (issue 19 part 3; docs/adr/010-manager-bot.md point 6): a lead of a source whose routing
// policy escalates is enrolled with its holder and deadline (N minutes of the holder's working time);
// a lead nobody took by then passes to the next manager on duty who has not had it (lib/escalation),
// its Telegram card goes out again to them, and the owner gets one mail per run with the passes.

import { connectors } from '@leadrelay/connectors';
import { type Assignee, type Locale, type RoutingPolicy, type WorkingHours, ZRoutingPolicy } from '@leadrelay/shared';
import { and, eq, inArray, isNotNull, lte, sql } from 'drizzle-orm';
import { type Executor, rowsOf } from '../../db/client';
import {
  type AssignmentStep,
  type CollectionItem,
  collections,
  integrations,
  leadAssignments,
  leadReactions,
  leads,
  users,
} from '../../db/schema';
import { redeliverLeadTo } from '../../delivery/queue';
import { escalate, escalationDue, type RoutingPolicy as LibPolicy, type Manager } from '../../lib/escalation';

/** The destination types a passed lead goes to again: those whose connector delivers to the assignee in person. */
const typesDeliveredToAssignee = (): string[] =>
  [...connectors.values()].filter((definition) => definition.deliversToAssignee).map((definition) => definition.slug);

/** New leads older than this are not enrolled (a task that was down a day does not wake old leads). */
export const ENROL_WINDOW_MS = 24 * 60 * 60_000;
/** Leads enrolled, and due escalations handled, per run at most; the rest wait for the next run. */
export const ESCALATION_BATCH = 200;

/** An item without hours is always on duty. */
const ALWAYS: WorkingHours = {
  timeZone: 'UTC',
  week: Array.from({ length: 7 }, () => [{ from: '00:00', to: '24:00' }]),
  daysOff: [],
};

const managerOf = (item: CollectionItem): Manager => ({
  id: item.id,
  name: item.name,
  hours: item.hours ?? ALWAYS,
  away: item.away === true,
});

const libPolicy = (p: RoutingPolicy): LibPolicy => ({
  whenNobody: p.whenNobody,
  ...(p.fallbackItemId ? { fallbackId: p.fallbackItemId } : {}),
  escalateAfterMinutes: p.escalateAfterMinutes,
});

function policyOf(options: Record<string, unknown>): RoutingPolicy | undefined {
  const parsed = ZRoutingPolicy.safeParse(options.routing);
  return parsed.success ? parsed.data : undefined;
}

/** One lead passed on, for the owner's mail. */
export interface Pass {
  accountId: string;
  leadId: string;
  lead: string;
  source: string;
  from: string;
  to: string;
}

export interface EscalationRun {
  enrolled: number;
  passes: Pass[];
  /** Deliveries made due again (the workers are told after the commit). */
  requeued: number;
}

/** The collections a run reads, each once. */
function collectionReader(tx: Executor) {
  const cache = new Map<string, Promise<CollectionItem[] | undefined>>();
  return (id: string) => {
    let items = cache.get(id);
    if (!items) {
      items = tx
        .select({ items: collections.items })
        .from(collections)
        .where(eq(collections.id, id))
        .then(([row]) => row?.items);
      cache.set(id, items);
    }
    return items;
  };
}

/**
 * Enrols the new leads of escalating sources: holder = the item the ingest gave it, deadline = N
 * minutes of that holder's working time from when the lead came (from when they come on, for a lead
 * that waited for them). A lead taken before it was enrolled is left alone.
 */
async function enrol(tx: Executor, now: Date, items: ReturnType<typeof collectionReader>): Promise<number> {
  const since = new Date(now.getTime() - ENROL_WINDOW_MS);
  const result = await tx.execute(sql`
    select l.id, l.account_id as "accountId", l.integration_id as "integrationId", l.assignee,
      l.created_at as "createdAt", i.distribution_id as "collectionId", i.options
    from integrations i
    join leads l on l.account_id = i.account_id and l.integration_id = i.id
      and l.created_at > ${since.toISOString()}::timestamptz and l.created_at <= ${now.toISOString()}::timestamptz
    where i.distribution_id is not null
      and jsonb_typeof(i.options->'routing'->'escalateAfterMinutes') = 'number'
      and l.assignee ? 'itemId'
      and not exists (select from lead_assignments a where a.lead_id = l.id)
      and not exists (select from lead_reactions r where r.lead_id = l.id and r.kind = 'taken')
    order by l.created_at
    limit ${ESCALATION_BATCH}`);
  const rows = rowsOf<{
    id: string;
    accountId: string;
    integrationId: string;
    assignee: Assignee;
    createdAt: string | Date;
    collectionId: string;
    options: Record<string, unknown>;
  }>(result);
  let enrolled = 0;
  for (const row of rows) {
    const policy = policyOf(row.options);
    const list = await items(row.collectionId);
    if (!policy || !list) continue;
    const at = new Date(row.createdAt);
    const holder = list.find((i) => i.id === row.assignee.itemId);
    // A holder removed from the collection meanwhile has no time left: due at once.
    const due = holder ? escalationDue(managerOf(holder), at, libPolicy(policy)) : now;
    const step: AssignmentStep = {
      itemId: row.assignee.itemId ?? '',
      name: row.assignee.name ?? '',
      from: at.toISOString(),
    };
    const inserted = await tx
      .insert(leadAssignments)
      .values({
        leadId: row.id,
        accountId: row.accountId,
        integrationId: row.integrationId,
        collectionId: row.collectionId,
        itemId: step.itemId,
        assignedAt: at,
        escalateAt: due,
        history: [step],
      })
      .onConflictDoNothing()
      .returning({ leadId: leadAssignments.leadId });
    enrolled += inserted.length;
  }
  return enrolled;
}

const leadLabel = (fields: { name?: string; phone?: string; email?: string } | null) =>
  fields?.name?.trim() || fields?.phone || fields?.email || '';

/** Due escalations: taken ones stop; the rest pass on, wait for someone to come on, or stay. */
async function passOn(
  tx: Executor,
  now: Date,
  items: ReturnType<typeof collectionReader>,
): Promise<{ passes: Pass[]; requeued: number }> {
  const due = await tx
    .select({
      a: leadAssignments,
      options: integrations.options,
      source: integrations.name,
      fields: leads.fields,
      taken: sql<boolean>`exists (select from ${leadReactions} r where r.lead_id = ${leadAssignments.leadId} and r.kind = 'taken')`,
    })
    .from(leadAssignments)
    .innerJoin(integrations, eq(integrations.id, leadAssignments.integrationId))
    .innerJoin(leads, eq(leads.id, leadAssignments.leadId))
    .where(and(isNotNull(leadAssignments.escalateAt), lte(leadAssignments.escalateAt, now)))
    .orderBy(leadAssignments.escalateAt)
    .limit(ESCALATION_BATCH)
    .for('update', { of: leadAssignments, skipLocked: true });
  const passes: Pass[] = [];
  let requeued = 0;
  for (const { a, options, source, fields, taken } of due) {
    const policy = policyOf(options);
    const list = await items(a.collectionId);
    const stop = () => tx.update(leadAssignments).set({ escalateAt: null }).where(eq(leadAssignments.leadId, a.leadId));
    // Taken, or the source no longer escalates (or its policy is unreadable): nothing more to do.
    if (taken || !policy || policy.escalateAfterMinutes === null || !list?.length) {
      await stop();
      continue;
    }
    const managers = list.map(managerOf);
    const given = a.history.map((h) => ({ managerId: h.itemId, at: new Date(h.from) }));
    const decision = escalate(managers, given, false, libPolicy(policy), now);
    if (decision.kind !== 'assign') {
      await tx
        .update(leadAssignments)
        .set({ escalateAt: decision.kind === 'wait' ? decision.until : null })
        .where(eq(leadAssignments.leadId, a.leadId));
      continue;
    }
    const to = list.find((i) => i.id === decision.to.id)!;
    const from = a.history.at(-1);
    const history: AssignmentStep[] = [
      ...a.history.slice(0, -1),
      ...(from ? [{ ...from, until: now.toISOString() }] : []),
      { itemId: to.id, name: to.name, from: now.toISOString() },
    ];
    await tx
      .update(leadAssignments)
      .set({ itemId: to.id, assignedAt: now, escalateAt: decision.escalateAt, passes: a.passes + 1, history })
      .where(eq(leadAssignments.leadId, a.leadId));
    const assignee: Assignee = { id: to.value, name: to.name, itemId: to.id };
    await tx.update(leads).set({ assignee }).where(eq(leads.id, a.leadId));
    requeued += (await redeliverLeadTo(tx, a.leadId, typesDeliveredToAssignee(), now)).length;
    passes.push({
      accountId: a.accountId,
      leadId: a.leadId,
      lead: leadLabel(fields),
      source,
      from: from?.name ?? '',
      to: to.name,
    });
  }
  return { passes, requeued };
}

/** One run of the escalation task at `now` (the tests give a fake clock). */
export async function runEscalations(tx: Executor, now: Date): Promise<EscalationRun> {
  const items = collectionReader(tx);
  const enrolled = await enrol(tx, now, items);
  const { passes, requeued } = await passOn(tx, now, items);
  return { enrolled, passes, requeued };
}

/** The owners to tell: each account's address and language, for the accounts with passes. */
export async function ownersOf(
  tx: Executor,
  accountIds: readonly string[],
): Promise<Map<string, { login: string; lang: Locale }>> {
  if (!accountIds.length) return new Map();
  const rows = await tx
    .select({ id: users.id, login: users.login, lang: users.lang })
    .from(users)
    .where(inArray(users.id, [...accountIds]));
  return new Map(rows.map((r) => [r.id, { login: r.login, lang: r.lang as Locale }]));
}
