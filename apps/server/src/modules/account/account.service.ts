import type { AccountPatchBody, User } from '@leadrelay/shared';
import { sql } from 'drizzle-orm';
import type { Deps } from '../../config';
import { rowsOf } from '../../db/client';
import type { UserRow } from '../../db/schema';
import { AppError } from '../../lib/app-error';
import { hashPassword, verifyPassword } from '../../lib/password-hash';
import { clearTenantData, type TenantDataCleaner } from '../../lib/tenant-data';
import type { AuthContext } from '../../plugins/auth';
import { clearLoginFailures, revokeUserSessions } from '../auth';
import { apiUser, updateUser } from '../users';

async function requirePassword(user: UserRow, password: string): Promise<void> {
  if (!(await verifyPassword(password, user.passwordHash))) throw new AppError('WRONG_PASSWORD');
}

/**
 * The zone must be one PostgreSQL knows too (the day buckets are `at time zone` in SQL); the body's
 * schema already checked it with Intl. Names are matched exactly, so the stored spelling is the tz one.
 */
async function requireKnownZone(deps: Deps, zone: string): Promise<void> {
  const known = rowsOf(await deps.db.execute(sql`select 1 from pg_timezone_names where name = ${zone}`));
  if (known.length === 0) {
    throw new AppError('INVALID_TIME_ZONE', { errors: [{ field: 'timeZone', code: 'INVALID_TIME_ZONE' }] });
  }
}

export async function patchAccount(deps: Deps, user: UserRow, body: AccountPatchBody): Promise<User> {
  if (Object.keys(body).length === 0) return apiUser(deps.db, user);
  if (body.timeZone !== undefined) await requireKnownZone(deps, body.timeZone);
  return apiUser(deps.db, await updateUser(deps.db, user.id, body));
}

/** Changes the password and signs out every other session. */
export async function updatePassword(
  deps: Deps,
  { user, sessionId }: AuthContext,
  oldPassword: string,
  password: string,
): Promise<void> {
  await requirePassword(user, oldPassword);
  const passwordHash = await hashPassword(password);
  await deps.db.transaction(async (tx) => {
    await updateUser(tx, user.id, { passwordHash });
    await revokeUserSessions(tx, user.id, sessionId);
  });
}

/** Deletes the account's business data; profile and login stay. */
export async function clearAllData(
  deps: Deps,
  user: UserRow,
  password: string,
  cleaners: readonly TenantDataCleaner[],
): Promise<void> {
  await requirePassword(user, password);
  await deps.db.transaction((tx) => clearTenantData(tx, user.id, cleaners));
}

/** Soft-deletes the account: its login is free for a new sign-up, every session ends. */
export async function removeAccount(
  deps: Deps,
  user: UserRow,
  password: string,
  onRemove: readonly TenantDataCleaner[],
): Promise<void> {
  await requirePassword(user, password);
  await deps.db.transaction(async (tx) => {
    await updateUser(tx, user.id, { deletedAt: new Date() });
    await revokeUserSessions(tx, user.id);
    for (const cleaner of onRemove) await cleaner.clear(tx, user.id);
    await clearLoginFailures(tx, user.login);
  });
}
