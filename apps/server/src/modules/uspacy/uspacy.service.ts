// Connecting Uspacy, the one part of it that is not the generic integrations code: signing in with the
// account's e-mail and password (sent once, to a portal host the configuration allows, and never
// stored: the JWT and refresh token are), or the incoming webhook URL an administrator made in Uspacy.
// Either is tried against the portal before anything is stored, then stored sealed. The lists, the
// connection check and delivery are the connector's, through the generic calls (modules/integrations).
import {
  createSafeFetch,
  getConnector,
  PermanentError,
  RetryableError,
  type UspacyAuth,
  uspacySignIn,
  ZUspacyAuth,
} from '@leadrelay/connectors';
import {
  parseIncomingWebhook,
  portalOrigin,
  USPACY_WEBHOOK_PATH,
  type UspacyAccount,
  type UspacyConnectBody,
  type UspacyConnectMode,
} from '@leadrelay/shared';
import { type Deps, destinationPolicy, hostAllowed, plainHttpAllowed } from '../../config';
import type { IntegrationRow, UserRow } from '../../db/schema';
import { connectorContext, INTERACTIVE_TIMEOUT_MS, reasonOf } from '../../delivery/connector-context';
import { readAuth, sealAuth } from '../../delivery/stored-auth';
import { AppError } from '../../lib/app-error';
import { connectorConfig } from '../../lib/connector-config';
import { ownIntegrationOfType, storeAuth } from '../integrations';

type Actor = Pick<UserRow, 'id'>;
export const TYPE = 'uspacy';

function uspacyConnector() {
  const connector = getConnector(TYPE);
  if (!connector?.testConnection) throw new AppError('OPERATION_NOT_SUPPORTED');
  return connector;
}

/** The origin when it is https (http only with private destinations on: the emulators) on a host USPACY_HOSTS allows. */
function allowedOrigin(deps: Deps, url: URL | undefined): string | undefined {
  if (!url) return undefined;
  const hosts = connectorConfig(deps.config.crm, uspacyConnector()).USPACY_HOSTS;
  const schemeOk = url.protocol === 'https:' || (url.protocol === 'http:' && plainHttpAllowed(deps.config, url));
  return schemeOk && Array.isArray(hosts) && hostAllowed(hosts, url.host) ? url.origin : undefined;
}

const fieldError = (code: 'USPACY_PORTAL_INVALID' | 'USPACY_WEBHOOK_URL_INVALID', field: string) =>
  new AppError(code, { errors: [{ field, code }] });

/** What a failed call to the portal means to the person connecting. */
function connectFailure(error: unknown, refused: 'USPACY_SIGN_IN_FAILED' | 'USPACY_WEBHOOK_REFUSED'): AppError {
  if (error instanceof AppError) return error;
  // The safe fetch refused the address (a private network): the address is wrong, not the portal.
  if (error instanceof PermanentError && error.code === 'URL_NOT_ALLOWED') return new AppError('USPACY_PORTAL_INVALID');
  if (error instanceof PermanentError) return new AppError(refused);
  if (error instanceof RetryableError) return new AppError('USPACY_UNAVAILABLE', { message: reasonOf(error) });
  return new AppError('CONNECTION_FAILED', { message: reasonOf(error) });
}

async function signInAuth(
  deps: Deps,
  body: Extract<UspacyConnectBody, { mode: 'password' }>,
): Promise<Extract<UspacyAuth, { kind: 'password' }>> {
  const portal = allowedOrigin(deps, portalOrigin(body.portal));
  // The password goes only to an allowed portal host.
  if (!portal) throw fieldError('USPACY_PORTAL_INVALID', 'portal');
  const fetch = createSafeFetch({
    ...destinationPolicy(deps.config),
    timeoutMs: INTERACTIVE_TIMEOUT_MS,
  });
  let signedIn: Awaited<ReturnType<typeof uspacySignIn>>;
  try {
    signedIn = await uspacySignIn({ fetch, signal: AbortSignal.timeout(INTERACTIVE_TIMEOUT_MS) }, portal, {
      email: body.email,
      password: body.password,
      code: body.code || undefined,
    });
  } catch (error) {
    throw connectFailure(error, 'USPACY_SIGN_IN_FAILED');
  }
  const { auth, domain } = signedIn;
  // The API lives where the token says (the SDK's baseURL is https://{domain}): that host must be allowed too.
  if (domain && domain.toLowerCase() !== new URL(portal).host) {
    let named: string | undefined;
    try {
      named = allowedOrigin(deps, new URL(`${new URL(portal).protocol}//${domain}`));
    } catch {
      named = undefined;
    }
    if (!named) throw new AppError('CRM_HOST_NOT_ALLOWED');
    return { ...auth, portal: named };
  }
  return auth;
}

function webhookAuth(deps: Deps, body: Extract<UspacyConnectBody, { mode: 'webhook' }>): UspacyAuth {
  const parsed = parseIncomingWebhook(body.webhookUrl);
  const origin = parsed ? allowedOrigin(deps, new URL(parsed.origin)) : undefined;
  if (!parsed || !origin) throw fieldError('USPACY_WEBHOOK_URL_INVALID', 'webhookUrl');
  return { kind: 'webhook', webhookUrl: `${origin}${USPACY_WEBHOOK_PATH}${parsed.key}` };
}

/** POST /api/uspacy/connect: credentials checked with the portal, then stored sealed; the integration is ok. */
export async function connect(
  deps: Deps,
  actor: Actor,
  body: UspacyConnectBody,
): Promise<{ integrationId: string; type: 'uspacy'; mode: UspacyConnectMode }> {
  const connector = uspacyConnector();
  const row = await ownIntegrationOfType(deps.db, actor, body.integrationId, TYPE);
  const auth = body.mode === 'password' ? await signInAuth(deps, body) : webhookAuth(deps, body);
  // Tried in memory first (the target's funnels): nothing is stored unless the portal takes it. The
  // chosen funnel and stage are checked by the connection check after settings are saved, not here.
  const target = (row.settings as { target?: unknown }).target === 'deal' ? 'deal' : 'lead';
  const candidate: IntegrationRow = { ...row, auth: sealAuth(deps.secrets, row.id, auth), settings: { target } };
  try {
    await connector.testConnection!(connectorContext(deps, connector, candidate));
  } catch (error) {
    throw connectFailure(error, body.mode === 'password' ? 'USPACY_SIGN_IN_FAILED' : 'USPACY_WEBHOOK_REFUSED');
  }
  await storeAuth(deps, row, auth);
  return { integrationId: row.id, type: TYPE, mode: body.mode };
}

/** GET /api/uspacy/account/{id}: how it is connected (the portal's host, the e-mail), nothing secret. */
export async function account(deps: Deps, actor: Actor, id: string): Promise<UspacyAccount> {
  const row = await ownIntegrationOfType(deps.db, actor, id, TYPE);
  if (row.auth === null) return { connected: false };
  const parsed = ZUspacyAuth.safeParse(readAuth(deps.secrets, row));
  if (!parsed.success) return { connected: false };
  const auth = parsed.data;
  if (auth.kind === 'password') {
    return { connected: true, mode: 'password', portal: new URL(auth.portal).host, email: auth.email };
  }
  return { connected: true, mode: 'webhook', portal: new URL(auth.webhookUrl).host };
}
