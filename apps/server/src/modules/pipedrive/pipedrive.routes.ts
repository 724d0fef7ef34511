// Pipedrive (spec 7 "Pipedrive"): its paths, thin over the generic OAuth flow, loaders and webhooks
// (modules/integrations). /pipedrive/state, /start and /callback live at the server root: this
// server is the spec's external auth host (AUTH_HOST) by default.
import {
  ZAuthUrl,
  ZPipedriveActivityType,
  ZPipedriveConnectBody,
  ZPipedriveConnectResult,
  ZPipedriveField,
  ZPipedrivePipeline,
  ZPipedriveStartBody,
  ZPipedriveState,
  ZPipedriveStateBody,
  ZPipedriveWebhook,
  ZPipedriveWebhookBody,
  ZPipedriveWebhookDeleteQuery,
  ZSuccessResponse,
} from '@leadrelay/shared';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { authOf } from '../../plugins/auth';
import { watchAfterConnect } from '../crm-events';
import {
  appClient,
  callbackToScreen,
  connectWithCode,
  consentUrl,
  oauthConnector,
  registerLoaderRoutes,
  remoteWebhooks,
  signConnectState,
  stateIntegration,
} from '../integrations';
import { connectWithToken } from './pipedrive.service';

const TYPE = 'pipedrive' as const;

const tags = ['pipedrive'];
const ZIntegrationParams = z.object({ integrationId: z.string() });
const ZCallbackQuery = z.object({
  code: z.string().max(2000).optional(),
  state: z.string().max(4000).optional(),
  error: z.string().max(200).optional(),
});

export async function pipedriveRoutes(app: FastifyInstance): Promise<void> {
  const r = app.withTypeProvider<ZodTypeProvider>();
  const { deps } = app;
  const user = (req: Parameters<typeof authOf>[0]) => authOf(req).user;
  const webhooks = (req: Parameters<typeof authOf>[0] & { params: { integrationId: string } }) =>
    remoteWebhooks(deps, user(req), req.params.integrationId, TYPE, 'CRM_REQUEST_FAILED');

  r.post(
    '/pipedrive/state',
    { config: { access: 'client' }, schema: { tags, body: ZPipedriveStateBody, response: { 200: ZPipedriveState } } },
    async (req) => ({ state: await signConnectState(deps, user(req), TYPE, req.body.integrationId, req.body.locale) }),
  );
  r.post(
    '/pipedrive/start',
    { config: { access: 'client' }, schema: { tags, body: ZPipedriveStartBody, response: { 200: ZAuthUrl } } },
    async (req) => {
      appClient(deps, oauthConnector(TYPE));
      await stateIntegration(deps, user(req), TYPE, req.body.state);
      return { authUrl: consentUrl(deps, TYPE, req.body.state) };
    },
  );
  // Pipedrive sends the browser here; it goes on to the web app's connect screen, signed in or not.
  r.get(
    '/pipedrive/callback',
    { config: { access: 'public' }, schema: { tags, querystring: ZCallbackQuery } },
    async (req, reply) => reply.redirect(await callbackToScreen(deps, TYPE, req.query), 302),
  );
  r.post(
    '/api/legacy/api/pipedrive/connect',
    {
      config: { access: 'client' },
      schema: { tags, body: ZPipedriveConnectBody, response: { 200: ZPipedriveConnectResult } },
    },
    async (req) => {
      const body = req.body;
      // Connected: Pipedrive is asked to post its deal (or lead) changes to us (speed to lead).
      if ('code' in body) {
        const row = await connectWithCode(deps, user(req), TYPE, body);
        await watchAfterConnect(deps, row);
        return { integrationId: row.id, type: TYPE };
      }
      const connected = await connectWithToken(deps, user(req), body.integrationId, body.apiToken);
      await watchAfterConnect(deps, { id: connected.integrationId });
      return connected;
    },
  );

  r.get(
    '/api/pipedrive/webhooks/:integrationId',
    {
      config: { access: 'client' },
      schema: { tags, params: ZIntegrationParams, response: { 200: z.array(ZPipedriveWebhook) } },
    },
    (req) => webhooks(req).list(),
  );
  r.post(
    '/api/pipedrive/webhooks/:integrationId',
    {
      config: { access: 'client' },
      schema: { tags, params: ZIntegrationParams, body: ZPipedriveWebhookBody, response: { 200: ZPipedriveWebhook } },
    },
    (req) => webhooks(req).create(req.body),
  );
  r.delete(
    '/api/pipedrive/webhooks/:integrationId',
    {
      config: { access: 'client' },
      schema: {
        tags,
        params: ZIntegrationParams,
        querystring: ZPipedriveWebhookDeleteQuery,
        response: { 200: ZSuccessResponse },
      },
    },
    async (req) => {
      await webhooks(req).remove(req.query.id);
      return { success: true as const };
    },
  );

  registerLoaderRoutes(
    app,
    TYPE,
    [
      ...(['dealFields', 'personFields', 'organizationFields'] as const).map((list) => ({
        path: `/api/pipedrive/${list}/:id` as const,
        list,
        response: z.array(ZPipedriveField),
      })),
      { path: '/api/pipedrive/getStages/:id', list: 'stages', response: z.array(ZPipedrivePipeline) },
      {
        path: '/api/legacy/api/pipedrive/getActivityTypes/:id',
        list: 'activityTypes',
        response: z.array(ZPipedriveActivityType),
      },
    ],
    // Pipedrive refusing a request itself (a 4xx other than auth) answers CRM_REQUEST_FAILED with its reason.
    { tags, refusal: 'CRM_REQUEST_FAILED' },
  );
}
