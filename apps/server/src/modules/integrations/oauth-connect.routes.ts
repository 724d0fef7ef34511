// The OAuth connect flow's routes, for every connector whose definition declares `oauth` with a code
// exchange, and the connectors' lists:
//   POST /api/integrations/{id}/oauth/start {locale?} → {url}: the consent page; the state is bound to
//        this browser when the connector's callback finishes the connect
//   GET  <oauth.callback.path> (public), each definition's own: the provider's return. lands
//        integration: → the integration's screen (?connected=1 | ?error=CODE); connectScreen: → the
//        web's connect screen with ?code&state (or ?error=CODE), which posts them to
//   POST /api/oauth/{type}/connect {code, state} → {integrationId, type} (or the connector's alias)
//   GET  /api/oauth/{type}/callback (public): a return to a connector that declares no such path →
//        its screen with ?error=OAUTH_STATE_INVALID
//   GET  /api/integrations/{id}/{type}/lists/{list}: one of the connector's loaders (a refusal answers
//        as the definition's loaderRefusal says)
// The spec's own paths for these steps are aliases the connectors declare (connector-aliases.routes.ts).
import { connectors } from '@leadrelay/connectors';
import { ZOAuthUrl } from '@leadrelay/shared';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { bindStateToBrowser } from '../../lib/oauth-state';
import { authOf } from '../../plugins/auth';
import { loaderRefusalOf, loadList } from './connector-calls.service';
import { type AfterConnect, connectWithScreenCode } from './connector-connect.service';
import { ownRow } from './integration-rows';
import { callbackOf, callbackToScreen, finishAtCallback, oauthConnector, startConnect } from './oauth-connect.service';

const tags = ['integrations'];
const ZType = z.string().regex(/^[a-z0-9-]{1,50}$/);
const ZStartBody = z.object({ locale: z.enum(['uk', 'en']).optional() }).nullish();
// Whatever the provider (or anyone) put in the URL: every case is answered with a redirect.
const ZFinishQuery = z.object({
  code: z.string().max(4000).optional(),
  state: z.string().max(4000).optional(),
  referer: z.string().max(300).optional(),
});
const ZScreenQuery = z.object({
  code: z.string().max(2000).optional(),
  state: z.string().max(4000).optional(),
  error: z.string().max(200).optional(),
});
const ZCodeBody = z.object({ code: z.string().min(1).max(2000), state: z.string().min(1).max(4000) });
const ZCodeConnected = z.object({ integrationId: z.string(), type: z.string() });

/** The definitions whose OAuth ends in credentials on the integration (the generic flow runs it). */
const oauthConnectors = () => [...connectors.values()].filter((c) => c.oauth?.exchangeCode);

export async function oauthConnectRoutes(app: FastifyInstance, options: { afterConnect: AfterConnect }): Promise<void> {
  const r = app.withTypeProvider<ZodTypeProvider>();
  const { deps } = app;

  r.post(
    '/api/integrations/:id/oauth/start',
    {
      config: { access: 'client' },
      schema: { tags, params: z.object({ id: z.string() }), body: ZStartBody, response: { 200: ZOAuthUrl } },
    },
    async (req, reply) => {
      const user = authOf(req).user;
      const row = await ownRow(deps.db, user, req.params.id);
      const callback = callbackOf(oauthConnector(row.type));
      const { url, state } = await startConnect(deps, user, row.type, row.id, req.body?.locale);
      if (callback.lands === 'integration') {
        bindStateToBrowser(reply, callback.cookie, state, deps.config.secureCookies);
      }
      return { url };
    },
  );

  // Each definition's callback, where it says the provider returns.
  for (const connector of oauthConnectors()) {
    const type = connector.slug;
    const callback = callbackOf(oauthConnector(type));
    if (callback.lands === 'connectScreen') {
      // The browser goes on to the web app's connect screen, signed in or not.
      r.get(
        callback.path,
        { config: { access: 'public' }, schema: { tags: [type], querystring: ZScreenQuery } },
        async (req, reply) => reply.redirect(await callbackToScreen(deps, type, req.query), 302),
      );
      continue;
    }
    r.get(
      callback.path,
      { config: { access: 'public' }, schema: { tags: [type], querystring: ZFinishQuery } },
      async (req, reply) => {
        const location = await finishAtCallback(
          deps,
          type,
          req.query,
          req.cookies[callback.cookie.name],
          options.afterConnect,
        );
        reply.clearCookie(callback.cookie.name, { path: callback.cookie.path });
        return reply.redirect(location, 302);
      },
    );
  }
  // A return no definition declares: never bound to a browser, so always refused.
  r.get(
    '/api/oauth/:type/callback',
    { config: { access: 'public' }, schema: { tags, params: z.object({ type: ZType }), querystring: ZFinishQuery } },
    async (req, reply) => reply.redirect(await finishAtCallback(deps, req.params.type, req.query, undefined), 302),
  );
  r.post(
    '/api/oauth/:type/connect',
    {
      config: { access: 'client' },
      schema: { tags, params: z.object({ type: ZType }), body: ZCodeBody, response: { 200: ZCodeConnected } },
    },
    (req) => connectWithScreenCode(deps, authOf(req).user, req.params.type, req.body, options.afterConnect),
  );
  r.get(
    '/api/integrations/:id/:type/lists/:list',
    {
      config: { access: 'client' },
      schema: { tags, params: z.object({ id: z.string(), type: z.string(), list: z.string().max(100) }) },
    },
    (req) =>
      loadList(
        deps,
        authOf(req).user,
        req.params.id,
        req.params.type,
        req.params.list,
        loaderRefusalOf(req.params.type),
      ),
  );
}
