// integrations.auth at rest: sealed with the app's SecretBox, bound to the row's id. Rows written
// before encryption existed hold plain JSON: they are read as they are and sealed by resealStoredAuth
// (a periodic task), which also moves rows sealed with ENCRYPTION_KEY_PREVIOUS to the current key.
import { and, eq, sql } from 'drizzle-orm';
import type { FastifyBaseLogger } from 'fastify';
import type { Executor } from '../db/client';
import { type IntegrationRow, integrations } from '../db/schema';
import { AppError } from '../lib/app-error';
import { type SealedSecret, type SecretBox, SecretUnreadableError } from '../lib/secret-box';

/** The credentials in clear; a row no configured key opens is INTEGRATION_AUTH_UNREADABLE. */
export function readAuth(secrets: SecretBox, row: Pick<IntegrationRow, 'id' | 'auth'>): Record<string, unknown> {
  if (row.auth === null) return {};
  try {
    return secrets.open(row.auth, row.id);
  } catch (error) {
    if (error instanceof SecretUnreadableError) throw new AppError('INTEGRATION_AUTH_UNREADABLE');
    throw error;
  }
}

/**
 * When stored OAuth credentials stop working unless used: now plus the connector's refresh-token
 * lifetime, for credentials that hold a refresh token; null otherwise (an API key, no known end).
 */
export function credentialExpiry(
  connector: { oauth?: { refreshTokenLifetimeDays?: number } } | undefined,
  auth: Record<string, unknown>,
  now = new Date(),
): Date | null {
  const days = connector?.oauth?.refreshTokenLifetimeDays;
  if (!days || typeof auth.refreshToken !== 'string') return null;
  return new Date(now.getTime() + days * 86_400_000);
}

/** What connect stores: an envelope, or null when there is nothing secret (not connected). */
export function sealAuth(secrets: SecretBox, id: string, auth: Record<string, unknown>): SealedSecret | null {
  return Object.keys(auth).length === 0 ? null : secrets.seal(auth, id);
}

/**
 * Seals plaintext rows and re-seals rows sealed with a previous key. Each update is conditional on
 * the row still holding what was read, so a connect at the same moment wins. Rows no key opens are
 * counted and left alone: an operator may still add the key they were sealed with.
 */
export async function resealStoredAuth(
  db: Executor,
  secrets: SecretBox,
  log?: FastifyBaseLogger,
): Promise<{ resealed: number; unreadable: number }> {
  const rows = await db
    .select({ id: integrations.id, auth: integrations.auth })
    .from(integrations)
    .where(
      and(
        sql`${integrations.auth} is not null`,
        sql`${integrations.auth} <> '{}'::jsonb`,
        sql`coalesce(${integrations.auth}->>'kid', '') <> ${secrets.kid}`,
      ),
    );
  let resealed = 0;
  const unreadable: string[] = [];
  for (const row of rows) {
    if (!secrets.needsReseal(row.auth)) continue;
    let plain: Record<string, unknown>;
    try {
      plain = secrets.open(row.auth, row.id);
    } catch (error) {
      if (!(error instanceof SecretUnreadableError)) throw error;
      unreadable.push(row.id);
      continue;
    }
    const updated = await db
      .update(integrations)
      .set({ auth: secrets.seal(plain, row.id) })
      .where(and(eq(integrations.id, row.id), sql`${integrations.auth} = ${JSON.stringify(row.auth)}::jsonb`))
      .returning({ id: integrations.id });
    resealed += updated.length;
  }
  if (resealed) log?.info({ resealed }, 'integration credentials sealed with the current encryption key');
  if (unreadable.length) {
    log?.error(
      { integrationIds: unreadable.slice(0, 20), count: unreadable.length },
      'integration credentials no configured key opens: check ENCRYPTION_KEY / ENCRYPTION_KEY_PREVIOUS',
    );
  }
  return { resealed, unreadable: unreadable.length };
}
