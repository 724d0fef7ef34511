// The operator's clients screen (spec 6, 7 "Super admin"; docs/operator.md): counters, the list,
// creating an account, statistics and changes. Every change is audited in its own transaction.
import {
  type Client,
  type ClientListQuery,
  type ClientPatchBody,
  type ClientStatistic,
  type CreateClientBody,
  generatePassword,
  isUserActive,
  type Role,
  toCents,
  type UserCounters,
} from '@leadrelay/shared';
import { and, asc, count, desc, eq, gte, ilike, isNotNull, isNull, max, or, type SQL, sql } from 'drizzle-orm';
import { DateTime } from 'luxon';
import type { Deps } from '../../config';
import type { Executor } from '../../db/client';
import { deliveries, integrations, leads, plans, sessions, type UserRow, users } from '../../db/schema';
import { AppError } from '../../lib/app-error';
import { hashPassword } from '../../lib/password-hash';
import { type AuditActor, recordAudit } from '../audit';
import { dateAfterDays, insertUser, toApiUser, updateUser } from '../users';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
const today = () => new Date().toISOString().slice(0, 10);

/** Live, and active by spec 4: flag set, no expDate or expDate today or later. */
const activeSql = sql`(${users.deletedAt} is null and ${users.active} and (${users.expDate} is null or ${users.expDate} >= ${today()}::date))`;

export async function userCounters(db: Executor): Promise<UserCounters> {
  const [row] = await db
    .select({
      total: count(),
      active: sql<number>`count(*) filter (where ${activeSql})`.mapWith(Number),
      deleted: sql<number>`count(*) filter (where ${users.deletedAt} is not null)`.mapWith(Number),
    })
    .from(users);
  const total = row?.total ?? 0;
  const active = row?.active ?? 0;
  const deleted = row?.deleted ?? 0;
  return { total, active, inactive: total - active - deleted, deleted };
}

function toClient(row: UserRow, planTitle: { uk: string; en: string } | null, lang: 'uk' | 'en' = 'uk'): Client {
  const user = toApiUser(row);
  return {
    ...user,
    isActive: row.deletedAt === null && isUserActive(user),
    planTitle: planTitle ? planTitle[lang] : null,
    deletedAt: row.deletedAt?.toISOString() ?? null,
  };
}

const SORTS = {
  createdAt: asc(users.createdAt),
  '-createdAt': desc(users.createdAt),
  login: asc(users.login),
  '-login': desc(users.login),
  expDate: sql`${users.expDate} asc nulls last`,
  '-expDate': sql`${users.expDate} desc nulls last`,
} as const;

export async function listClients(db: Executor, query: ClientListQuery, lang: 'uk' | 'en') {
  const conditions: SQL[] = [];
  if (query.search) {
    const pattern = `%${query.search.replace(/[\\%_]/g, '\\$&')}%`;
    conditions.push(
      or(
        ilike(users.login, pattern),
        ilike(users.name, pattern),
        ilike(users.company, pattern),
        ilike(users.phone, pattern),
        // An account's id finds it too (the /admin/user page, an audit entry's target).
        ...(UUID.test(query.search) ? [eq(users.id, query.search)] : []),
      ) as SQL,
    );
  }
  if (query.status === 'deleted') conditions.push(isNotNull(users.deletedAt));
  if (query.status === 'active') conditions.push(activeSql);
  if (query.status === 'inactive') conditions.push(and(isNull(users.deletedAt), sql`not ${activeSql}`) as SQL);
  if (query.plan === 'demo') conditions.push(isNull(users.planId));
  else if (query.plan) conditions.push(eq(users.planId, query.plan));
  if (query.role) conditions.push(eq(users.role, query.role));
  const where = conditions.length ? and(...conditions) : undefined;
  const [rows, [total], counter] = await Promise.all([
    db
      .select({ user: users, planTitle: plans.title })
      .from(users)
      .leftJoin(plans, eq(plans.id, users.planId))
      .where(where)
      .orderBy(SORTS[query.sort], asc(users.id))
      .limit(query.limit)
      .offset((query.page - 1) * query.limit),
    db.select({ n: count() }).from(users).where(where),
    userCounters(db),
  ]);
  return { data: rows.map((r) => toClient(r.user, r.planTitle, lang)), total: total?.n ?? 0, counter };
}

