// What connector definitions declare, mounted once for all of them (issue 29):
//   POST /api/integrations/{id}/actions/{action}: an action of the integration's connector (GA4's debug)
//   GET  /api/integrations/{id}/records/{kind}:   what the connector keeps of its deliveries (the SMS log)
// and each definition's aliases: the spec's own paths for its lists, actions and records. A connector's
// own connect and a source's receivers, poll and screen: source.routes.ts.
import { type ConnectorAlias, connectors } from '@leadrelay/connectors';
import { ownValue } from '@leadrelay/shared';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import type { Deps } from '../../config';
import { AppError } from '../../lib/app-error';
import { authOf } from '../../plugins/auth';
import { zodAppError } from '../../plugins/errors';
import { callConnector } from './connector-calls.service';
import { listRecords } from './connector-records.service';
import type { Actor } from './integration-rows';
import { ownRow } from './integration-rows';
import { registerLoaderRoutes } from './loader-routes';
import { mountSourceAlias, sourceRoutes } from './source.routes';

const tags = ['integrations'];
const ZIdParams = z.object({ id: z.string() });
const ZActionParams = z.object({ id: z.string(), action: z.string().max(100) });
const ZRecordParams = z.object({ id: z.string(), kind: z.string().max(100) });
export const ZRecordQuery = z
  .object({
    page: z.coerce.number().int().min(1).max(100_000).default(1),
    limit: z.coerce.number().int().min(1).max(100).default(10),
    status: z.string().max(50).optional(),
  })
  .strict();
const ZRecordList = z.object({ data: z.array(z.record(z.string(), z.unknown())), total: z.number() });

/** Runs action `name` of the actor's integration `id` (of `type` when an alias names it) with `body`. */
async function runAction(deps: Deps, actor: Actor, id: string, name: string, body: unknown, type?: string) {
  const row = await ownRow(deps.db, actor, id);
  const action = ownValue(connectors.get(row.type)?.actions, name) as
    | NonNullable<NonNullable<ReturnType<typeof connectors.get>>['actions']>[string]
    | undefined;
  if (!action || typeof action.run !== 'function') throw new AppError('OPERATION_NOT_SUPPORTED');
  const parsed = action.body ? action.body.safeParse(body) : { success: true as const, data: body };
  if (!parsed.success) throw zodAppError('body', parsed.error);
  return callConnector(deps, actor, id, type ?? row.type, (_connector, ctx) => action.run(ctx, parsed.data));
}

function mountAlias(app: FastifyInstance, type: string, alias: ConnectorAlias): void {
  const r = app.withTypeProvider<ZodTypeProvider>();
  const aliasTags = [type];
  if ('list' in alias) {
    registerLoaderRoutes(app, type, [{ path: alias.path, list: alias.list, response: alias.response }], {
      tags: aliasTags,
    });
  } else if ('action' in alias) {
    const action = connectors.get(type)?.actions?.[alias.action];
    r.post(
      alias.path,
      {
        config: { access: 'client' },
        schema: {
          tags: aliasTags,
          params: ZIdParams,
          ...(action?.body ? { body: action.body } : {}),
          ...(action?.response ? { response: { 200: action.response } } : {}),
        },
      },
      (req) => runAction(app.deps, authOf(req).user, req.params.id, alias.action, req.body, type) as never,
    );
  } else if ('records' in alias) {
    r.get(
      alias.path,
      {
        config: { access: 'client' },
        schema: { tags: aliasTags, querystring: alias.query, response: { 200: alias.response } },
      },
      (req) => listRecords(app.db, authOf(req).user, type, alias.records, req.query) as never,
    );
  } else mountSourceAlias(app, type, alias);
}

export async function connectorRoutes(app: FastifyInstance): Promise<void> {
  const r = app.withTypeProvider<ZodTypeProvider>();
  r.post(
    '/api/integrations/:id/actions/:action',
    { config: { access: 'client' }, schema: { tags, params: ZActionParams } },
    (req) => runAction(app.deps, authOf(req).user, req.params.id, req.params.action, req.body),
  );
  r.get(
    '/api/integrations/:id/records/:kind',
    {
      config: { access: 'client' },
      schema: { tags, params: ZRecordParams, querystring: ZRecordQuery, response: { 200: ZRecordList } },
    },
    async (req) => {
      const user = authOf(req).user;
      const row = await ownRow(app.db, user, req.params.id);
      return listRecords(app.db, user, row.type, req.params.kind, { ...req.query, integrationId: row.id });
    },
  );
  await sourceRoutes(app);
  for (const connector of connectors.values()) {
    for (const alias of connector.aliases ?? []) mountAlias(app, connector.slug, alias);
  }
}
