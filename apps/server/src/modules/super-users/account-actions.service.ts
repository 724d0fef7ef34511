// The operator's actions on one account (docs/operator.md): enter it, mail a password reset,
// delete softly or for good, and sweep rows whose account is gone. Each is audited in the
// transaction that does it.
import type { EnterSession } from '@leadrelay/shared';
import { and, eq, isNotNull, isNull, sql } from 'drizzle-orm';
import type { Deps } from '../../config';
import { type Executor, rowsOf } from '../../db/client';
import { sessions, type UserRow, users } from '../../db/schema';
import { AppError } from '../../lib/app-error';
import { operatorResetPasswordMail } from '../../lib/mail/templates';
import { clearTenantData, type TenantDataCleaner } from '../../lib/tenant-data';
import { type AuditActor, recordAudit } from '../audit';
import {
  clearLoginFailures,
  createEmailToken,
  ENTER_SESSION_MINUTES,
  issueEnterCode,
  revokeUserSessions,
} from '../auth';
import { updateUser } from '../users';
import { assertCanManage, findUserRow, liveTarget } from './super-users.service';

/**
 * "Enter as a user": the entered session and the one-time code of its /enter link (which only this
 * staff member can use, within ENTER_CODE_SECONDS; modules/auth/enter.service.ts).
 */
export async function enterAs(
  deps: Deps,
  actor: UserRow,
  audit: AuditActor,
  id: string,
  client: { userAgent: string; ip: string },
): Promise<EnterSession> {
  return deps.db.transaction(async (tx) => {
    const target = await liveTarget(tx, id);
    assertCanManage(actor, target);
    // Staff accounts are never entered, not even by the owner: their session would carry staff rights.
    if (target.role !== 'client') throw new AppError('USER_PROTECTED');
    const { code, sessionId, expiresAt } = await issueEnterCode(tx, target, actor, client);
    await recordAudit(tx, audit, {
      action: 'user.enter',
      targetType: 'user',
      targetId: target.id,
      targetLabel: target.login,
      details: { sessionId, minutes: ENTER_SESSION_MINUTES },
    });
    return { code, login: target.login, expiresAt: expiresAt.toISOString() };
  });
}

/**
 * "Return": ends an entered session from inside it, leaving the browser's refresh cookie (the
 * staff member's own) alone, and records it in the staff member's name.
 */
export async function leaveEntered(
  deps: Deps,
  auth: { user: UserRow; sessionId: string },
  client: { userAgent: string | null; ip: string | null },
): Promise<void> {
  await deps.db.transaction(async (tx) => {
    const [session] = await tx
      .update(sessions)
      .set({ revokedAt: new Date() })
      .where(and(eq(sessions.id, auth.sessionId), isNotNull(sessions.impersonatorId), isNull(sessions.revokedAt)))
      .returning();
    if (!session?.impersonatorId) throw new AppError('SESSION_NOT_FOUND');
    await recordAudit(
      tx,
      { actorId: session.impersonatorId, actorLogin: session.impersonatorLogin ?? '', ...client },
      {
        action: 'user.leave',
        targetType: 'user',
        targetId: auth.user.id,
        targetLabel: auth.user.login,
        details: { sessionId: session.id },
      },
    );
  });
}

const localePrefix = (lang: 'uk' | 'en') => (lang === 'en' ? '/en' : '');

/** Mails the account a link to set a new password (the operator never learns it). */
export async function resetPassword(deps: Deps, actor: UserRow, audit: AuditActor, id: string): Promise<void> {
  const target = await deps.db.transaction(async (tx) => {
    const row = await liveTarget(tx, id);
    assertCanManage(actor, row);
    const token = await createEmailToken(tx, row.id, 'reset');
    await recordAudit(tx, audit, {
      action: 'user.reset-password',
      targetType: 'user',
      targetId: row.id,
      targetLabel: row.login,
    });
    return { row, token };
  });
  const link = `${deps.config.publicUrl}${localePrefix(target.row.lang)}/password/${encodeURIComponent(target.token)}`;
  const mail = await operatorResetPasswordMail({ lang: target.row.lang, publicUrl: deps.config.publicUrl }, link);
  await deps.mailer.send({ to: target.row.login, ...mail });
}

