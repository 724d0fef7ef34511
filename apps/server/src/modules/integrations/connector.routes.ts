// What connector definitions declare, mounted once for all of them (issue 29):
//   POST   /api/integrations/{id}/actions/{action}: an action of the integration's connector (a test event's check;
//          201 with the kept record for one that keeps its answer: a backup)
//   GET    /api/integrations/{id}/records/{kind}: what the connector keeps (the SMS log, backups)
//   POST   /api/integrations/{id}/credentials: connects with what was typed (an API token, a sign-in)
//   GET    /api/integrations/{id}/account: how it is connected, nothing secret
//   GET    /api/integrations/{id}/webhooks, POST (create), DELETE …/webhooks/{webhookId}: the destination's webhooks
// and each definition's aliases, the spec's own paths for these (connector-aliases.routes.ts). The
// OAuth flow's routes are in oauth-connect.routes.ts; a source's connect, screen and receivers in
// source.routes.ts.
import { getConnector } from '@leadrelay/connectors';
import { ZSuccessResponse } from '@leadrelay/shared';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { AppError } from '../../lib/app-error';
import { authOf } from '../../plugins/auth';
import { zodAppError } from '../../plugins/errors';
import { runAction } from './connector-actions.service';
import { mountAliases } from './connector-aliases.routes';
import { remoteWebhooks } from './connector-calls.service';
import { type AfterConnect, connectionAccount, connectWithCredentials } from './connector-connect.service';
import { listRecords } from './connector-records.service';
import { ownRow } from './integration-rows';
import { sourceRoutes } from './source.routes';

const tags = ['integrations'];
const ZIdParams = z.object({ id: z.string() });
const ZActionParams = z.object({ id: z.string(), action: z.string().max(100) });
const ZRecordParams = z.object({ id: z.string(), kind: z.string().max(100) });
const ZRecordQuery = z
  .object({
    page: z.coerce.number().int().min(1).max(100_000).default(1),
    limit: z.coerce.number().int().min(1).max(100).default(10),
    status: z.string().max(50).optional(),
  })
  .strict();
const ZRecordList = z.object({ data: z.array(z.record(z.string(), z.unknown())), total: z.number() });
const ZCredentialsBody = z.record(z.string(), z.unknown()).nullish();
const ZWebhook = z.object({ id: z.string(), url: z.string(), event: z.string(), active: z.boolean() });
/** The URL the destination calls and its event, in the destination's notation. */
const ZWebhookBody = z.object({
  url: z.url(),
  event: z.string().min(1).max(100),
  name: z.string().max(100).optional(),
});

export async function connectorRoutes(app: FastifyInstance, options: { afterConnect: AfterConnect }): Promise<void> {
  const r = app.withTypeProvider<ZodTypeProvider>();
  const { deps } = app;
  const user = (req: Parameters<typeof authOf>[0]) => authOf(req).user;

  r.post(
    '/api/integrations/:id/actions/:action',
    { config: { access: 'client' }, schema: { tags, params: ZActionParams } },
    async (req, reply) => {
      const { status, answer } = await runAction(deps, user(req), req.params.id, req.params.action, req.body);
      return reply.code(status).send(answer);
    },
  );
  r.get(
    '/api/integrations/:id/records/:kind',
    {
      config: { access: 'client' },
      schema: { tags, params: ZRecordParams, querystring: ZRecordQuery, response: { 200: ZRecordList } },
    },
    async (req) => {
      const row = await ownRow(app.db, user(req), req.params.id);
      return listRecords(app.db, user(req), row.type, req.params.kind, { ...req.query, integrationId: row.id });
    },
  );
  r.post(
    '/api/integrations/:id/credentials',
    { config: { access: 'client' }, schema: { tags, params: ZIdParams, body: ZCredentialsBody } },
    async (req) => {
      const row = await ownRow(deps.db, user(req), req.params.id);
      const connect = getConnector(row.type)?.connect;
      if (!connect) throw new AppError('OPERATION_NOT_SUPPORTED');
      // The connector's schema checks the body, with the integration the path names, as a route's schema would.
      const parsed = connect.body.safeParse({ ...req.body, integrationId: row.id });
      if (!parsed.success) throw zodAppError('', parsed.error);
      return connectWithCredentials(deps, user(req), row.type, parsed.data as never, options.afterConnect);
    },
  );
  r.get('/api/integrations/:id/account', { config: { access: 'client' }, schema: { tags, params: ZIdParams } }, (req) =>
    connectionAccount(deps, user(req), req.params.id),
  );

  // The destination's webhooks: its own refusal of a request answers CRM_REQUEST_FAILED with its reason.
  const webhooks = async (req: Parameters<typeof authOf>[0], id: string) => {
    const row = await ownRow(deps.db, user(req), id);
    return remoteWebhooks(deps, user(req), row.id, row.type, 'CRM_REQUEST_FAILED');
  };
  r.get(
    '/api/integrations/:id/webhooks',
    { config: { access: 'client' }, schema: { tags, params: ZIdParams, response: { 200: z.array(ZWebhook) } } },
    async (req) => (await webhooks(req, req.params.id)).list(),
  );
  r.post(
    '/api/integrations/:id/webhooks',
    {
      config: { access: 'client' },
      schema: { tags, params: ZIdParams, body: ZWebhookBody, response: { 200: ZWebhook } },
    },
    async (req) => (await webhooks(req, req.params.id)).create(req.body),
  );
  r.delete(
    '/api/integrations/:id/webhooks/:webhookId',
    {
      config: { access: 'client' },
      schema: {
        tags,
        params: z.object({ id: z.string(), webhookId: z.string().min(1).max(50) }),
        response: { 200: ZSuccessResponse },
      },
    },
    async (req) => {
      await (await webhooks(req, req.params.id)).remove(req.params.webhookId);
      return { success: true as const };
    },
  );

  mountAliases(app, options);
  // A source's connect, screen, receivers and polls (kit/source.ts).
  await sourceRoutes(app);
}
