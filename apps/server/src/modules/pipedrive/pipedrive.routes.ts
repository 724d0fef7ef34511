// Pipedrive (spec 7 "Pipedrive"). /pipedrive/state, /start and /callback live at the server root:
// this server is the spec's external auth host (AUTH_HOST) by default.
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
import * as service from './pipedrive.service';

const tags = ['pipedrive'];
const config = { access: 'client' as const };
const ZIdParams = z.object({ id: z.string() });
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

  r.post(
    '/pipedrive/state',
    { config, schema: { tags, body: ZPipedriveStateBody, response: { 200: ZPipedriveState } } },
    (req) => service.createState(deps, user(req), req.body.integrationId, req.body.locale),
  );
  r.post(
    '/pipedrive/start',
    { config, schema: { tags, body: ZPipedriveStartBody, response: { 200: ZAuthUrl } } },
    (req) => service.startAuth(deps, user(req), req.body.state),
  );
  // Pipedrive sends the browser here; it goes on to the web app's connect screen, signed in or not.
  r.get(
    '/pipedrive/callback',
    { config: { access: 'public' }, schema: { tags, querystring: ZCallbackQuery } },
    async (req, reply) => reply.redirect(await service.callbackLocation(deps, req.query), 302),
  );
  r.post(
    '/api/legacy/api/pipedrive/connect',
    { config, schema: { tags, body: ZPipedriveConnectBody, response: { 200: ZPipedriveConnectResult } } },
    (req) => service.connect(deps, user(req), req.body),
  );

  r.get(
    '/api/pipedrive/webhooks/:integrationId',
    { config, schema: { tags, params: ZIntegrationParams, response: { 200: z.array(ZPipedriveWebhook) } } },
    (req) => service.listWebhooks(deps, user(req), req.params.integrationId),
  );
  r.post(
    '/api/pipedrive/webhooks/:integrationId',
    {
      config,
      schema: { tags, params: ZIntegrationParams, body: ZPipedriveWebhookBody, response: { 200: ZPipedriveWebhook } },
    },
    (req) => service.createWebhook(deps, user(req), req.params.integrationId, req.body),
  );
  r.delete(
    '/api/pipedrive/webhooks/:integrationId',
    {
      config,
      schema: {
        tags,
        params: ZIntegrationParams,
        querystring: ZPipedriveWebhookDeleteQuery,
        response: { 200: ZSuccessResponse },
      },
    },
    (req) => service.deleteWebhook(deps, user(req), req.params.integrationId, req.query.id),
  );

  for (const list of ['dealFields', 'personFields', 'organizationFields'] as const) {
    r.get(
      `/api/pipedrive/${list}/:id`,
      { config, schema: { tags, params: ZIdParams, response: { 200: z.array(ZPipedriveField) } } },
      (req) => service.listFields(deps, user(req), req.params.id, list),
    );
  }
  r.get(
    '/api/pipedrive/getStages/:id',
    { config, schema: { tags, params: ZIdParams, response: { 200: z.array(ZPipedrivePipeline) } } },
    (req) => service.listStages(deps, user(req), req.params.id),
  );
  r.get(
    '/api/legacy/api/pipedrive/getActivityTypes/:id',
    { config, schema: { tags, params: ZIdParams, response: { 200: z.array(ZPipedriveActivityType) } } },
    (req) => service.listActivityTypes(deps, user(req), req.params.id),
  );
}