/** Soft delete, as the account's own "remove account": login freed, sessions ended, data kept. */
export async function softDelete(
  deps: Deps,
  actor: UserRow,
  audit: AuditActor,
  id: string,
  onRemove: readonly TenantDataCleaner[],
): Promise<void> {
  await deps.db.transaction(async (tx) => {
    const target = await liveTarget(tx, id);
    assertCanManage(actor, target);
    await updateUser(tx, target.id, { deletedAt: new Date() });
    await revokeUserSessions(tx, target.id);
    for (const cleaner of onRemove) await cleaner.clear(tx, target.id);
    await clearLoginFailures(tx, target.login);
    await recordAudit(tx, audit, {
      action: 'user.delete',
      targetType: 'user',
      targetId: target.id,
      targetLabel: target.login,
    });
  });
}

/** Columns that name an account by a conventional name but have no foreign key to users. */
async function looseAccountColumns(db: Executor): Promise<{ table: string; column: string }[]> {
  const result = await db.execute(sql`
    select cl.relname as "table", a.attname as "column"
    from pg_attribute a
    join pg_class cl on cl.oid = a.attrelid
    join pg_namespace n on n.oid = cl.relnamespace
    where n.nspname = current_schema() and cl.relkind = 'r' and a.attnum > 0 and not a.attisdropped
      and a.atttypid = 'uuid'::regtype and a.attname in ('account_id', 'user_id')
      and cl.relname <> 'audit_log'
      and not exists (
        select 1 from pg_constraint co
        where co.conrelid = cl.oid and co.contype = 'f' and a.attnum = any (co.conkey)
      )
    order by 1, 2`);
  return rowsOf<{ table: string; column: string }>(result);
}

/**
 * Everything the account owns, for good: the modules' cleaners (the tenant-data registry), then
 * the users row, whose foreign keys cascade to every table that references it; tables that name
 * the account without a foreign key are swept by column name. The audit log keeps its entries.
 * The typed login must match: a slip of the mouse cannot do this.
 */
export async function hardDelete(
  deps: Deps,
  actor: UserRow,
  audit: AuditActor,
  id: string,
  confirm: string,
  cleaners: readonly TenantDataCleaner[],
): Promise<{ removed: string }> {
  return deps.db.transaction(async (tx) => {
    const target = await findUserRow(tx, id);
    if (!target) throw new AppError('USER_NOT_FOUND');
    assertCanManage(actor, target);
    if (confirm.trim().toLowerCase() !== target.login.toLowerCase()) throw new AppError('CONFIRMATION_MISMATCH');
    await clearTenantData(tx, target.id, cleaners);
    for (const { table, column } of await looseAccountColumns(tx)) {
      await tx.execute(sql`delete from ${sql.identifier(table)} where ${sql.identifier(column)} = ${target.id}`);
    }
    // Accounts it referred stay, no longer pointing at it.
    await tx.update(users).set({ referredBy: null }).where(eq(users.referredBy, target.id));
    await tx.delete(users).where(eq(users.id, target.id));
    await recordAudit(tx, audit, {
      action: 'user.hard-delete',
      targetType: 'user',
      targetId: target.id,
      targetLabel: target.login,
      details: { wasDeleted: target.deletedAt !== null, role: target.role },
    });
    return { removed: target.id };
  });
}

/**
 * Rows whose account no longer exists. Tables with a foreign key to users cannot have any (it
 * cascades); this sweeps the ones that name an account without one, and referral links to a
 * removed account. Answers what it removed, per table.column.
 */
export async function removeOrphans(
  deps: Deps,
  audit: AuditActor,
): Promise<{ removed: Record<string, number>; total: number }> {
  return deps.db.transaction(async (tx) => {
    const removed: Record<string, number> = {};
    for (const { table, column } of await looseAccountColumns(tx)) {
      const result = await tx.execute(sql`
        delete from ${sql.identifier(table)} t
        where t.${sql.identifier(column)} is not null
          and not exists (select 1 from ${users} u where u.id = t.${sql.identifier(column)})
        returning 1`);
      const n = rowsOf(result).length;
      if (n) removed[`${table}.${column}`] = n; // own-keys: our schema's names
    }
    const referred = await tx.execute(sql`
      update ${users} set referred_by = null
      where referred_by is not null and not exists (select 1 from ${users} r where r.id = ${users.referredBy})
      returning 1`);
    if (rowsOf(referred).length) removed['users.referred_by'] = rowsOf(referred).length;
    const total = Object.values(removed).reduce((a, b) => a + b, 0);
    await recordAudit(tx, audit, { action: 'user.orphans', targetType: 'database', details: { removed, total } });
    return { removed, total };
  });
}