export async function findUserRow(db: Executor, id: string): Promise<UserRow | undefined> {
  const [row] = await db.select().from(users).where(eq(users.id, id)).limit(1);
  return row;
}

/** A live account, or USER_NOT_FOUND. */
export async function liveTarget(db: Executor, id: string): Promise<UserRow> {
  const row = await findUserRow(db, id);
  if (!row || row.deletedAt) throw new AppError('USER_NOT_FOUND');
  return row;
}

const isStaff = (role: Role) => role !== 'client';

/**
 * Who may act on whom (docs/operator.md): nobody changes, enters or deletes the owner from the
 * app; only the owner acts on staff accounts (admin, support); nobody acts on their own account here.
 */
export function assertCanManage(actor: UserRow, target: UserRow): void {
  if (target.role === 'owner' || target.id === actor.id) throw new AppError('USER_PROTECTED');
  if (isStaff(target.role) && actor.role !== 'owner') throw new AppError('USER_PROTECTED');
}

/** Only the owner grants or takes staff roles; nobody grants owner. */
function assertCanGrant(actor: UserRow, role: Role): void {
  if (role === 'owner') throw new AppError('USER_PROTECTED');
  if (isStaff(role) && actor.role !== 'owner') throw new AppError('USER_PROTECTED');
}

async function planTitleOf(db: Executor, planId: string | null) {
  if (!planId) return null;
  const [plan] = await db.select({ title: plans.title }).from(plans).where(eq(plans.id, planId)).limit(1);
  return plan?.title ?? null;
}

export async function createClient(
  deps: Deps,
  actor: UserRow,
  audit: AuditActor,
  body: Required<CreateClientBody>,
): Promise<{ user: Client; password: string }> {
  assertCanGrant(actor, body.role);
  const password = generatePassword();
  const passwordHash = await hashPassword(password);
  return deps.db.transaction(async (tx) => {
    const [taken] = await tx
      .select({ id: users.id })
      .from(users)
      .where(and(eq(users.login, body.login), isNull(users.deletedAt)))
      .limit(1);
    if (taken) throw new AppError('LOGIN_TAKEN');
    const row = await insertUser(tx, {
      login: body.login,
      passwordHash,
      role: body.role,
      lang: body.lang,
      // Staff never expire; a client starts its demo like a sign-up.
      expDate: body.role === 'client' ? dateAfterDays(deps.config.demoDays) : null,
      // The operator vouches for the address: the account can sign in at once.
      emailConfirmedAt: new Date(),
    });
    await recordAudit(tx, audit, {
      action: 'user.create',
      targetType: 'user',
      targetId: row.id,
      targetLabel: row.login,
      details: { role: body.role },
    });
    return { user: toClient(row, null), password };
  });
}

export async function patchClient(
  deps: Deps,
  actor: UserRow,
  audit: AuditActor,
  id: string,
  body: ClientPatchBody,
  lang: 'uk' | 'en',
): Promise<Client> {
  return deps.db.transaction(async (tx) => {
    const target = await liveTarget(tx, id);
    assertCanManage(actor, target);
    if (body.role !== undefined && body.role !== target.role) assertCanGrant(actor, body.role);
    const values: Partial<UserRow> = {};
    const changes: Record<string, [unknown, unknown]> = {};
    const change = <K extends keyof UserRow>(field: K, name: string, value: UserRow[K], shown = value) => {
      if (target[field] === value) return;
      values[field] = value;
      // own-keys: `name` is one of this function's literals
      changes[name] = [field === 'creditCents' ? target.creditCents / 100 : target[field], shown];
    };
    if (body.active !== undefined) change('active', 'active', body.active);
    if (body.expDate !== undefined) change('expDate', 'expDate', body.expDate);
    if (body.role !== undefined) change('role', 'role', body.role);
    if (body.credit !== undefined) change('creditCents', 'credit', toCents(body.credit), body.credit);
    if (body.plan !== undefined) {
      if (body.plan && !(await planTitleOf(tx, body.plan))) throw new AppError('PLAN_NOT_FOUND');
      change('planId', 'plan', body.plan);
    }
    if (Object.keys(values).length === 0) return toClient(target, await planTitleOf(tx, target.planId), lang);
    const row = await updateUser(tx, target.id, values);
    await recordAudit(tx, audit, {
      action: 'user.update',
      targetType: 'user',
      targetId: row.id,
      targetLabel: row.login,
      details: changes,
    });
    return toClient(row, await planTitleOf(tx, row.planId), lang);
  });
}

