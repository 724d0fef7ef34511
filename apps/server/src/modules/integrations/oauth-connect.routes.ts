// The generic routes of the OAuth connect flow and the connectors' lists, for a connector with no
// spec paths of its own (amoCRM and Pipedrive keep theirs, thin over the same services):
//   POST /api/integrations/{id}/oauth/start {locale?} → {url}: the consent page, the state bound to this browser
//   GET  /api/oauth/{type}/callback (public): the provider's return → the integration's screen (?connected=1 | ?error=CODE)
//   GET  /api/integrations/{id}/{type}/lists/{list}: one of the connector's loaders
// A connector using them declares `callback: { base: 'publicUrl', path: '/api/oauth/<slug>/callback' }`.
import { ZOAuthUrl } from '@leadrelay/shared';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { AppError } from '../../lib/app-error';
import { bindStateToBrowser } from '../../lib/oauth-state';
import { authOf } from '../../plugins/auth';
import { loadList } from './connector-calls.service';
import { ownRow } from './integration-rows';
import { finishAtCallback, oauthConnector, startConnect } from './oauth-connect.service';

const tags = ['integrations'];
export const genericCallbackPath = (type: string) => `/api/oauth/${type}/callback`;
const cookieOf = (type: string) => ({ name: `lr_oauth_${type}`, path: genericCallbackPath(type) });
const ZType = z.string().regex(/^[a-z0-9-]{1,50}$/);
const ZStartBody = z.object({ locale: z.enum(['uk', 'en']).optional() }).nullish();
// Whatever the provider (or anyone) put in the URL: every case is answered with a redirect.
const ZCallbackQuery = z.object({
  code: z.string().max(4000).optional(),
  state: z.string().max(4000).optional(),
  referer: z.string().max(300).optional(),
});

export async function oauthConnectRoutes(app: FastifyInstance): Promise<void> {
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
      // Only connectors whose provider returns to the generic callback (the others have their own spec paths).
      if (oauthConnector(row.type).oauth.callback.path !== genericCallbackPath(row.type)) {
        throw new AppError('OPERATION_NOT_SUPPORTED');
      }
      const { url, state } = await startConnect(deps, user, row.type, row.id, req.body?.locale);
      bindStateToBrowser(reply, cookieOf(row.type), state, deps.config.secureCookies);
      return { url };
    },
  );
  r.get(
    '/api/oauth/:type/callback',
    { config: { access: 'public' }, schema: { tags, params: z.object({ type: ZType }), querystring: ZCallbackQuery } },
    async (req, reply) => {
      const cookie = cookieOf(req.params.type);
      const location = await finishAtCallback(deps, req.params.type, req.query, req.cookies[cookie.name]);
      reply.clearCookie(cookie.name, { path: cookie.path });
      return reply.redirect(location, 302);
    },
  );
  r.get(
    '/api/integrations/:id/:type/lists/:list',
    {
      config: { access: 'client' },
      schema: { tags, params: z.object({ id: z.string(), type: z.string(), list: z.string().max(100) }) },
    },
    (req) => loadList(deps, authOf(req).user, req.params.id, req.params.type, req.params.list),
  );
}
