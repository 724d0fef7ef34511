// Connecting Uspacy (POST /api/uspacy/connect; the server's generic credentials connect runs it):
// signing in with the account's e-mail and password (sent once, to a portal host USPACY_HOSTS
// allows, and never stored: the JWT and refresh token are), or the incoming webhook URL an
// administrator made in Uspacy. The server tries the result against the portal (testConnection, the
// target's funnels) before anything is stored, and stores it sealed. Also how a connection is
// described to its screen (GET /api/uspacy/account/{id}), and the paths' aliases.

import { z } from 'zod';
import { ConnectRefusal, PermanentError, RetryableError } from '../kit/errors';
import type { AliasRefusal, ConnectCall, ConnectorAccount, ConnectorAlias, ConnectorConnect } from '../kit/types';
import { signIn, type UspacyAuth } from './client';
import {
  parseIncomingWebhook,
  portalOrigin,
  USPACY_WEBHOOK_PATH,
  type UspacyAccount,
  type UspacyConnectBody,
  ZUspacyAccount,
  ZUspacyConnectBody,
  ZUspacyConnectResult,
  ZUspacyFields,
  ZUspacyFunnel,
  ZUspacyUser,
} from './schema';

const HOSTS = 'USPACY_HOSTS';

const fieldError = (code: 'USPACY_PORTAL_INVALID' | 'USPACY_WEBHOOK_URL_INVALID', field: string) =>
  new ConnectRefusal(code, { field });

const allowed = (call: ConnectCall, url: URL | undefined) => (url ? call.allowedOrigin(url, HOSTS) : undefined);

async function signInAuth(
  call: ConnectCall,
  body: Extract<UspacyConnectBody, { mode: 'password' }>,
): Promise<Extract<UspacyAuth, { kind: 'password' }>> {
  const portal = allowed(call, portalOrigin(body.portal));
  // The password goes only to an allowed portal host.
  if (!portal) throw fieldError('USPACY_PORTAL_INVALID', 'portal');
  const { auth, domain } = await signIn(call, portal, {
    email: body.email,
    password: body.password,
    code: body.code || undefined,
  });
  // The API lives where the token says (the SDK's baseURL is https://{domain}): that host must be allowed too.
  if (domain && domain.toLowerCase() !== new URL(portal).host) {
    let named: string | undefined;
    try {
      named = allowed(call, new URL(`${new URL(portal).protocol}//${domain}`));
    } catch {
      named = undefined;
    }
    if (!named) throw new ConnectRefusal('CRM_HOST_NOT_ALLOWED');
    return { ...auth, portal: named };
  }
  return auth;
}

function webhookAuth(call: ConnectCall, body: Extract<UspacyConnectBody, { mode: 'webhook' }>): UspacyAuth {
  const parsed = parseIncomingWebhook(body.webhookUrl);
  const origin = parsed ? allowed(call, new URL(parsed.origin)) : undefined;
  if (!parsed || !origin) throw fieldError('USPACY_WEBHOOK_URL_INVALID', 'webhookUrl');
  return { kind: 'webhook', webhookUrl: `${origin}${USPACY_WEBHOOK_PATH}${parsed.key}` };
}

export const uspacyConnect: ConnectorConnect<UspacyAuth> = {
  body: ZUspacyConnectBody,
  response: ZUspacyConnectResult,
  credentials: async (call, input) => {
    const body = ZUspacyConnectBody.parse(input);
    return body.mode === 'password' ? signInAuth(call, body) : webhookAuth(call, body);
  },
  // The chosen funnel and stage are checked by the connection check after settings are saved, not here.
  checkSettings: (stored) => ({ target: (stored as { target?: unknown } | null)?.target === 'deal' ? 'deal' : 'lead' }),
  /** What a failed call to the portal means to the person connecting. */
  refusal(error, input) {
    const refused =
      (input as { mode?: string }).mode === 'password' ? 'USPACY_SIGN_IN_FAILED' : 'USPACY_WEBHOOK_REFUSED';
    // The safe fetch refused the address (a private network): the address is wrong, not the portal.
    if (error instanceof PermanentError && error.code === 'URL_NOT_ALLOWED')
      return new ConnectRefusal('USPACY_PORTAL_INVALID');
    if (error instanceof PermanentError) return new ConnectRefusal(refused);
    if (error instanceof RetryableError) return new ConnectRefusal('USPACY_UNAVAILABLE', { reason: error.message });
    return undefined;
  },
  answer: (input) => ({ mode: (input as UspacyConnectBody).mode }),
};

/** How it is connected (the portal's host, the e-mail), nothing secret. */
export const uspacyAccount: ConnectorAccount<UspacyAuth> = {
  response: ZUspacyAccount,
  describe(auth): UspacyAccount {
    if (!auth) return { connected: false };
    if (auth.kind === 'password') {
      return { connected: true, mode: 'password', portal: new URL(auth.portal).host, email: auth.email };
    }
    return { connected: true, mode: 'webhook', portal: new URL(auth.webhookUrl).host };
  },
};

// Uspacy refusing a request itself (a 4xx other than auth) answers CRM_REQUEST_FAILED with its reason.
const refusal: AliasRefusal = 'CRM_REQUEST_FAILED';
const base = '/api/uspacy';

export const uspacyAliases: readonly ConnectorAlias[] = [
  { method: 'POST', path: `${base}/connect`, connect: true },
  { method: 'GET', path: `${base}/account/:id`, account: true },
  { method: 'GET', path: `${base}/leadFunnels/:id`, list: 'leadFunnels', response: z.array(ZUspacyFunnel), refusal },
  { method: 'GET', path: `${base}/dealFunnels/:id`, list: 'dealFunnels', response: z.array(ZUspacyFunnel), refusal },
  { method: 'GET', path: `${base}/fields/:id`, list: 'uspacyFields', response: ZUspacyFields, refusal },
  { method: 'GET', path: `${base}/users/:id`, list: 'uspacyUsers', response: z.array(ZUspacyUser), refusal },
];
