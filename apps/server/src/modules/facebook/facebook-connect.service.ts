// Connecting a Facebook profile: POST /facebook/start (signed state + a cookie binding it to the
// browser) → Facebook Login → GET /facebook/callback (public) exchanges the code for a long-lived
// user token and stores the profile, its pages (page tokens) and ad accounts, sealed. The legacy JS
// SDK path (GET /api/legacy/api/facebook/accessToken) stores a code the same way for the signed-in account.
import { FB_SCOPES } from '@leadrelay/connectors';
import type { Locale } from '@leadrelay/shared';
import { and, eq, isNull } from 'drizzle-orm';
import { users } from '../../db/schema';
import { AppError } from '../../lib/app-error';
import { isBoundToBrowser, readOAuthState, screenUrl, signOAuthState } from '../../lib/oauth-state';
import { type FacebookDeps, graphFor } from './facebook-deps';
import { graphReason, markConnectionOk } from './facebook-health';
import { type Actor, type ConnectedProfile, upsertConnection } from './facebook-store';

const FLOW = 'facebook';
/**
 * Holds a hash of the state in the browser that started the login (httpOnly, path /facebook/callback):
 * a login link sent to someone else is refused, so nobody can connect their victim's pages to
 * their own account.
 */
export const FB_OAUTH_COOKIE = 'lr_fb_oauth';

export const callbackUrl = (deps: Pick<FacebookDeps, 'config'>) => `${deps.config.authHost}/facebook/callback`;

/** The login URL and the state binding the route sets as a cookie. */
export async function startAuth(
  deps: FacebookDeps,
  actor: Actor,
  locale: Locale = 'uk',
): Promise<{ authUrl: string; state: string }> {
  const graph = graphFor(deps);
  const state = await signOAuthState(deps.config.jwtSecret, FLOW, { accountId: actor.id, locale });
  return { authUrl: graph.loginUrl(callbackUrl(deps), state, FB_SCOPES), state };
}

export interface CallbackQuery {
  code?: string;
  state?: string;
  error?: string;
}

/**
 * Where the browser goes after Facebook: the connections screen (in the language the user started
 * in) with ?connected=<id> or ?error=<CODE>.
 */
export async function handleCallback(deps: FacebookDeps, query: CallbackQuery, binding?: string): Promise<string> {
  const read = await readOAuthState(deps.config.jwtSecret, FLOW, query.state);
  const url = new URL(screenUrl(deps.config.publicUrl, read?.locale ?? 'uk', '/admin/integrations/facebook'));
  if (!read || !isBoundToBrowser(query.state, binding)) {
    url.searchParams.set('error', 'OAUTH_STATE_INVALID');
  } else if (query.error || !query.code) {
    // error=access_denied: the person declined in the dialog.
    url.searchParams.set('error', 'OAUTH_EXCHANGE_FAILED');
  } else {
    try {
      url.searchParams.set('connected', await connectWithCode(deps, read.accountId, query.code, callbackUrl(deps)));
    } catch (error) {
      if (!(error instanceof AppError)) throw error;
      url.searchParams.set('error', error.code);
    }
  }
  return url.toString();
}

/** Legacy: a code the JS SDK got (its redirect URI, often empty) for the signed-in account. */
export async function connectWithSdkCode(
  deps: FacebookDeps,
  actor: Actor,
  code: string,
  redirectUri: string,
): Promise<{ connectionId: string }> {
  return { connectionId: await connectWithCode(deps, actor.id, code, redirectUri) };
}

/** code → short-lived → long-lived user token → profile, pages, ad accounts → stored; the connection id. */
async function connectWithCode(deps: FacebookDeps, accountId: string, code: string, redirectUri: string) {
  const graph = graphFor(deps);
  const [account] = await deps.db
    .select({ id: users.id })
    .from(users)
    .where(and(eq(users.id, accountId), isNull(users.deletedAt)));
  if (!account) throw new AppError('OAUTH_STATE_INVALID');

  let userToken: ConnectedProfile['userToken'];
  try {
    const short = await graph.exchangeCode(code, redirectUri);
    userToken = await graph.longLivedToken(short.accessToken);
  } catch (error) {
    deps.log.warn({ accountId, reason: graphReason(error) }, 'facebook code exchange failed');
    throw new AppError('OAUTH_EXCHANGE_FAILED');
  }
  let profile: ConnectedProfile;
  try {
    const [me, pages] = await Promise.all([graph.me(userToken.accessToken), graph.pages(userToken.accessToken)]);
    profile = { me, userToken, pages, adAccounts: await adAccountsOf(deps, graph, userToken.accessToken) };
  } catch (error) {
    throw new AppError('CONNECTION_FAILED', { message: graphReason(error) });
  }
  const { id, wasBroken } = await deps.db.transaction((tx) => upsertConnection(tx, deps.secrets, accountId, profile));
  if (wasBroken) await markConnectionOk(deps, id);
  return id;
}

/** Ad accounts are informative: without ads permissions the connection still works for lead forms. */
async function adAccountsOf(deps: FacebookDeps, graph: ReturnType<typeof graphFor>, token: string) {
  try {
    return await graph.adAccounts(token);
  } catch (error) {
    deps.log.warn({ reason: graphReason(error) }, 'facebook ad accounts not read');
    return null;
  }
}
