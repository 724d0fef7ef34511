// Connections, their "accounts" (the connected profile and the pages it manages), lead forms and
// pictures (spec 7 "Social-network lead forms"). Everything is scoped to the actor's account.
import type { GraphForm } from '@leadrelay/connectors';
import type { FbAccount, FbConnection, FbLeadForm, FbPage, FbPageItem } from '@leadrelay/shared';
import { and, asc, eq, ne } from 'drizzle-orm';
import type { Executor } from '../../db/client';
import { type FbConnectionRow, type FbPageRow, fbConnections, fbPages } from '../../db/schema';
import { AppError } from '../../lib/app-error';
import { type FacebookDeps, graphFor } from './facebook-deps';
import { graphReason, withConnection } from './facebook-health';
import { type Actor, ownConnection, ownPage, pagesOf, pageTokenOf, syncPages, userTokenOf } from './facebook-store';

export const toPage = (p: FbPageRow): FbPage => ({
  id: p.pageId,
  name: p.name,
  category: p.category,
  isSubscribed: p.isSubscribed,
});

export const toForm = (f: GraphForm): FbLeadForm => ({
  id: f.id,
  name: f.name,
  status: f.status,
  locale: f.locale ?? null,
  questions: f.questions.map((q) => ({ key: q.key, label: q.label ?? q.key, type: q.type })),
});

function toConnection(row: FbConnectionRow, pages: FbPageRow[]): FbConnection {
  return {
    _id: row.id,
    fbUserId: row.fbUserId,
    name: row.name,
    ...(row.email ? { email: row.email } : {}),
    status: row.status,
    statusReason: row.statusReason,
    expiresAt: row.tokenExpiresAt?.toISOString() ?? null,
    createdAt: row.createdAt.toISOString(),
    pages: pages.filter((p) => p.connectionId === row.id).map(toPage),
  };
}

export async function listConnections(db: Executor, actor: Actor): Promise<FbConnection[]> {
  const rows = await db
    .select()
    .from(fbConnections)
    .where(eq(fbConnections.accountId, actor.id))
    .orderBy(asc(fbConnections.createdAt), asc(fbConnections.id));
  const pages = await pagesOf(
    db,
    rows.map((r) => r.id),
  );
  return rows.map((r) => toConnection(r, pages));
}

/** Reads the profile's pages from Facebook again (new pages, renewed page tokens, removed pages). */
export async function refreshPages(deps: FacebookDeps, conn: FbConnectionRow): Promise<void> {
  const graph = graphFor(deps);
  const pages = await withConnection(deps, conn, () => graph.pages(userTokenOf(deps.secrets, conn)));
  await deps.db.transaction((tx) => syncPages(tx, deps.secrets, conn, pages));
}

/** The spec's "accounts" of a connection: its Facebook profile with the pages it manages. */
export async function listAccounts(
  deps: FacebookDeps,
  actor: Actor,
  connectionId: string,
  refresh = false,
): Promise<FbAccount[]> {
  const conn = await ownConnection(deps.db, actor, connectionId);
  if (refresh) await refreshPages(deps, conn);
  const pages = await pagesOf(deps.db, [conn.id]);
  return [{ id: conn.fbUserId, name: conn.name, pages: pages.map(toPage) }];
}

export async function listPages(db: Executor, actor: Actor, connectionId: string): Promise<FbPage[]> {
  const conn = await ownConnection(db, actor, connectionId);
  return (await pagesOf(db, [conn.id])).map(toPage);
}

async function formsOf(deps: FacebookDeps, conn: FbConnectionRow, page: FbPageRow) {
  const graph = graphFor(deps);
  const token = pageTokenOf(deps.secrets, page);
  return withConnection(deps, conn, () =>
    Promise.all([graph.leadForms(page.pageId, token), graph.isPageSubscribed(page.pageId, token)]),
  );
}

/** A page's state: subscribed or not, and its lead forms live from Facebook. */
export async function pageState(deps: FacebookDeps, actor: Actor, connectionId: string, pageId: string) {
  const conn = await ownConnection(deps.db, actor, connectionId);
  const page = await ownPage(deps.db, conn, pageId);
  const [forms, atFacebook] = await formsOf(deps, conn, page);
  let isSubscribed = page.isSubscribed;
  // Removed at Facebook (e.g. in the page's settings): no webhooks come, so show it unsubscribed.
  // Not the other way round: another account's subscription of the same page is not ours.
  if (isSubscribed && !atFacebook) {
    await deps.db
      .update(fbPages)
      .set({ isSubscribed: false, subscribedAt: null, updatedAt: new Date() })
      .where(eq(fbPages.id, page.id));
    isSubscribed = false;
  }
  return { id: page.pageId, name: page.name, isSubscribed, leadForms: forms.map(toForm) };
}

