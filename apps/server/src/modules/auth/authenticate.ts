// Who is calling: the auth plugin and the real-time server ask this (app.ts hands it over).
import { isUserActive } from '@leadrelay/shared';
import type { Deps } from '../../config';
import type { UserRow } from '../../db/schema';
import type { AuthContext } from '../../plugins/auth';
import { findLiveUserById, toApiUser } from '../users';
import { findLiveSession } from './sessions.service';
import { verifyAccessToken } from './tokens';

/**
 * The signed-in user of an access token (JWT, live session, user not deleted), or null. HTTP
 * requests and real-time sockets are both checked here.
 */
export async function authenticateToken(deps: Deps, token: string | undefined): Promise<AuthContext | null> {
  if (!token) return null;
  const payload = await verifyAccessToken(deps.config.jwtSecret, token);
  if (!payload) return null;
  const session = await findLiveSession(deps.db, payload.sid);
  if (!session || session.userId !== payload.sub) return null;
  const user = await findLiveUserById(deps.db, payload.sub);
  return user ? { user, sessionId: session.id } : null;
}

/** An account may use routes that need it active: flag set, expDate today or later. */
export const isAccountActive = (user: UserRow): boolean => isUserActive(toApiUser(user));
