// Account API keys (issue 34): made and revoked by a person signed in, used as
// `Authorization: Bearer lr_<prefix>_<secret>`. Only the SHA-256 of a key is stored; a request's key
// is looked up by that hash on every request, so a revoke holds at once in every process.
import { createHash, randomBytes, randomInt, timingSafeEqual } from 'node:crypto';
import {
  API_KEY_PATTERN,
  API_KEYS_PER_ACCOUNT,
  type ApiKey,
  type ApiKeyScope,
  type CreateApiKeyBody,
  type CreatedApiKey,
} from '@leadrelay/shared';
import { and, count, desc, eq, isNull, lt, or, sql } from 'drizzle-orm';
import type { Db, Executor } from '../../db/client';
import { type ApiKeyRow, apiKeys, sessions, type UserRow, users } from '../../db/schema';
import { AppError } from '../../lib/app-error';
import { type AuditActor, recordAudit } from '../audit';

/** Who a key is: what the auth plugin, the audit log and the MCP server are told. */
export interface ApiKeyPrincipal {
  keyId: string;
  keyName: string;
  scope: ApiKeyScope;
  accountId: string;
  /** The key's account, the same object a signed-in request's services take. */
  actor: UserRow;
}

/** last_used_at is written at most this often per key. */
export const LAST_USED_EVERY_MS = 60_000;
/** Longer than any key: a huge header is refused before it is hashed. */
const MAX_KEY_LENGTH = 100;
const ALPHANUMERIC = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789';

export const hashKey = (key: string): string => createHash('sha256').update(key).digest('base64url');

/** A new key: `lr_` + 8 letters and digits + `_` + 32 random bytes (base64url). */
export function newKey(): { key: string; prefix: string } {
  let id = '';
  for (let i = 0; i < 8; i++) id += ALPHANUMERIC[randomInt(ALPHANUMERIC.length)];
  const prefix = `lr_${id}`;
  return { key: `${prefix}_${randomBytes(32).toString('base64url')}`, prefix };
}

const toApiKey = (row: ApiKeyRow): ApiKey => ({
  id: row.id,
  name: row.name,
  scope: row.scope,
  prefix: row.prefix,
  createdAt: row.createdAt.toISOString(),
  lastUsedAt: row.lastUsedAt?.toISOString() ?? null,
});

/** The account's live keys, newest first; never a secret (only its hash is stored). */
export async function listApiKeys(db: Executor, actor: Pick<UserRow, 'id'>) {
  const rows = await db
    .select()
    .from(apiKeys)
    .where(and(eq(apiKeys.accountId, actor.id), isNull(apiKeys.revokedAt)))
    .orderBy(desc(apiKeys.createdAt), desc(apiKeys.id));
  return { data: rows.map(toApiKey), total: rows.length, max: API_KEYS_PER_ACCOUNT };
}

function isUniqueViolation(error: unknown): boolean {
  for (let e: unknown = error; e; e = (e as { cause?: unknown }).cause) {
    if ((e as { code?: unknown }).code === '23505') return true;
  }
  return false;
}

/** A session a staff member entered (super-admin "enter as"): it may not leave a lasting key behind. */
async function isEnteredSession(db: Executor, sessionId: string): Promise<boolean> {
  if (!sessionId) return false;
  const [row] = await db
    .select({ impersonatorId: sessions.impersonatorId })
    .from(sessions)
    .where(eq(sessions.id, sessionId));
  return !!row?.impersonatorId;
}

/**
 * Makes a key and answers it in full, this once. At most API_KEYS_PER_ACCOUNT live keys, names
 * unique among them; the count is checked under a per-account lock so two requests at once cannot
 * both take the last place. The creation is in the audit log, in the same transaction.
 */
