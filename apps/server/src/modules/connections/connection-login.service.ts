// Logging in to a connector's service: POST <start> (signed state + a cookie binding it to the
// browser) → the service's dialog → GET <callback> (public) trades the code for the login's token and
// stores the person, their assets (with their own tokens) sealed. A code the service's own SDK got
// (the connector's `code` alias) is stored the same way for the signed-in account.
import type { Locale } from '@leadrelay/shared';
import { and, eq, isNull } from 'drizzle-orm';
import { users } from '../../db/schema';
import { AppError } from '../../lib/app-error';
import { isBoundToBrowser, readOAuthState, screenUrl, signOAuthState } from '../../lib/oauth-state';
import { type ConnectionConnector, type ConnectionDeps, callFor } from './connection-deps';
import { markConnectionOk, reasonOf } from './connection-health';
import { type Actor, type ConnectedLogin, upsertConnection } from './connection-store';

/** The state's flow name: the connector's type (a state of one connector is refused by another). */
const flowOf = (c: ConnectionConnector) => c.type;

export const callbackUrl = (deps: Pick<ConnectionDeps, 'config'>, c: ConnectionConnector) =>
  `${deps.config.authHost}${c.spec.login.callback.path}`;

/** The login URL and the state binding the route sets as a cookie. */
export async function startLogin(
  deps: ConnectionDeps,
  c: ConnectionConnector,
  actor: Actor,
  locale: Locale = 'uk',
): Promise<{ authUrl: string; state: string }> {
  const call = callFor(deps, c);
  const state = await signOAuthState(deps.config.jwtSecret, flowOf(c), { accountId: actor.id, locale });
  return { authUrl: c.spec.login.url(call, callbackUrl(deps, c), state), state };
}

export interface CallbackQuery {
  code?: string;
  state?: string;
  error?: string;
}

/**
 * Where the browser goes after the service: the connector's screen (in the language the user started
 * in) with ?connected=<id> or ?error=<CODE>.
 */
export async function handleCallback(
  deps: ConnectionDeps,
  c: ConnectionConnector,
  query: CallbackQuery,
  binding?: string,
): Promise<string> {
  const read = await readOAuthState(deps.config.jwtSecret, flowOf(c), query.state);
  const url = new URL(screenUrl(deps.config.publicUrl, read?.locale ?? 'uk', c.spec.login.screen));
  if (!read || !isBoundToBrowser(query.state, binding)) {
    url.searchParams.set('error', 'OAUTH_STATE_INVALID');
  } else if (query.error || !query.code) {
    // error=access_denied: the person declined in the dialog.
    url.searchParams.set('error', 'OAUTH_EXCHANGE_FAILED');
  } else {
    try {
      url.searchParams.set(
        'connected',
        await connectWithCode(deps, c, read.accountId, query.code, callbackUrl(deps, c)),
      );
    } catch (error) {
      if (!(error instanceof AppError)) throw error;
      url.searchParams.set('error', error.code);
    }
  }
  return url.toString();
}

/** A code the service's SDK got (its redirect URI, often empty) for the signed-in account. */
export async function connectWithSdkCode(
  deps: ConnectionDeps,
  c: ConnectionConnector,
  actor: Actor,
  code: string,
  redirectUri: string,
): Promise<{ connectionId: string }> {
  return { connectionId: await connectWithCode(deps, c, actor.id, code, redirectUri) };
}

/** code → the login's token → the person and their assets → stored; the connection id. */
async function connectWithCode(
  deps: ConnectionDeps,
  c: ConnectionConnector,
  accountId: string,
  code: string,
  redirectUri: string,
) {
  const call = callFor(deps, c);
  const [account] = await deps.db
    .select({ id: users.id })
    .from(users)
    .where(and(eq(users.id, accountId), isNull(users.deletedAt)));
  if (!account) throw new AppError('OAUTH_STATE_INVALID');

  let token: ConnectedLogin['token'];
  try {
    token = await c.spec.login.trade(call, code, redirectUri);
  } catch (error) {
    deps.log.warn({ accountId, reason: reasonOf(c, error) }, `${c.type} code exchange failed`);
    throw new AppError('OAUTH_EXCHANGE_FAILED');
  }
  let login: ConnectedLogin;
  try {
    const profile = await c.spec.login.profile(call, token.accessToken, (msg, reason) =>
      deps.log.warn({ reason }, msg),
    );
    login = { profile, token };
  } catch (error) {
    throw new AppError('CONNECTION_FAILED', { message: reasonOf(c, error) });
  }
  const { id, wasBroken } = await deps.db.transaction((tx) => upsertConnection(tx, deps.secrets, c, accountId, login));
  if (wasBroken) await markConnectionOk(deps, c, id);
  return id;
}
