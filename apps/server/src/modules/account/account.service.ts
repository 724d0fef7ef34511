import type { AccountPatchBody, User } from '@leadrelay/shared';
import type { Deps } from '../../config';
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

export async function patchAccount(deps: Deps, user: UserRow, body: AccountPatchBody): Promise<User> {
  if (Object.keys(body).length === 0) return apiUser(deps.db, user);
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
