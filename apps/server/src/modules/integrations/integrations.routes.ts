// Integrations (spec 7 "Integrations"). Every path is the signed-in account's own data (access
// client), including the /api/admin/... and legacy /api/legacy/api/admin/... ones: "admin" there
// is the account's admin area, not the platform operator's.
import {
  ZConnectBody,
  ZConnectionCheck,
  ZConnectResult,
  ZCreateIntegrationBody,
  ZDestinationBody,
  ZGeneratedHook,
  ZIntegration,
  ZIntegrationHookList,
  ZIntegrationList,
  ZIntegrationListQuery,
  ZLoaderFields,
  ZLoaderUsers,
  ZPageQuery,
  ZSuccessResponse,
  ZUpdateIntegrationBody,
  ZUpdateOptionsBody,
} from '@leadrelay/shared';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import type { IntegrationRow } from '../../db/schema';
import { authOf } from '../../plugins/auth';
import { forgetSourcesAfterWrites } from '../ingest';
import { connectorRoutes } from './connector.routes';
import * as calls from './connector-calls.service';
import type { AfterConnect } from './connector-connect.service';
import * as destinations from './integration-destinations.service';
import * as service from './integrations.service';
import { oauthConnectRoutes } from './oauth-connect.routes';

const tags = ['integrations'];
const legacy = '/api/legacy/api/admin/integration';
const ZIdParams = z.object({ id: z.string() });
const ZTypeParams = z.object({ id: z.string(), type: z.string() });
/** The URL the destination calls and its event (the destination's notation, which its connector checks; default all). */
const ZRegisterWebhookBody = z
  .object({ url: z.url(), event: z.string().max(100), name: z.string().max(100) })
  .partial()
  .nullish();

export interface IntegrationsRoutesOptions {
  /** Modules' tidying at the destination before an integration is deleted (app-modules.ts lists them). */
  beforeDelete?: (row: IntegrationRow) => Promise<void>;
  /** Modules' follow-up once credentials are stored, whatever the door (the CRM's stage watch); never throws. */
  afterConnect?: AfterConnect;
}

