// "Enter as a user" (docs/operator.md, ADR 001). The staff member's call makes the entered session
// and a one-time code for it; `/enter?code=` exchanges the code for the session's access token. The
// code lives a minute, is stored only as a hash (the session's token hash until the exchange), works
// once, and only for the person who asked: the exchange must come with their own session (refresh
// cookie or access token). A forwarded or planted link signs nobody in.
import { isPrivileged } from '@leadrelay/shared';
import { and, eq, gt, isNotNull, isNull } from 'drizzle-orm';
import type { Deps } from '../../config';
import type { Executor } from '../../db/client';
import { sessions, type UserRow } from '../../db/schema';
import { AppError } from '../../lib/app-error';
import { findLiveUserById } from '../users';
import { authenticateToken } from './authenticate';
import { findLiveSession, parseRefreshToken } from './sessions.service';
import { randomToken, sha256, signImpersonationToken } from './tokens';

/** How long an /enter link works. */
export const ENTER_CODE_SECONDS = 60;
/** How long an entered session lasts: no refresh token, so it simply ends. */
export const ENTER_SESSION_MINUTES = 30;

// Its own hash, so a code never passes for a refresh token of the same session.
const codeHash = (secret: string) => sha256(`enter:${secret}`);

/**
 * The entered session, not usable until its code is exchanged: its own sessions row marked with
 * who opened it (the web shows a banner, the client's sessions list shows it), no refresh cookie.
 */
export async function issueEnterCode(
  db: Executor,
  target: UserRow,
  actor: UserRow,
  client: { userAgent: string; ip: string },
): Promise<{ code: string; sessionId: string; expiresAt: Date }> {
  const secret = randomToken();
  const now = new Date();
  const expiresAt = new Date(now.getTime() + ENTER_CODE_SECONDS * 1000);
  const [session] = await db
    .insert(sessions)
    .values({
      userId: target.id,
      tokenHash: codeHash(secret),
      userAgent: client.userAgent.slice(0, 512),
      ip: client.ip,
      createdAt: now,
      lastUsedAt: now,
      expiresAt,
      impersonatorId: actor.id,
      impersonatorLogin: actor.login,
    })
    .returning({ id: sessions.id });
  return { code: `${session!.id}.${secret}`, sessionId: session!.id, expiresAt };
}

/** Who the caller is by their own session: the refresh cookie's, and the access token's. */
async function callerIds(deps: Deps, caller: { refreshCookie?: string; bearer?: string }): Promise<Set<string>> {
  const ids = new Set<string>();
  const parsed = parseRefreshToken(caller.refreshCookie);
  const session = parsed && (await findLiveSession(deps.db, parsed.sessionId));
  if (session && !session.impersonatorId) {
    const hash = sha256(parsed.secret);
    if (hash === session.tokenHash || hash === session.previousHash) ids.add(session.userId);
  }
  const auth = await authenticateToken(deps, caller.bearer);
  if (auth) ids.add(auth.user.id);
  return ids;
}

/** The code for the entered session's access token; TOKEN_INVALID or ENTER_OTHER_BROWSER otherwise. */
export async function exchangeEnterCode(
  deps: Deps,
  code: string,
  caller: { refreshCookie?: string; bearer?: string },
): Promise<{ accessToken: string }> {
  const parsed = parseRefreshToken(code);
  if (!parsed) throw new AppError('TOKEN_INVALID');
  const hash = codeHash(parsed.secret);
  const now = new Date();
  const open = and(
    eq(sessions.id, parsed.sessionId),
    eq(sessions.tokenHash, hash),
    isNotNull(sessions.impersonatorId),
    isNull(sessions.revokedAt),
    gt(sessions.expiresAt, now),
  );
  const [pending] = await deps.db.select().from(sessions).where(open).limit(1);
  if (!pending?.impersonatorId) throw new AppError('TOKEN_INVALID');
  if (!(await callerIds(deps, caller)).has(pending.impersonatorId)) throw new AppError('ENTER_OTHER_BROWSER');
  // Both still as they were when the code was made: a live staff member, a live client account.
  const [actor, target] = [
    await findLiveUserById(deps.db, pending.impersonatorId),
    await findLiveUserById(deps.db, pending.userId),
  ];
  if (!actor || !isPrivileged(actor.role) || !target || target.role !== 'client') throw new AppError('TOKEN_INVALID');

  // Single use: the code's hash gives way to one nobody holds, in the statement that opens the session.
  const expiresAt = new Date(now.getTime() + ENTER_SESSION_MINUTES * 60_000);
  const [entered] = await deps.db
    .update(sessions)
    .set({ tokenHash: sha256(randomToken()), expiresAt, lastUsedAt: now })
    .where(open)
    .returning({ id: sessions.id });
  if (!entered) throw new AppError('TOKEN_INVALID');
  return {
    accessToken: await signImpersonationToken(deps.config.jwtSecret, target, entered.id, actor.login, expiresAt),
  };
}
