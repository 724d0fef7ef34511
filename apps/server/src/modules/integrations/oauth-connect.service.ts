// The one OAuth connect flow, for every connector whose definition declares `oauth`: a signed state
// bound to the account and the integration, the consent URL, the account host check, the code
// exchange and the sealed credentials. The generic routes (oauth-connect.routes.ts), each
// definition's callback and the aliases connectors declare for the spec's paths are thin over these.
import {
  type ConnectorDefinition,
  type ConnectorOAuth,
  createSafeFetch,
  getConnector,
  type OAuthClient,
} from '@leadrelay/connectors';
import type { Locale } from '@leadrelay/shared';
import { and, eq } from 'drizzle-orm';
import { type Deps, destinationPolicy, hostAllowed, plainHttpAllowed } from '../../config';
import { type IntegrationRow, integrations, type UserRow } from '../../db/schema';
import { forgetConnectionCache } from '../../delivery/connection-cache';
import { INTERACTIVE_TIMEOUT_MS, reasonOf } from '../../delivery/connector-context';
import { oauthClientFor } from '../../delivery/connector-runtime';
import { credentialExpiry, sealAuth } from '../../delivery/stored-auth';
import { closeAccessAlerts } from '../../lib/access-alerts';
import { AppError } from '../../lib/app-error';
import { connectorConfig } from '../../lib/connector-config';
import { isBoundToBrowser, type OAuthState, readOAuthState, screenUrl, signOAuthState } from '../../lib/oauth-state';
import { connectionChanged } from './integration-health';
import { ownIntegrationOfType } from './integration-rows';

type Actor = Pick<UserRow, 'id'>;
type OAuthConnector = ConnectorDefinition<unknown, unknown> & { oauth: ConnectorOAuth<unknown> };

/** A host name with an optional port: nothing a URL could smuggle a path, user or scheme through. */
const HOST = /^[a-z0-9](?:[a-z0-9.-]{0,251}[a-z0-9])?(?::\d{1,5})?$/;

/** Where a connector's OAuth return lands, and the cookie binding the state to the browser where it finishes there. */
export function callbackOf(connector: OAuthConnector) {
  const { path, lands = 'integration', cookie } = connector.oauth.callback;
  return { path, lands, cookie: { name: cookie ?? `lr_oauth_${connector.slug}`, path } };
}

/** The connector of a type that signs in through the generic flow. */
export function oauthConnector(slug: string): OAuthConnector {
  const connector = getConnector(slug);
  if (!connector?.oauth?.exchangeCode) throw new AppError('OPERATION_NOT_SUPPORTED');
  return connector as OAuthConnector;
}

/** The app's OAuth client of the type; OAUTH_NOT_CONFIGURED while the operator set none. */
export function appClient(deps: Pick<Deps, 'config'>, connector: OAuthConnector): OAuthClient {
  const client = oauthClientFor(deps.config, connector);
  if (!client) throw new AppError('OAUTH_NOT_CONFIGURED');
  return client;
}

/** A signed, short-lived state binding the account, the integration and the user's language. */
export async function signConnectState(
  deps: Deps,
  actor: Actor,
  slug: string,
  integrationId: string,
  locale: Locale = 'uk',
): Promise<string> {
  const row = await ownIntegrationOfType(deps.db, actor, integrationId, slug);
  return signOAuthState(deps.config.jwtSecret, slug, { accountId: actor.id, integrationId: row.id, locale });
}

export const readConnectState = (deps: Pick<Deps, 'config'>, slug: string, state: string | undefined) =>
  readOAuthState(deps.config.jwtSecret, slug, state);

/** The state's integration, when the state is good and the caller's own; else OAUTH_STATE_INVALID. */
export async function stateIntegration(deps: Deps, actor: Actor, slug: string, state: string): Promise<IntegrationRow> {
  const read = await readConnectState(deps, slug, state);
  if (!read?.integrationId || read.accountId !== actor.id) throw new AppError('OAUTH_STATE_INVALID');
  try {
    return await ownIntegrationOfType(deps.db, actor, read.integrationId, slug);
  } catch {
    throw new AppError('OAUTH_STATE_INVALID');
  }
}