export async function leadForms(deps: FacebookDeps, actor: Actor, connectionId: string, pageId: string) {
  return (await pageState(deps, actor, connectionId, pageId)).leadForms;
}

/** The caller's connection (by Facebook user id) or page (by page id) with the token to read its picture. */
async function pictureOwner(deps: FacebookDeps, actor: Actor, objectId: string) {
  const [conn] = await deps.db
    .select()
    .from(fbConnections)
    .where(and(eq(fbConnections.accountId, actor.id), eq(fbConnections.fbUserId, objectId)))
    .limit(1);
  if (conn) return { conn, token: () => userTokenOf(deps.secrets, conn) };
  const [row] = await deps.db
    .select({ page: fbPages, conn: fbConnections })
    .from(fbPages)
    .innerJoin(fbConnections, eq(fbConnections.id, fbPages.connectionId))
    .where(and(eq(fbPages.accountId, actor.id), eq(fbPages.pageId, objectId)))
    .limit(1);
  if (!row) throw new AppError('FB_PAGE_NOT_FOUND');
  return { conn: row.conn, token: () => pageTokenOf(deps.secrets, row.page) };
}

/** The picture URL of the caller's Facebook profile or page, asked of Facebook once per 2 hours per id. */
export async function accountPicture(
  deps: FacebookDeps,
  actor: Actor,
  objectId: string,
): Promise<{ url: string | null }> {
  const owner = await pictureOwner(deps, actor, objectId);
  const cached = deps.pictures.get(objectId);
  if (cached !== undefined) return { url: cached };
  const graph = graphFor(deps);
  const url = await withConnection(deps, owner.conn, () => graph.picture(objectId, owner.token()));
  deps.pictures.set(objectId, url);
  return { url };
}

/** Page rows of other connections (any account) that keep our app subscribed on the same page. */
export async function othersSubscribed(db: Executor, page: FbPageRow): Promise<boolean> {
  const [other] = await db
    .select({ id: fbPages.id })
    .from(fbPages)
    .where(and(eq(fbPages.pageId, page.pageId), eq(fbPages.isSubscribed, true), ne(fbPages.id, page.id)))
    .limit(1);
  return !!other;
}

/**
 * Removes the connection with its pages and ad accounts. Our app is taken off its subscribed pages
 * at Facebook when no other connection still uses them (best effort). Facebook integrations that
 * used it stay, not connected, until they are moved to another connection.
 */
export async function deleteConnection(deps: FacebookDeps, actor: Actor, connectionId: string) {
  const conn = await ownConnection(deps.db, actor, connectionId);
  const pages = await pagesOf(deps.db, [conn.id]);
  const subscribed = pages.filter((p) => p.isSubscribed);
  if (subscribed.length && deps.config.facebook.appId && deps.config.facebook.appSecret) {
    const graph = graphFor(deps);
    for (const page of subscribed) {
      if (await othersSubscribed(deps.db, page)) continue;
      try {
        await graph.unsubscribePage(page.pageId, pageTokenOf(deps.secrets, page));
      } catch (error) {
        deps.log.warn(
          { connectionId, pageId: page.pageId, reason: graphReason(error) },
          'facebook page not unsubscribed',
        );
      }
    }
  }
  await deps.db.delete(fbConnections).where(and(eq(fbConnections.id, conn.id), eq(fbConnections.accountId, actor.id)));
  return { success: true as const };
}

/** What the integration form's page picker lists: every page of every connection of the account. */
export async function pageItems(db: Executor, actor: Actor): Promise<FbPageItem[]> {
  const rows = await db
    .select({ page: fbPages, conn: fbConnections })
    .from(fbPages)
    .innerJoin(fbConnections, eq(fbConnections.id, fbPages.connectionId))
    .where(eq(fbPages.accountId, actor.id))
    .orderBy(asc(fbConnections.name), asc(fbConnections.createdAt), asc(fbPages.name), asc(fbPages.pageId));
  return rows.map(({ page, conn }) => ({
    connectionId: conn.id,
    connectionName: conn.name,
    pageId: page.pageId,
    pageName: page.name,
    isSubscribed: page.isSubscribed,
  }));
}
