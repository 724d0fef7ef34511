// Tariff plans: not tenant data (every account sees the same list); only privileged users change
// them. Prices are kept in whole cents and shown in dollars.
import type { Plan, PlanBody, PlanLimits, PlanLimitsResponse, PlanPatch } from '@leadrelay/shared';
import { DEMO_PLAN_LIMITS, toCents } from '@leadrelay/shared';
import { and, asc, count, desc, eq, max, sql } from 'drizzle-orm';
import type { Executor } from '../../db/client';
import { integrations, leadUsage, type PlanRow, plans, seeds, type UserRow, users } from '../../db/schema';
import { AppError } from '../../lib/app-error';
import { isUuid } from '../../lib/ids';
import { PLANS_SEED, SEED_PLANS } from './plans.seed';

/** Who acts, with the plan whose limits apply. */
export type PlanActor = Pick<UserRow, 'id' | 'planId'>;
type Actor = PlanActor;

const toDollars = (cents: number) => cents / 100;

const toPlan = (row: PlanRow): Plan => ({
  _id: row.id,
  title: row.title,
  monthlyAmount: toDollars(row.monthlyCents),
  annualAmount: toDollars(row.annualCents),
  active: row.active,
  limits: row.limits,
  createdAt: row.createdAt.toISOString(),
  updatedAt: row.updatedAt.toISOString(),
});

const trimmed = (title: { uk: string; en: string }) => ({ uk: title.uk.trim(), en: title.en.trim() });

/**
 * Inserts the shipped plans on the database's first start only: the `seeds` row and the plans go
 * in one transaction, and a second node starting at the same time waits on that row and then
 * skips. Once seeded, never again, so a plan an operator deleted does not come back.
 */
export async function seedPlans(db: Executor): Promise<boolean> {
  return db.transaction(async (tx) => {
    const [first] = await tx
      .insert(seeds)
      .values({ name: PLANS_SEED })
      .onConflictDoNothing({ target: seeds.name })
      .returning({ name: seeds.name });
    if (!first) return false;
    await tx.insert(plans).values(SEED_PLANS.map((p) => ({ ...p })));
    return true;
  });
}

/** Active plans first, each group cheapest first (spec 3 "Plan"). */
export async function listPlans(db: Executor): Promise<Plan[]> {
  const rows = await db
    .select()
    .from(plans)
    .orderBy(desc(plans.active), asc(plans.annualCents), asc(plans.monthlyCents), asc(plans.createdAt));
  return rows.map(toPlan);
}

async function planRow(db: Executor, id: string): Promise<PlanRow> {
  if (!isUuid(id)) throw new AppError('PLAN_NOT_FOUND');
  const [row] = await db.select().from(plans).where(eq(plans.id, id));
  if (!row) throw new AppError('PLAN_NOT_FOUND');
  return row;
}

export async function createPlan(db: Executor, body: PlanBody): Promise<Plan> {
  const [row] = await db
    .insert(plans)
    .values({
      title: trimmed(body.title),
      monthlyCents: toCents(body.monthlyAmount),
      annualCents: toCents(body.annualAmount),
      limits: body.limits,
      active: body.active ?? true,
    })
    .returning();
  return toPlan(row!);
}

export async function updatePlan(db: Executor, id: string, body: PlanPatch): Promise<Plan> {
  if (!isUuid(id)) throw new AppError('PLAN_NOT_FOUND');
  const [row] = await db
    .update(plans)
    .set({
      ...(body.title ? { title: trimmed(body.title) } : {}),
      ...(body.monthlyAmount !== undefined ? { monthlyCents: toCents(body.monthlyAmount) } : {}),
      ...(body.annualAmount !== undefined ? { annualCents: toCents(body.annualAmount) } : {}),
      ...(body.limits ? { limits: body.limits } : {}),
      updatedAt: new Date(),
    })
    .where(eq(plans.id, id))
    .returning();
  if (!row) throw new AppError('PLAN_NOT_FOUND');
  return toPlan(row);
}

/** Switches a plan on or off (spec 4 "Plan"); works for a plan in use too. */
export async function togglePlan(db: Executor, id: string): Promise<Plan> {
  if (!isUuid(id)) throw new AppError('PLAN_NOT_FOUND');
  const [row] = await db
    .update(plans)
    .set({ active: sql`not ${plans.active}`, updatedAt: new Date() })
    .where(eq(plans.id, id))
    .returning();
  if (!row) throw new AppError('PLAN_NOT_FOUND');
  return toPlan(row);
}