/** The provider's consent page for this state. */
export function consentUrl(deps: Pick<Deps, 'config'>, slug: string, state: string): string {
  const connector = oauthConnector(slug);
  return connector.oauth.consentUrl(appClient(deps, connector), state);
}

/** Consent for the actor's integration: the URL and the state (to bind to the browser where the callback needs it). */
export async function startConnect(
  deps: Deps,
  actor: Actor,
  slug: string,
  integrationId: string,
  locale: Locale = 'uk',
): Promise<{ url: string; state: string }> {
  const connector = oauthConnector(slug);
  const client = appClient(deps, connector);
  const state = await signConnectState(deps, actor, slug, integrationId, locale);
  return { url: connector.oauth.consentUrl(client, state), state };
}

/** The account host a `referer` names, when it is a plain host the connector's `hosts` key allows. */
function refererHost(deps: Deps, connector: OAuthConnector, referer: string | undefined): string {
  const allowed = connector.oauth.accountHost?.allowed;
  const hosts = allowed ? connectorConfig(deps.config.crm, connector)[allowed] : undefined;
  const host = (referer ?? '').trim().toLowerCase();
  if (!HOST.test(host) || !Array.isArray(hosts) || !hostAllowed(hosts, host))
    throw new AppError('CRM_HOST_NOT_ALLOWED');
  return host;
}

/**
 * `url`'s origin when credentials may go there: https (plain http only with private destinations
 * on, or to an allowed endpoint), no user in it, on a host the connector's `hostsKey` configuration
 * key allows; else undefined.
 */
export function allowedOrigin(
  deps: Pick<Deps, 'config'>,
  connector: Pick<ConnectorDefinition<unknown, unknown>, 'slug' | 'config'>,
  hostsKey: string,
  url: URL,
): string | undefined {
  const hosts = connectorConfig(deps.config.crm, connector)[hostsKey];
  const schemeOk = url.protocol === 'https:' || (url.protocol === 'http:' && plainHttpAllowed(deps.config, url));
  if (!schemeOk || url.username || url.password || !Array.isArray(hosts) || !hostAllowed(hosts, url.host)) {
    return undefined;
  }
  return url.origin;
}

/** An API origin the token answer names, when allowedOrigin takes it; else CRM_HOST_NOT_ALLOWED. */
function tokenOrigin(deps: Deps, connector: OAuthConnector, allowed: string, value: unknown): string {
  let url: URL;
  try {
    url = new URL(String(value));
  } catch {
    throw new AppError('CRM_HOST_NOT_ALLOWED');
  }
  const origin = allowedOrigin(deps, connector, allowed, url);
  if (!origin) throw new AppError('CRM_HOST_NOT_ALLOWED');
  return origin;
}

/** Stores credentials sealed; the integration is connected and healthy. */
export async function storeAuth(
  deps: Pick<Deps, 'db' | 'secrets' | 'events'>,
  row: IntegrationRow,
  auth: Record<string, unknown>,
): Promise<void> {
  await deps.db
    .update(integrations)
    .set({
      auth: sealAuth(deps.secrets, row.id, auth),
      credentialExpiresAt: credentialExpiry(getConnector(row.type), auth),
      status: 'ok',
      statusReason: null,
      updatedAt: new Date(),
    })
    .where(and(eq(integrations.id, row.id), eq(integrations.accountId, row.accountId)));
  // Connected again: a source reads its leads again (the guardian's access alert closes).
  await closeAccessAlerts(deps.db, [row.id], new Date());
  forgetConnectionCache(row.id);
  connectionChanged(deps, row);
}

/**
 * The OAuth return: checks the account host (before the exchange when the callback names it, after
 * when the token answer does), trades the code and stores the credentials.
 */
