// amoCRM (spec 7 "amoCRM"): its paths, thin over the generic OAuth flow and loaders
// (modules/integrations), and its backups.
import {
  ZAmoBackup,
  ZAmoBackupBody,
  ZAmoBackupList,
  ZAmoConnectBody,
  ZAmoFields,
  ZAmoParserTargets,
  ZAmoPipeline,
  ZAmoUser,
  ZOAuthUrl,
} from '@leadrelay/shared';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { bindStateToBrowser } from '../../lib/oauth-state';
import { authOf } from '../../plugins/auth';
import { watchAfterConnect } from '../crm-events';
import { finishAtCallback, registerLoaderRoutes, startConnect } from '../integrations';
import * as service from './amocrm.service';

/** The consent must come back to the browser that asked for it (lib/oauth-state). */
const AMO_OAUTH_COOKIE = { name: 'lr_amo_oauth', path: '/api/amocrm/callback' };

const tags = ['amocrm'];
const legacy = '/api/legacy/api/amocrm';
const ZIdParams = z.object({ id: z.string() });
// The browser brings whatever amoCRM (or anyone) put in the URL: nothing here is refused as a 400,
// the service answers every case with a redirect to the integration's screen.
const ZCallbackQuery = z.object({
  code: z.string().max(4000).optional(),
  state: z.string().max(4000).optional(),
  referer: z.string().max(300).optional(),
});

export async function amocrmRoutes(app: FastifyInstance): Promise<void> {
  const r = app.withTypeProvider<ZodTypeProvider>();
  const { deps, db } = app;
  const user = (req: Parameters<typeof authOf>[0]) => authOf(req).user;

  r.post(
    `${legacy}/connect`,
    { config: { access: 'client' }, schema: { tags, body: ZAmoConnectBody, response: { 200: ZOAuthUrl } } },
    async (req, reply) => {
      const { url, state } = await startConnect(deps, user(req), 'amocrm', req.body.integrationId, req.body.locale);
      bindStateToBrowser(reply, AMO_OAUTH_COOKIE, state, deps.config.secureCookies);
      return { url };
    },
  );
  r.get(
    '/api/amocrm/callback',
    { config: { access: 'public' }, schema: { tags, querystring: ZCallbackQuery } },
    async (req, reply) => {
      // Connected: amoCRM is asked to post its status changes to us (speed to lead).
      const location = await finishAtCallback(deps, 'amocrm', req.query, req.cookies[AMO_OAUTH_COOKIE.name], (row) =>
        watchAfterConnect(deps, row),
      );
      reply.clearCookie(AMO_OAUTH_COOKIE.name, { path: AMO_OAUTH_COOKIE.path });
      return reply.redirect(location, 302);
    },
  );
  registerLoaderRoutes(
    app,
    'amocrm',
    [
      { path: `${legacy}/users/:id`, list: 'amoUsers', response: z.array(ZAmoUser) },
      { path: `${legacy}/pipelines/:id`, list: 'pipelines', response: z.array(ZAmoPipeline) },
      { path: `${legacy}/fields/:id`, list: 'customFields', response: ZAmoFields },
      { path: `${legacy}/parser/:id`, list: 'parser', response: ZAmoParserTargets },
    ],
    { tags },
  );
  r.post(
    `${legacy}/backup`,
    { config: { access: 'client' }, schema: { tags, body: ZAmoBackupBody, response: { 201: ZAmoBackup } } },
    async (req, reply) => reply.code(201).send(await service.createBackup(deps, user(req), req.body.integrationId)),
  );
  r.get(
    `${legacy}/backup/:id`,
    { config: { access: 'client' }, schema: { tags, params: ZIdParams, response: { 200: ZAmoBackupList } } },
    (req) => service.listBackups(db, user(req), req.params.id),
  );
}