const FOREIGN_KEY_VIOLATION = '23503';

function isForeignKeyViolation(error: unknown): boolean {
  for (let e: unknown = error; e; e = (e as { cause?: unknown }).cause) {
    if ((e as { code?: unknown }).code === FOREIGN_KEY_VIOLATION) return true;
  }
  return false;
}

/**
 * A plan some account has (soft-deleted accounts included: they keep their row) is refused with
 * PLAN_IN_USE; switch it off instead. The foreign key answers the same when an account takes the
 * plan between the check and the delete.
 */
export async function deletePlan(db: Executor, id: string): Promise<void> {
  await planRow(db, id);
  const [user] = await db.select({ id: users.id }).from(users).where(eq(users.planId, id)).limit(1);
  if (user) throw new AppError('PLAN_IN_USE');
  try {
    await db.delete(plans).where(eq(plans.id, id));
  } catch (error) {
    if (isForeignKeyViolation(error)) throw new AppError('PLAN_IN_USE');
    throw error;
  }
}

/** The limits of the account's plan; DEMO_PLAN_LIMITS in the demo (or when its plan is gone). */
async function limitsOf(db: Executor, actor: Pick<Actor, 'planId'>): Promise<PlanLimits> {
  if (!actor.planId) return DEMO_PLAN_LIMITS;
  const [plan] = await db.select({ limits: plans.limits }).from(plans).where(eq(plans.id, actor.planId));
  return plan?.limits ?? DEMO_PLAN_LIMITS;
}

/**
 * Refuses one more integration past the plan (PLAN_LIMIT_INTEGRATIONS). Run it in the transaction
 * that inserts: it locks the account's row first, so two creates at once cannot both pass.
 */
export async function assertRoomForIntegration(tx: Executor, actor: Actor): Promise<void> {
  await tx.select({ id: users.id }).from(users).where(eq(users.id, actor.id)).for('update');
  const { integrations: limit } = await limitsOf(tx, actor);
  if (limit === null) return;
  const [row] = await tx.select({ n: count() }).from(integrations).where(eq(integrations.accountId, actor.id));
  if ((row?.n ?? 0) >= limit) throw new AppError('PLAN_LIMIT_INTEGRATIONS');
}

/**
 * Refuses a source's destination list that grows past the plan (PLAN_LIMIT_DESTINATIONS). A list
 * that does not grow passes, so an account on a smaller plan can still edit what it has.
 */
export async function assertRoomForDestinations(
  db: Executor,
  actor: Actor,
  before: number,
  after: number,
): Promise<void> {
  if (after <= before) return;
  const { destinationsPerSource: limit } = await limitsOf(db, actor);
  if (limit !== null && after > limit) throw new AppError('PLAN_LIMIT_DESTINATIONS');
}

/** The first day of the current UTC month, as lead_usage.month stores it. */
const monthOf = (now: Date) =>
  new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), 1)).toISOString().slice(0, 10);

/**
 * The account's limits (its plan's; DEMO_PLAN_LIMITS without a plan) and what it uses now. The
 * integration limits are enforced where integrations are created (assertRoomFor…); the monthly
 * leads by ingest, which holds the leads past it (docs/adr/008-held-leads.md). `leadsThisMonth` is
 * what ingest counted against the limit: this month's leads that were not held.
 */
export async function accountLimits(db: Executor, actor: Actor, now = new Date()): Promise<PlanLimitsResponse> {
  const limits = await limitsOf(db, actor);
  const [[leadCount], [integrationStats]] = await Promise.all([
    db
      .select({ n: sql<number>`coalesce(sum(${leadUsage.leads}), 0)::int` })
      .from(leadUsage)
      .where(and(eq(leadUsage.accountId, actor.id), eq(leadUsage.month, monthOf(now)))),
    db
      .select({
        n: count(),
        // Sources keep their destinations' ids in order; a destination's list is empty.
        widest: max(sql<number>`jsonb_array_length(${integrations.destinationIds})`),
      })
      .from(integrations)
      .where(eq(integrations.accountId, actor.id)),
  ]);
  return {
    planId: actor.planId,
    demo: !actor.planId,
    limits,
    usage: {
      leadsThisMonth: leadCount?.n ?? 0,
      integrations: integrationStats?.n ?? 0,
      destinationsPerSource: Number(integrationStats?.widest ?? 0),
    },
  };
}