export async function createApiKey(
  db: Db,
  actor: UserRow,
  sessionId: string,
  audit: AuditActor,
  body: CreateApiKeyBody,
): Promise<CreatedApiKey> {
  if (await isEnteredSession(db, sessionId)) throw new AppError('API_KEY_ENTERED_SESSION');
  const { key, prefix } = newKey();
  try {
    return await db.transaction(async (tx) => {
      await tx.execute(sql`select pg_advisory_xact_lock(hashtext('api_keys'), hashtext(${actor.id}::text))`);
      const [live] = await tx
        .select({ n: count() })
        .from(apiKeys)
        .where(and(eq(apiKeys.accountId, actor.id), isNull(apiKeys.revokedAt)));
      if ((live?.n ?? 0) >= API_KEYS_PER_ACCOUNT) throw new AppError('API_KEYS_LIMIT');
      const [row] = await tx
        .insert(apiKeys)
        .values({
          accountId: actor.id,
          name: body.name,
          scope: body.scope,
          prefix,
          keyHash: hashKey(key),
          createdBy: actor.id,
        })
        .returning();
      await recordAudit(tx, audit, {
        action: 'api-key.create',
        targetType: 'api-key',
        targetId: row!.id,
        targetLabel: row!.name,
        details: { scope: row!.scope, prefix: row!.prefix },
      });
      return { ...toApiKey(row!), key };
    });
  } catch (error) {
    if (isUniqueViolation(error)) throw new AppError('API_KEY_NAME_TAKEN');
    throw error;
  }
}

/** Revokes one of the account's live keys at once; another account's id, or a revoked one, is 404. */
export async function revokeApiKey(db: Db, actor: Pick<UserRow, 'id'>, audit: AuditActor, id: string): Promise<void> {
  await db.transaction(async (tx) => {
    const [row] = await tx
      .update(apiKeys)
      .set({ revokedAt: new Date() })
      .where(and(eq(apiKeys.id, id), eq(apiKeys.accountId, actor.id), isNull(apiKeys.revokedAt)))
      .returning();
    if (!row) throw new AppError('API_KEY_NOT_FOUND');
    await recordAudit(tx, audit, {
      action: 'api-key.revoke',
      targetType: 'api-key',
      targetId: row.id,
      targetLabel: row.name,
      details: { scope: row.scope, prefix: row.prefix },
    });
  });
}

/**
 * The key a bearer names, or null: malformed, unknown, revoked, or its account removed. Looked up
 * by hash on every call (no cache a revoke could outlive); last_used_at is written at most once a
 * minute per key.
 */
export async function authenticateApiKey(db: Executor, bearer: string): Promise<ApiKeyPrincipal | null> {
  if (typeof bearer !== 'string' || bearer.length > MAX_KEY_LENGTH) return null;
  const match = API_KEY_PATTERN.exec(bearer);
  if (!match) return null;
  const hash = hashKey(bearer);
  const [found] = await db
    .select({ key: apiKeys, user: users })
    .from(apiKeys)
    .innerJoin(users, eq(users.id, apiKeys.accountId))
    .where(and(eq(apiKeys.keyHash, hash), isNull(apiKeys.revokedAt), isNull(users.deletedAt)));
  if (!found) return null;
  const { key, user } = found;
  // The index found it by hash; the stored hash and prefix are checked again, in constant time.
  const stored = Buffer.from(key.keyHash);
  const given = Buffer.from(hash);
  if (stored.length !== given.length || !timingSafeEqual(stored, given) || key.prefix !== `lr_${match[1]}`) {
    return null;
  }
  const now = new Date();
  if (!key.lastUsedAt || now.getTime() - key.lastUsedAt.getTime() >= LAST_USED_EVERY_MS) {
    const before = new Date(now.getTime() - LAST_USED_EVERY_MS);
    await db
      .update(apiKeys)
      .set({ lastUsedAt: now })
      .where(and(eq(apiKeys.id, key.id), or(isNull(apiKeys.lastUsedAt), lt(apiKeys.lastUsedAt, before))));
  }
  return { keyId: key.id, keyName: key.name, scope: key.scope, accountId: user.id, actor: user };
}
