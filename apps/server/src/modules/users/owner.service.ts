import { email, fieldErrors, password as passwordRule } from '@leadrelay/shared';
import { z } from 'zod';
import type { Executor } from '../../db/client';
import { hashPassword } from '../../lib/password-hash';
import { findLiveUserByLogin, findOwner, insertUser, updateUser } from './users.service';

const ZOwnerInput = z.object({ login: email(), password: passwordRule() });

export class OwnerInputError extends Error {}

/** Checks the login and password with the sign-up rules; throws with the failing keys. */
export function parseOwnerInput(input: { login?: string; password?: string }): { login: string; password: string } {
  const parsed = ZOwnerInput.safeParse(input);
  if (!parsed.success) {
    const problems = fieldErrors(parsed.error).map((e) => `${e.field}: ${e.code}`);
    throw new OwnerInputError(`Invalid owner ${problems.join(', ')}`);
  }
  return parsed.data;
}

/**
 * Makes `login` the owner: creates the account, or sets an existing one's password and role.
 * An owner is confirmed and never expires.
 */
export async function upsertOwner(
  db: Executor,
  input: { login: string; password: string },
): Promise<{ created: boolean; id: string }> {
  const { login, password } = parseOwnerInput(input);
  const passwordHash = await hashPassword(password);
  const existing = await findLiveUserByLogin(db, login);
  if (existing) {
    await updateUser(db, existing.id, {
      passwordHash,
      role: 'owner',
      active: true,
      expDate: null,
      emailConfirmedAt: existing.emailConfirmedAt ?? new Date(),
    });
    return { created: false, id: existing.id };
  }
  const user = await insertUser(db, {
    login,
    passwordHash,
    role: 'owner',
    lang: 'uk',
    expDate: null,
    emailConfirmedAt: new Date(),
  });
  return { created: true, id: user.id };
}

/** At start-up: OWNER_LOGIN/OWNER_PASSWORD create the owner only while there is none. */
export async function ensureOwner(
  db: Executor,
  input: { login: string; password: string },
): Promise<'created' | 'exists'> {
  if (await findOwner(db)) return 'exists';
  await upsertOwner(db, input);
  return 'created';
}
