// The spec's paths of every connector that declares connections (kit/connection.ts `aliases`), each
// kind mounted here once: the login (start, callback, a code the service's SDK got), the account's
// connections and their assets, an asset's state, subscribing it, forgetting a connection, moving an
// integration to another connection and an integration's action on its asset. The connector's schemas
// check the request and its `answer` shapes the generic result, so the answers are the spec's. Ids from
// the URL are data: another account's connection, or a name such as `__proto__`, answers 404.
import type { ConnectionAlias } from '@leadrelay/connectors';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { bindStateToBrowser } from '../../lib/oauth-state';
import { authOf } from '../../plugins/auth';
import { registerIntegrationType } from '../integrations';
import { type ConnectionConnector, connectionConnectors, connectionDeps } from './connection-deps';
import { connectionIntegrationType, migrateIntegration, runConnectionAction } from './connection-integrations';
import { connectWithSdkCode, handleCallback, startLogin } from './connection-login.service';
import * as service from './connections.service';

// What the browser brings back from the service's dialog; every case is answered with a redirect.
const ZCallbackQuery = z.object({
  code: z.string().max(2000).optional(),
  state: z.string().max(4000).optional(),
  error: z.string().max(200).optional(),
  error_reason: z.string().max(200).optional(),
  error_description: z.string().max(1000).optional(),
  error_code: z.string().max(20).optional(),
});

const text = (v: string | boolean | undefined) => (typeof v === 'string' ? v : '');

export async function connectionsRoutes(app: FastifyInstance): Promise<void> {
  for (const c of connectionConnectors()) {
    // The connector's integrations' settings name the account's connection and asset; their credentials live there.
    registerIntegrationType(c.type, connectionIntegrationType(c));
    for (const alias of c.spec.aliases) mountAlias(app, c, alias);
  }
}

function mountAlias(app: FastifyInstance, c: ConnectionConnector, alias: ConnectionAlias): void {
  const deps = connectionDeps(app);
  const { db } = app;
  const { cookie, path: callbackPath } = c.spec.login.callback;
  const tags = [c.type];

  if (alias.connection === 'callback') {
    app
      .withTypeProvider<ZodTypeProvider>()
      .get(
        alias.path,
        { config: { access: 'public' }, schema: { tags, querystring: ZCallbackQuery } },
        async (req, reply) => {
          const location = await handleCallback(deps, c, req.query, req.cookies[cookie]);
          reply.clearCookie(cookie, { path: callbackPath });
          return reply.redirect(location, 302);
        },
      );
    return;
  }

  const run = async (req: FastifyRequest, reply: FastifyReply): Promise<unknown> => {
    const actor = authOf(req).user;
    const input = alias.read?.({ params: req.params, query: req.query, body: req.body }) ?? {};
    const connectionId = text(input.connectionId);
    const assetId = text(input.assetId);
    switch (alias.connection) {
      case 'start': {
        const locale = (req.body as { locale?: 'uk' | 'en' } | null | undefined)?.locale;
        const { authUrl, state } = await startLogin(deps, c, actor, locale);
        bindStateToBrowser(reply, { name: cookie, path: callbackPath }, state, deps.config.secureCookies);
        return { authUrl };
      }
      case 'code':
        return connectWithSdkCode(deps, c, actor, text(input.code), text(input.redirectUri));
      case 'list':
        return service.listConnections(db, c, actor);
      case 'picture':
        return service.picture(deps, c, actor, text(input.objectId));
      case 'assets':
        return service.connectionAssets(deps, c, actor, connectionId, input.refresh === true);
      case 'assetList':
        return service.listAssets(db, c, actor, connectionId);
      case 'asset':
        return service.assetState(deps, c, actor, connectionId, assetId);
      case 'subscribe':
        return service.subscribeAsset(deps, c, actor, connectionId, assetId);
      case 'unsubscribe':
        return service.unsubscribeAsset(deps, c, actor, connectionId, assetId);
      case 'remove':
        return service.removeConnection(deps, c, actor, connectionId);
      case 'assetItems':
        return service.assetItems(db, c, actor);
      case 'migrate':
        return migrateIntegration(deps, c, actor, text(input.integrationId), connectionId);
      case 'action':
        return runConnectionAction(deps, c, actor, text(input.integrationId), alias.action ?? '', req.body);
    }
  };

  app.withTypeProvider<ZodTypeProvider>().route({
    method: alias.method,
    url: alias.path,
    config: { access: 'client' },
    schema: {
      tags,
      ...(alias.params ? { params: alias.params } : {}),
      ...(alias.query ? { querystring: alias.query } : {}),
      ...(alias.body ? { body: alias.body } : {}),
      ...(alias.response ? { response: { 200: alias.response } } : {}),
    },
    handler: async (req, reply) => {
      const result = await run(req, reply);
      return alias.answer ? alias.answer(result) : result;
    },
  });
}
