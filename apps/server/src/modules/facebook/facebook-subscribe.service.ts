// Subscribing a page to leadgen webhooks: the app-level subscription (object page, field leadgen,
// our callback; Facebook verifies it with a GET to the callback during the call) when it is missing,
// then the page's subscribed_apps with the page token.
import { createHmac } from 'node:crypto';
import type { GraphClient } from '@leadrelay/connectors';
import { eq } from 'drizzle-orm';
import type { AppConfig } from '../../config';
import { fbPages } from '../../db/schema';
import { AppError } from '../../lib/app-error';
import { othersSubscribed } from './facebook.service';
import { type FacebookDeps, graphFor } from './facebook-deps';
import { graphReason, withConnection } from './facebook-health';
import { type Actor, ownConnection, ownPage, pageTokenOf } from './facebook-store';

/** Where Facebook posts leadgen events (the webhook receiver answers its GET verification too). */
export const facebookWebhookUrl = (config: Pick<AppConfig, 'publicUrl'>) => `${config.publicUrl}/api/facebook/webhook`;

/**
 * hub.verify_token of the app's subscription: FACEBOOK_VERIFY_TOKEN, else derived from the app
 * secret (stable across restarts and nodes); undefined while Facebook is not configured.
 */
export function facebookVerifyToken(config: Pick<AppConfig, 'facebook'>): string | undefined {
  const { verifyToken, appSecret } = config.facebook;
  if (verifyToken) return verifyToken;
  if (!appSecret) return undefined;
  return createHmac('sha256', appSecret).update('leadrelay:facebook-webhook-verify-token').digest('hex').slice(0, 40);
}

/**
 * The app-level subscription (object page, field leadgen, our callback). Asked of Facebook first, so
 * it is made once per app, and made again if someone removed it in the app's settings.
 */
async function ensureAppSubscription(deps: FacebookDeps, graph: GraphClient): Promise<void> {
  const callback = facebookWebhookUrl(deps.config);
  try {
    const existing = await graph.appSubscriptions();
    const done = existing.some(
      (s) => s.object === 'page' && s.active && s.callbackUrl === callback && s.fields.includes('leadgen'),
    );
    if (!done) await graph.subscribeApp(callback, facebookVerifyToken(deps.config)!);
  } catch (error) {
    const reason = graphReason(error);
    deps.log.error({ callback, reason }, 'facebook app webhook subscription failed');
    throw new AppError('CONNECTION_FAILED', { message: `Facebook did not accept the webhook ${callback}: ${reason}` });
  }
}

export async function subscribePage(deps: FacebookDeps, actor: Actor, connectionId: string, pageId: string) {
  const conn = await ownConnection(deps.db, actor, connectionId);
  const page = await ownPage(deps.db, conn, pageId);
  const graph = graphFor(deps);
  await ensureAppSubscription(deps, graph);
  await withConnection(deps, conn, () => graph.subscribePage(page.pageId, pageTokenOf(deps.secrets, page)));
  const now = new Date();
  await deps.db
    .update(fbPages)
    .set({ isSubscribed: true, subscribedAt: now, updatedAt: now })
    .where(eq(fbPages.id, page.id));
  return { success: true as const };
}

/** Takes our app off the page at Facebook, unless another connection still has it subscribed. */
export async function unsubscribePage(deps: FacebookDeps, actor: Actor, connectionId: string, pageId: string) {
  const conn = await ownConnection(deps.db, actor, connectionId);
  const page = await ownPage(deps.db, conn, pageId);
  const graph = graphFor(deps);
  if (!(await othersSubscribed(deps.db, page))) {
    await withConnection(deps, conn, () => graph.unsubscribePage(page.pageId, pageTokenOf(deps.secrets, page)));
  }
  await deps.db
    .update(fbPages)
    .set({ isSubscribed: false, subscribedAt: null, updatedAt: new Date() })
    .where(eq(fbPages.id, page.id));
  return { success: true as const };
}