export async function integrationsRoutes(app: FastifyInstance, options: IntegrationsRoutesOptions = {}): Promise<void> {
  const r = app.withTypeProvider<ZodTypeProvider>();
  const { deps, db } = app;
  const user = (req: Parameters<typeof authOf>[0]) => authOf(req).user;
  forgetSourcesAfterWrites(app);
  const afterConnect: AfterConnect = options.afterConnect ?? (async () => {});
  await oauthConnectRoutes(app, { afterConnect });
  await connectorRoutes(app, { afterConnect });

  r.get(
    '/api/integrations',
    {
      config: { access: 'client' },
      schema: { tags, querystring: ZIntegrationListQuery, response: { 200: ZIntegrationList } },
    },
    (req) => service.listIntegrations(db, user(req), req.query),
  );
  r.post(
    '/api/integrations',
    { config: { access: 'client' }, schema: { tags, body: ZCreateIntegrationBody, response: { 201: ZIntegration } } },
    async (req, reply) => reply.code(201).send(await service.createIntegration(db, user(req), req.body)),
  );
  r.get(
    '/api/integrations/:id',
    { config: { access: 'client' }, schema: { tags, params: ZIdParams, response: { 200: ZIntegration } } },
    (req) => service.getIntegration(db, user(req), req.params.id),
  );
  r.put(
    '/api/integrations/:id/update',
    {
      config: { access: 'client' },
      schema: { tags, params: ZIdParams, body: ZUpdateIntegrationBody, response: { 200: ZIntegration } },
    },
    (req) => service.updateIntegration(db, user(req), req.params.id, req.body),
  );
  r.get(
    '/api/integrations/:id/destinations',
    { config: { access: 'client' }, schema: { tags, params: ZIdParams, response: { 200: z.array(ZIntegration) } } },
    (req) => destinations.listDestinations(db, user(req), req.params.id),
  );
  r.get(
    '/api/integrations/:id/generateHook',
    { config: { access: 'client' }, schema: { tags, params: ZIdParams, response: { 200: ZGeneratedHook } } },
    (req) => destinations.generateHook(deps, user(req), req.params.id),
  );
  r.get(
    '/api/integrations/:id/:type/users',
    { config: { access: 'client' }, schema: { tags, params: ZTypeParams, response: { 200: ZLoaderUsers } } },
    (req) => calls.loadList(deps, user(req), req.params.id, req.params.type, 'users') as never,
  );
  r.get(
    '/api/integrations/:id/:type/fields',
    { config: { access: 'client' }, schema: { tags, params: ZTypeParams, response: { 200: ZLoaderFields } } },
    (req) => calls.loadList(deps, user(req), req.params.id, req.params.type, 'fields') as never,
  );
  r.post(
    '/api/integrations/:id/:type/webhooks',
    {
      config: { access: 'client' },
      schema: { tags, params: ZTypeParams, body: ZRegisterWebhookBody, response: { 200: ZSuccessResponse } },
    },
    (req) => calls.registerWebhooks(deps, user(req), req.params.id, req.params.type, req.body ?? {}),
  );

  r.post(
    '/api/admin/integration/:id/check-connection',
    { config: { access: 'client' }, schema: { tags, params: ZIdParams, response: { 200: ZConnectionCheck } } },
    (req) => calls.checkConnection(deps, user(req), req.params.id),
  );
  r.put(
    '/api/admin/integration/:id/connect',
    {
      config: { access: 'client' },
      schema: { tags, params: ZIdParams, body: ZConnectBody, response: { 200: ZConnectResult } },
    },
    async (req) => {
      const result = await calls.connect(deps, user(req), req.params.id, req.body);
      if (req.body.auth !== undefined) await afterConnect({ id: req.params.id });
      return result;
    },
  );

  // Legacy admin paths.
  r.delete(
    `${legacy}/:id`,
    { config: { access: 'client' }, schema: { tags, params: ZIdParams, response: { 200: ZSuccessResponse } } },
    async (req) => {
      await service.deleteIntegration(db, user(req), req.params.id, options.beforeDelete);
      return { success: true as const };
    },
  );
  r.put(
    `${legacy}/:id/update`,
    {
      config: { access: 'client' },
      schema: { tags, params: ZIdParams, body: ZUpdateIntegrationBody, response: { 200: ZIntegration } },
    },
    (req) => service.updateIntegration(db, user(req), req.params.id, req.body),
  );
  r.put(
    `${legacy}/:id/updateOptions`,
    {
      config: { access: 'client' },
      schema: { tags, params: ZIdParams, body: ZUpdateOptionsBody, response: { 200: ZIntegration } },
    },
    (req) => service.updateOptions(db, user(req), req.params.id, req.body.options),
  );
  r.put(
    `${legacy}/:id/addDestination`,
    {
      config: { access: 'client' },
      schema: { tags, params: ZIdParams, body: ZDestinationBody, response: { 200: ZIntegration } },
    },
    (req) => destinations.addDestination(db, user(req), req.params.id, req.body.destination),
  );
  r.put(
    `${legacy}/:id/removeDestination`,
    {
      config: { access: 'client' },
      schema: { tags, params: ZIdParams, body: ZDestinationBody, response: { 200: ZIntegration } },
    },
    (req) => destinations.removeDestination(db, user(req), req.params.id, req.body.destination),
  );
  r.get(
    `${legacy}/:id/webhooks`,
    {
      config: { access: 'client' },
      schema: { tags, params: ZIdParams, querystring: ZPageQuery, response: { 200: ZIntegrationHookList } },
    },
    (req) => destinations.listIntegrationHooks(db, user(req), req.params.id, req.query),
  );
}