export async function completeConnect(
  deps: Deps,
  slug: string,
  target: { accountId: string; integrationId: string },
  answer: { code?: string; referer?: string },
): Promise<IntegrationRow> {
  const connector = oauthConnector(slug);
  const row = await ownIntegrationOfType(deps.db, { id: target.accountId }, target.integrationId, slug);
  const oauth = appClient(deps, connector);
  const accountHost = connector.oauth.accountHost;
  // The account host comes from the browser: check it before our client secret goes anywhere.
  const account = accountHost?.from === 'referer' ? refererHost(deps, connector, answer.referer) : undefined;
  if (!answer.code) throw new AppError('OAUTH_EXCHANGE_FAILED');
  let auth: Record<string, unknown>;
  try {
    const fetch = createSafeFetch({
      ...destinationPolicy(deps.config),
      timeoutMs: INTERACTIVE_TIMEOUT_MS,
    });
    const call = { fetch, oauth, signal: AbortSignal.timeout(INTERACTIVE_TIMEOUT_MS) };
    auth = { ...((await connector.oauth.exchangeCode!(call, answer.code, account)) as Record<string, unknown>) };
  } catch (error) {
    deps.log.warn({ integrationId: row.id, reason: reasonOf(error) }, `${slug} code exchange failed`);
    throw new AppError('OAUTH_EXCHANGE_FAILED');
  }
  if (accountHost?.from === 'token') {
    auth[accountHost.field] = tokenOrigin(deps, connector, accountHost.allowed, auth[accountHost.field]);
  }
  await storeAuth(deps, row, auth);
  return row;
}

const integrationScreen = (slug: string, tail = '') => `/admin/integrations/${slug}${tail}`;

/**
 * A callback that finishes the connect itself (the state bound to this browser): always a redirect to
 * the integration's screen, with ?connected=1 or ?error=CODE.
 */
export async function finishAtCallback(
  deps: Deps,
  slug: string,
  query: { code?: string; state?: string; referer?: string },
  binding?: string,
  /** After the credentials are stored (other modules' follow-up: the CRM's stage watch); must not throw. */
  onConnected?: (row: IntegrationRow) => Promise<void>,
): Promise<string> {
  const state = await readConnectState(deps, slug, query.state);
  if (!state?.integrationId || !isBoundToBrowser(query.state, binding)) {
    return `${screenUrl(deps.config.publicUrl, 'uk', integrationScreen(slug))}?error=OAUTH_STATE_INVALID`;
  }
  const target = { accountId: state.accountId, integrationId: state.integrationId };
  const back = screenUrl(deps.config.publicUrl, state.locale, integrationScreen(slug, `/${target.integrationId}`));
  try {
    const row = await completeConnect(deps, slug, target, query);
    await onConnected?.(row);
    return `${back}?connected=1`;
  } catch (error) {
    if (error instanceof AppError) return `${back}?error=${error.code}`;
    throw error;
  }
}

/**
 * A callback that hands the code to the web app's connect screen (which posts it back, signed in):
 * ?code&state, or ?error=OAUTH_STATE_INVALID / OAUTH_EXCHANGE_FAILED.
 */
export async function callbackToScreen(
  deps: Deps,
  slug: string,
  query: { code?: string; state?: string; error?: string },
): Promise<string> {
  const read: OAuthState | undefined = (await readConnectState(deps, slug, query.state)) ?? undefined;
  const url = new URL(screenUrl(deps.config.publicUrl, read?.locale ?? 'uk', integrationScreen(slug, '/connect')));
  if (!query.state || !read) {
    url.searchParams.set('error', 'OAUTH_STATE_INVALID');
  } else if (query.error || !query.code) {
    url.searchParams.set('error', 'OAUTH_EXCHANGE_FAILED');
  } else {
    url.searchParams.set('code', query.code);
    url.searchParams.set('state', query.state);
  }
  return url.toString();
}

/** The connect screen's post: the code and the state it was given, for the signed-in owner of the state. */
export async function connectWithCode(
  deps: Deps,
  actor: Actor,
  slug: string,
  body: { code: string; state: string },
): Promise<IntegrationRow> {
  const row = await stateIntegration(deps, actor, slug, body.state);
  return completeConnect(deps, slug, { accountId: actor.id, integrationId: row.id }, { code: body.code });
}
