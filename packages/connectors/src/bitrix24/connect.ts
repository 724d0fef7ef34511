// Connecting Bitrix24 (POST /api/bitrix24/connect; the server's generic credentials connect runs
// it): the inbound webhook address an administrator made in Bitrix24 (Developer resources → Other →
// Inbound webhook, with the CRM scope). Its host must be one BITRIX24_HOSTS allows and its scheme
// https before anything is sent there; the server then tries it against the portal
// (testConnection: profile, the deal pipelines) before anything is stored, and stores it sealed.
// Also how a connection is described to its screen (GET /api/bitrix24/account/{id}), and the aliases.

import { z } from 'zod';
import { ConnectRefusal, PermanentError, RetryableError } from '../kit/errors';
import type { AliasRefusal, ConnectorAccount, ConnectorAlias, ConnectorConnect } from '../kit/types';
import type { Bitrix24Auth } from './client';
import {
  type Bitrix24Account,
  maskedWebhook,
  parseInboundWebhook,
  webhookBase,
  ZBitrix24Account,
  ZBitrix24ConnectBody,
  ZBitrix24ConnectResult,
  ZBitrix24Pipeline,
  ZBitrix24User,
} from './schema';

const HOSTS = 'BITRIX24_HOSTS';

export const bitrix24Connect: ConnectorConnect<Bitrix24Auth> = {
  body: ZBitrix24ConnectBody,
  response: ZBitrix24ConnectResult,
  credentials: async (call, input) => {
    const body = ZBitrix24ConnectBody.parse(input);
    const parsed = parseInboundWebhook(body.webhookUrl);
    const origin = parsed ? call.allowedOrigin(new URL(parsed.origin), HOSTS) : undefined;
    if (!parsed) throw new ConnectRefusal('BITRIX24_WEBHOOK_URL_INVALID', { field: 'webhookUrl' });
    if (!origin) throw new ConnectRefusal('BITRIX24_HOST_NOT_ALLOWED', { field: 'webhookUrl' });
    return { kind: 'webhook', webhookUrl: webhookBase({ ...parsed, origin }) };
  },
  // The chosen pipeline and stage are checked by the connection check after settings are saved, not here.
  checkSettings: () => ({ target: 'lead' }),
  /** What a failed call to the portal means to the person connecting. */
  refusal(error) {
    // The safe fetch refused the address (a private network): the address is wrong, not the portal.
    if (error instanceof PermanentError && error.code === 'URL_NOT_ALLOWED') {
      return new ConnectRefusal('BITRIX24_HOST_NOT_ALLOWED', { field: 'webhookUrl' });
    }
    if (error instanceof PermanentError) {
      const code = /^(BITRIX24_[A-Z_]+)/.exec(error.message)?.[1];
      if (code === 'BITRIX24_NO_CRM_SCOPE' || code === 'BITRIX24_PLAN_REQUIRED' || code === 'BITRIX24_PORTAL_GONE') {
        return new ConnectRefusal(code, { field: 'webhookUrl' });
      }
      return new ConnectRefusal('BITRIX24_WEBHOOK_REFUSED', { field: 'webhookUrl' });
    }
    if (error instanceof RetryableError)
      return new ConnectRefusal('BITRIX24_UNAVAILABLE', { reason: error.message.split(':')[0] });
    return undefined;
  },
};

/** How it is connected (the portal, the webhook's user, the address with its code hidden), nothing secret. */
export const bitrix24Account: ConnectorAccount<Bitrix24Auth> = {
  response: ZBitrix24Account,
  describe(auth): Bitrix24Account {
    const webhook = auth ? parseInboundWebhook(auth.webhookUrl) : undefined;
    if (!webhook) return { connected: false };
    return {
      connected: true,
      portal: new URL(webhook.origin).host,
      userId: webhook.userId,
      webhook: maskedWebhook(webhook),
    };
  },
};

// Bitrix24 refusing a request itself (a 4xx other than auth) answers CRM_REQUEST_FAILED with its reason.
const refusal: AliasRefusal = 'CRM_REQUEST_FAILED';
const base = '/api/bitrix24';

export const bitrix24Aliases: readonly ConnectorAlias[] = [
  { method: 'POST', path: `${base}/connect`, connect: true },
  { method: 'GET', path: `${base}/account/:id`, account: true },
  {
    method: 'GET',
    path: `${base}/pipelines/:id`,
    list: 'dealPipelines',
    response: z.array(ZBitrix24Pipeline),
    refusal,
  },
  { method: 'GET', path: `${base}/users/:id`, list: 'bitrix24Users', response: z.array(ZBitrix24User), refusal },
];
