import { REFRESH_TOKEN_TTL_DAYS, type Session } from '@leadrelay/shared';
import { and, desc, eq, gt, isNull, ne } from 'drizzle-orm';
import type { Executor } from '../../db/client';
import { type SessionRow, sessions } from '../../db/schema';
import { randomToken, sha256 } from './tokens';

const DAY_MS = 86_400_000;
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
export const isUuid = (value: string): boolean => UUID.test(value);

export interface ClientInfo {
  userAgent: string;
  ip: string;
}

const expiry = (now: Date) => new Date(now.getTime() + REFRESH_TOKEN_TTL_DAYS * DAY_MS);

/** The refresh cookie is `${sessionId}.${secret}`; only the secret's hash is stored. */
export function parseRefreshToken(value: string | undefined): { sessionId: string; secret: string } | null {
  if (!value || value.length > 200) return null;
  const dot = value.indexOf('.');
  const sessionId = value.slice(0, dot);
  const secret = value.slice(dot + 1);
  if (dot < 0 || !isUuid(sessionId) || secret.length < 16) return null;
  return { sessionId, secret };
}

export async function createSession(
  db: Executor,
  userId: string,
  client: ClientInfo,
): Promise<{ session: SessionRow; refreshToken: string }> {
  const secret = randomToken();
  const now = new Date();
  const [session] = await db
    .insert(sessions)
    .values({
      userId,
      tokenHash: sha256(secret),
      userAgent: client.userAgent.slice(0, 512),
      ip: client.ip,
      createdAt: now,
      lastUsedAt: now,
      expiresAt: expiry(now),
    })
    .returning();
  return { session: session!, refreshToken: `${session!.id}.${secret}` };
}

export type RefreshResult =
  | { kind: 'rotated'; session: SessionRow; refreshToken: string }
  /** The token the last rotation replaced, presented within the grace window: no new cookie. */
  | { kind: 'grace'; session: SessionRow }
  | { kind: 'reused' }
  | { kind: 'invalid' };

/**
 * Rotates the refresh token. A token older than the current one means it was copied: the whole
 * session is revoked (reuse detection), except the immediately previous token within the grace
 * window, which two tabs refreshing at once both present.
 */
export async function refreshSession(
  db: Executor,
  cookie: string | undefined,
  graceMs: number,
): Promise<RefreshResult> {
  const parsed = parseRefreshToken(cookie);
  if (!parsed) return { kind: 'invalid' };
  const now = new Date();
  let session = await findSession(db, parsed.sessionId);
  // An entered session (a staff member's, see enter.service.ts) is never refreshed.
  if (!session || session.revokedAt || session.expiresAt <= now || session.impersonatorId) return { kind: 'invalid' };
  const hash = sha256(parsed.secret);

  if (hash === session.tokenHash) {
    const secret = randomToken();
    // Conditional on the old hash, so of two simultaneous refreshes only one rotates.
    const [rotated] = await db
      .update(sessions)
      .set({ tokenHash: sha256(secret), previousHash: hash, rotatedAt: now, lastUsedAt: now, expiresAt: expiry(now) })
      .where(and(eq(sessions.id, session.id), eq(sessions.tokenHash, hash), isNull(sessions.revokedAt)))
      .returning();
    if (rotated) return { kind: 'rotated', session: rotated, refreshToken: `${rotated.id}.${secret}` };
    session = await findSession(db, parsed.sessionId);
    if (!session || session.revokedAt) return { kind: 'invalid' };
  }

  if (hash === session.previousHash && session.rotatedAt && now.getTime() - session.rotatedAt.getTime() <= graceMs) {
    return { kind: 'grace', session };
  }

  await revokeSession(db, session.id);
  return { kind: 'reused' };
}

export async function findSession(db: Executor, id: string): Promise<SessionRow | undefined> {
  if (!isUuid(id)) return undefined;
  const [row] = await db.select().from(sessions).where(eq(sessions.id, id)).limit(1);
  return row;
}

/** A session that can still authorise requests. */
export async function findLiveSession(db: Executor, id: string): Promise<SessionRow | undefined> {
  const row = await findSession(db, id);
  if (!row || row.revokedAt || row.expiresAt <= new Date()) return undefined;
  return row;
}

export async function revokeSession(db: Executor, id: string): Promise<void> {
  await db
    .update(sessions)
    .set({ revokedAt: new Date() })
    .where(and(eq(sessions.id, id), isNull(sessions.revokedAt)));
}

export async function revokeUserSessions(db: Executor, userId: string, exceptId?: string): Promise<void> {
  const conditions = [eq(sessions.userId, userId), isNull(sessions.revokedAt)];
  if (exceptId) conditions.push(ne(sessions.id, exceptId));
  await db
    .update(sessions)
    .set({ revokedAt: new Date() })
    .where(and(...conditions));
}

/** Revokes one of the user's own sessions; false when the id is not theirs. */
export async function revokeOwnSession(db: Executor, userId: string, id: string): Promise<boolean> {
  if (!isUuid(id)) return false;
  const [row] = await db
    .select({ id: sessions.id })
    .from(sessions)
    .where(and(eq(sessions.id, id), eq(sessions.userId, userId), gt(sessions.expiresAt, new Date())))
    .limit(1);
  if (!row) return false;
  await revokeSession(db, id);
  return true;
}

export async function listSessions(
  db: Executor,
  userId: string,
  currentId: string,
): Promise<{ data: Session[]; total: number }> {
  const rows = await db
    .select()
    .from(sessions)
    .where(and(eq(sessions.userId, userId), gt(sessions.expiresAt, new Date())))
    .orderBy(desc(sessions.createdAt));
  const data = rows.map((s) => ({
    id: s.id,
    isRevoked: s.revokedAt !== null,
    isCurrent: s.id === currentId,
    createdAt: s.createdAt.toISOString(),
    lastUsedAt: s.lastUsedAt.toISOString(),
    userAgent: s.userAgent,
    ip: s.ip,
  }));
  return { data, total: data.length };
}