/**
 * The last `days` days of one account: leads per day, integrations, deliveries, last activity. The
 * days are the account's own (its time zone), as its dashboard counts them.
 */
export async function clientStatistic(db: Executor, id: string, days = 30): Promise<ClientStatistic> {
  const target = await findUserRow(db, id);
  if (!target) throw new AppError('USER_NOT_FOUND');
  const first = DateTime.now()
    .setZone(target.timeZone)
    .startOf('day')
    .minus({ days: days - 1 });
  const start = first.toJSDate();
  const day = sql<string>`to_char(${leads.createdAt} at time zone ${target.timeZone}, 'YYYY-MM-DD')`;
  const [perDay, [integrationsRow], [deliveriesRow], [lastLead], [lastSession]] = await Promise.all([
    db
      .select({ date: day, n: count() })
      .from(leads)
      .where(and(eq(leads.accountId, id), gte(leads.createdAt, start)))
      // By position: a second copy of `day` would bind the zone again, a different expression to PostgreSQL.
      .groupBy(sql`1`),
    db
      .select({
        total: count(),
        active: sql<number>`count(*) filter (where ${integrations.active})`.mapWith(Number),
        broken: sql<number>`count(*) filter (where ${integrations.status} = 'broken')`.mapWith(Number),
      })
      .from(integrations)
      .where(eq(integrations.accountId, id)),
    db
      .select({
        delivered: sql<number>`count(*) filter (where ${deliveries.status} = 'delivered')`.mapWith(Number),
        failed: sql<number>`count(*) filter (where ${deliveries.status} = 'failed')`.mapWith(Number),
        pending: sql<number>`count(*) filter (where ${deliveries.status} in ('pending', 'running', 'held'))`.mapWith(
          Number,
        ),
      })
      .from(deliveries)
      .where(and(eq(deliveries.accountId, id), gte(deliveries.createdAt, start))),
    db
      .select({ at: max(leads.createdAt) })
      .from(leads)
      .where(eq(leads.accountId, id)),
    // Only the account's own sign-ins: a staff member entering it is not its activity.
    db
      .select({ at: max(sessions.lastUsedAt) })
      .from(sessions)
      .where(and(eq(sessions.userId, id), isNull(sessions.impersonatorId))),
  ]);
  const counts = new Map(perDay.map((r) => [r.date, r.n]));
  const leadsPerDay = Array.from({ length: days }, (_, i) => {
    const date = first.plus({ days: i }).toISODate()!;
    return { date, count: counts.get(date) ?? 0 };
  });
  const delivered = deliveriesRow?.delivered ?? 0;
  const failed = deliveriesRow?.failed ?? 0;
  const last = [lastLead?.at, lastSession?.at].filter((d): d is Date => d instanceof Date);
  return {
    leadsPerDay,
    leadsTotal: leadsPerDay.reduce((sum, d) => sum + d.count, 0),
    integrations: {
      total: integrationsRow?.total ?? 0,
      active: integrationsRow?.active ?? 0,
      broken: integrationsRow?.broken ?? 0,
    },
    deliveries: {
      delivered,
      failed,
      pending: deliveriesRow?.pending ?? 0,
      successRate: delivered + failed > 0 ? Math.round((delivered / (delivered + failed)) * 1000) / 10 : null,
    },
    lastActivity: last.length ? new Date(Math.max(...last.map((d) => d.getTime()))).toISOString() : null,
  };
}
