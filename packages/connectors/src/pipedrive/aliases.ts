// Pipedrive's own paths (spec 7 "Pipedrive"), aliases of the generic routes the server mounts for
// every connector, and its API-token connect. /pipedrive/state, /start and /callback live at the
// server root: this server is the spec's external auth host (AUTH_HOST) by default.

import { z } from 'zod';
import type { AliasRefusal, ConnectorAlias, ConnectorConnect } from '../kit/types';
import type { PipedriveAuth } from './client';
import {
  ZPipedriveActivityType,
  ZPipedriveApiToken,
  ZPipedriveConnectBody,
  ZPipedriveConnectResult,
  ZPipedriveField,
  ZPipedrivePipeline,
  ZPipedriveWebhook,
  ZPipedriveWebhookBody,
  ZPipedriveWebhookDeleteQuery,
} from './schema';

// Pipedrive refusing a request itself (a 4xx other than auth) answers CRM_REQUEST_FAILED with its reason.
const refusal: AliasRefusal = 'CRM_REQUEST_FAILED';
const webhooks = '/api/pipedrive/webhooks/:integrationId';

export const pipedriveAliases: readonly ConnectorAlias[] = [
  // {integrationId, locale?} → {state}; {state} → {authUrl}; Pipedrive returns to /pipedrive/callback,
  // which hands the code to the connect screen, which posts it to …/pipedrive/connect.
  { method: 'POST', path: '/pipedrive/state', oauth: 'state' },
  { method: 'POST', path: '/pipedrive/start', oauth: 'consent' },
  // The OAuth return's {code, state}, or {integrationId, apiToken}.
  { method: 'POST', path: '/api/legacy/api/pipedrive/connect', connect: true, body: ZPipedriveConnectBody },
  { method: 'GET', path: webhooks, webhooks: 'list', response: z.array(ZPipedriveWebhook), refusal },
  {
    method: 'POST',
    path: webhooks,
    webhooks: 'create',
    body: ZPipedriveWebhookBody,
    response: ZPipedriveWebhook,
    refusal,
  },
  { method: 'DELETE', path: webhooks, webhooks: 'remove', query: ZPipedriveWebhookDeleteQuery, refusal },
  ...(['dealFields', 'personFields', 'organizationFields'] as const).map(
    (list): ConnectorAlias => ({
      method: 'GET',
      path: `/api/pipedrive/${list}/:id` as const,
      list,
      response: z.array(ZPipedriveField),
      refusal,
    }),
  ),
  {
    method: 'GET',
    path: '/api/pipedrive/getStages/:id',
    list: 'stages',
    response: z.array(ZPipedrivePipeline),
    refusal,
  },
  {
    method: 'GET',
    path: '/api/legacy/api/pipedrive/getActivityTypes/:id',
    list: 'activityTypes',
    response: z.array(ZPipedriveActivityType),
    refusal,
  },
];

const ZTokenBody = z.object({ integrationId: z.uuid(), apiToken: ZPipedriveApiToken });

/**
 * An API token instead of OAuth: it talks to the configured API host. The server tries it (GET
 * users/me) before anything is stored; refused: CONNECTION_FAILED.
 */
export const pipedriveTokenConnect: ConnectorConnect<PipedriveAuth> = {
  body: ZTokenBody,
  response: ZPipedriveConnectResult,
  credentials: async (call, body) => ({
    kind: 'token',
    apiToken: ZTokenBody.parse(body).apiToken,
    apiDomain: String(call.baseUrl ?? '').replace(/\/+$/, ''),
  }),
};
