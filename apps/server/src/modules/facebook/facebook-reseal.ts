// After an encryption key rotation: user and page tokens sealed with ENCRYPTION_KEY_PREVIOUS are
// sealed again with the current key (a periodic task, like integrations' resealStoredAuth). Each
// update is conditional on the row still holding what was read, so a reconnect at the same moment wins.
import { eq, sql } from 'drizzle-orm';
import type { FastifyBaseLogger } from 'fastify';
import type { Executor } from '../../db/client';
import { fbConnections, fbPages } from '../../db/schema';
import { resealRows } from '../../lib/reseal';
import type { SecretBox } from '../../lib/secret-box';

export async function resealFacebookTokens(
  db: Executor,
  secrets: SecretBox,
  log?: FastifyBaseLogger,
): Promise<{ resealed: number; unreadable: number }> {
  const connections = await db
    .select({ id: fbConnections.id, token: fbConnections.userToken })
    .from(fbConnections)
    .where(sql`coalesce(${fbConnections.userToken}->>'kid', '') <> ${secrets.kid}`);
  const pages = await db
    .select({ id: fbPages.id, token: fbPages.pageToken })
    .from(fbPages)
    .where(sql`coalesce(${fbPages.pageToken}->>'kid', '') <> ${secrets.kid}`);
  const a = await resealRows(secrets, connections, async (row, token) => {
    const done = await db
      .update(fbConnections)
      .set({ userToken: token })
      .where(sql`${eq(fbConnections.id, row.id)} and ${fbConnections.userToken} = ${JSON.stringify(row.token)}::jsonb`)
      .returning({ id: fbConnections.id });
    return done.length;
  });
  const b = await resealRows(secrets, pages, async (row, token) => {
    const done = await db
      .update(fbPages)
      .set({ pageToken: token })
      .where(sql`${eq(fbPages.id, row.id)} and ${fbPages.pageToken} = ${JSON.stringify(row.token)}::jsonb`)
      .returning({ id: fbPages.id });
    return done.length;
  });
  const result = { resealed: a.resealed + b.resealed, unreadable: a.unreadable + b.unreadable };
  if (result.resealed)
    log?.info({ resealed: result.resealed }, 'facebook tokens sealed with the current encryption key');
  if (result.unreadable) {
    log?.error(
      { count: result.unreadable },
      'facebook tokens no configured key opens: check ENCRYPTION_KEY / ENCRYPTION_KEY_PREVIOUS',
    );
  }
  return result;
}
