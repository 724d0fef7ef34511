// The fb_connections, fb_pages and fb_ad_accounts rows: reading them scoped to the account,
// opening their sealed tokens and writing what Facebook answered (connect, refresh).
import { randomUUID } from 'node:crypto';
import type { GraphPage } from '@leadrelay/connectors';
import { and, asc, eq, inArray, notInArray } from 'drizzle-orm';
import type { Executor } from '../../db/client';
import {
  type FbConnectionRow,
  type FbPageRow,
  fbAdAccounts,
  fbConnections,
  fbPages,
  type UserRow,
} from '../../db/schema';
import { AppError } from '../../lib/app-error';
import { isUuid } from '../../lib/ids';
import { type SecretBox, SecretUnreadableError } from '../../lib/secret-box';

export type Actor = Pick<UserRow, 'id'>;

// ---- Reading (another account's ids: 404) ----

export async function ownConnection(db: Executor, actor: Actor, connectionId: string): Promise<FbConnectionRow> {
  if (!isUuid(connectionId)) throw new AppError('FB_CONNECTION_NOT_FOUND');
  const [row] = await db
    .select()
    .from(fbConnections)
    .where(and(eq(fbConnections.id, connectionId), eq(fbConnections.accountId, actor.id)));
  if (!row) throw new AppError('FB_CONNECTION_NOT_FOUND');
  return row;
}

export async function ownPage(db: Executor, conn: FbConnectionRow, pageId: string): Promise<FbPageRow> {
  const [row] = await db
    .select()
    .from(fbPages)
    .where(and(eq(fbPages.connectionId, conn.id), eq(fbPages.accountId, conn.accountId), eq(fbPages.pageId, pageId)));
  if (!row) throw new AppError('FB_PAGE_NOT_FOUND');
  return row;
}

export async function pagesOf(db: Executor, connectionIds: string[]): Promise<FbPageRow[]> {
  if (connectionIds.length === 0) return [];
  return db
    .select()
    .from(fbPages)
    .where(inArray(fbPages.connectionId, connectionIds))
    .orderBy(asc(fbPages.name), asc(fbPages.pageId));
}

// ---- Tokens (sealed { accessToken }, bound to the row id) ----

const seal = (secrets: SecretBox, id: string, accessToken: string) => secrets.seal({ accessToken }, id);

function open(secrets: SecretBox, stored: unknown, id: string): string {
  try {
    const token = secrets.open(stored, id).accessToken;
    if (typeof token === 'string' && token) return token;
  } catch (error) {
    if (!(error instanceof SecretUnreadableError)) throw error;
  }
  throw new AppError('INTEGRATION_AUTH_UNREADABLE');
}

export const userTokenOf = (secrets: SecretBox, conn: Pick<FbConnectionRow, 'id' | 'userToken'>) =>
  open(secrets, conn.userToken, conn.id);
export const pageTokenOf = (secrets: SecretBox, page: Pick<FbPageRow, 'id' | 'pageToken'>) =>
  open(secrets, page.pageToken, page.id);

// ---- Writing what Facebook answered ----

export interface ConnectedProfile {
  me: { id: string; name: string; email?: string };
  userToken: { accessToken: string; expiresIn?: number };
  pages: GraphPage[];
  /** null: not read (no ads permission); the stored ones stay. */
  adAccounts: { id: string; name: string }[] | null;
}

/**
 * Inserts the connection, or updates the account's connection of the same Facebook user (new
 * token, status ok), then writes its pages and ad accounts. Runs in the caller's transaction.
 */
export async function upsertConnection(
  tx: Executor,
  secrets: SecretBox,
  accountId: string,
  profile: ConnectedProfile,
): Promise<{ id: string; wasBroken: boolean }> {
  const now = new Date();
  const expiresAt = profile.userToken.expiresIn ? new Date(now.getTime() + profile.userToken.expiresIn * 1000) : null;
  const fields = { name: profile.me.name, email: profile.me.email ?? null, tokenExpiresAt: expiresAt, updatedAt: now };
  const newId = randomUUID();
  const [inserted] = await tx
    .insert(fbConnections)
    .values({
      id: newId,
      accountId,
      fbUserId: profile.me.id,
      userToken: seal(secrets, newId, profile.userToken.accessToken),
      ...fields,
    })
    .onConflictDoNothing({ target: [fbConnections.accountId, fbConnections.fbUserId] })
    .returning({ id: fbConnections.id });
  let id = inserted?.id;
  let wasBroken = false;
  if (!id) {
    const [existing] = await tx
      .select({ id: fbConnections.id, status: fbConnections.status })
      .from(fbConnections)
      .where(and(eq(fbConnections.accountId, accountId), eq(fbConnections.fbUserId, profile.me.id)))
      .for('update');
    if (!existing) throw new Error('facebook connection vanished during reconnect');
    id = existing.id;
    wasBroken = existing.status === 'broken';
    // The status goes back to ok through markConnectionOk (it also tells the integrations).
    await tx
      .update(fbConnections)
      .set({ ...fields, userToken: seal(secrets, id, profile.userToken.accessToken) })
      .where(eq(fbConnections.id, id));
  }
  await syncPages(tx, secrets, { id, accountId }, profile.pages);
  if (profile.adAccounts) await syncAdAccounts(tx, { id, accountId }, profile.adAccounts);
  return { id, wasBroken };
}

/** Makes the connection's pages what Facebook listed: new ones added, tokens renewed, gone ones removed. */
export async function syncPages(
  tx: Executor,
  secrets: SecretBox,
  conn: { id: string; accountId: string },
  pages: GraphPage[],
): Promise<void> {
  const listed = pages.filter((p) => p.id && p.accessToken);
  const existing = await tx
    .select({ id: fbPages.id, pageId: fbPages.pageId })
    .from(fbPages)
    .where(eq(fbPages.connectionId, conn.id));
  const idByPage = new Map(existing.map((p) => [p.pageId, p.id]));
  const now = new Date();
  for (const page of listed) {
    const values = { name: page.name, category: page.category ?? null, updatedAt: now };
    const rowId = idByPage.get(page.id);
    if (rowId) {
      await tx
        .update(fbPages)
        .set({ ...values, pageToken: seal(secrets, rowId, page.accessToken) })
        .where(eq(fbPages.id, rowId));
    } else {
      const id = randomUUID();
      await tx.insert(fbPages).values({
        id,
        accountId: conn.accountId,
        connectionId: conn.id,
        pageId: page.id,
        pageToken: seal(secrets, id, page.accessToken),
        ...values,
      });
    }
  }
  const keep = listed.map((p) => p.id);
  await tx
    .delete(fbPages)
    .where(and(eq(fbPages.connectionId, conn.id), keep.length ? notInArray(fbPages.pageId, keep) : undefined));
}

async function syncAdAccounts(
  tx: Executor,
  conn: { id: string; accountId: string },
  adAccounts: { id: string; name: string }[],
): Promise<void> {
  const listed = adAccounts.filter((a) => a.id);
  for (const ad of listed) {
    await tx
      .insert(fbAdAccounts)
      .values({ accountId: conn.accountId, connectionId: conn.id, adAccountId: ad.id, name: ad.name })
      .onConflictDoUpdate({ target: [fbAdAccounts.connectionId, fbAdAccounts.adAccountId], set: { name: ad.name } });
  }
  const keep = listed.map((a) => a.id);
  await tx
    .delete(fbAdAccounts)
    .where(
      and(eq(fbAdAccounts.connectionId, conn.id), keep.length ? notInArray(fbAdAccounts.adAccountId, keep) : undefined),
    );
}
