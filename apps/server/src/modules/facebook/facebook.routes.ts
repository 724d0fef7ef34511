// Meta lead forms (spec 7 "Social-network lead forms", POST {auth host}/facebook/start). /facebook/start
// and /facebook/callback live at the server root: this server is the auth host (AUTH_HOST) by default.
import {
  ZAuthUrl,
  ZFbAccessTokenQuery,
  ZFbAccount,
  ZFbAccountState,
  ZFbAccountsQuery,
  ZFbConnection,
  ZFbConnectionRef,
  ZFbLeadForm,
  ZFbLeadFormBody,
  ZFbMigrateBody,
  ZFbPage,
  ZFbPageItem,
  ZFbPicture,
  ZFbPictureQuery,
  ZFbStartBody,
  ZFbTestLeadBody,
  ZIntegration,
  ZSuccessResponse,
} from '@leadrelay/shared';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { bindStateToBrowser } from '../../lib/oauth-state';
import { authOf } from '../../plugins/auth';
import { registerIntegrationType } from '../integrations';
import * as service from './facebook.service';
import { connectWithSdkCode, FB_OAUTH_COOKIE, handleCallback, startAuth } from './facebook-connect.service';
import { facebookDeps } from './facebook-deps';
import { migrateIntegration } from './facebook-migrate.service';
import { facebookIntegrationType } from './facebook-settings';
import { subscribePage, unsubscribePage } from './facebook-subscribe.service';
import { sendTestLead } from './facebook-test-lead.service';

const tags = ['facebook'];
const legacy = '/api/legacy/api/facebook';
const ZConnectionParams = z.object({ cid: z.string() });
const ZPageParams = z.object({ cid: z.string(), aid: z.string() });
const ZIdParams = z.object({ id: z.string() });
// What the browser brings back from Facebook; every case is answered with a redirect.
const ZCallbackQuery = z.object({
  code: z.string().max(2000).optional(),
  state: z.string().max(4000).optional(),
  error: z.string().max(200).optional(),
  error_reason: z.string().max(200).optional(),
  error_description: z.string().max(1000).optional(),
  error_code: z.string().max(20).optional(),
});

export async function facebookRoutes(app: FastifyInstance): Promise<void> {
  // Facebook integrations' settings name the account's connection and page; their credentials live there.
  registerIntegrationType('facebook', facebookIntegrationType);
  const r = app.withTypeProvider<ZodTypeProvider>();
  const deps = facebookDeps(app);
  const { db } = app;
  const user = (req: Parameters<typeof authOf>[0]) => authOf(req).user;

  r.post(
    '/facebook/start',
    { config: { access: 'client' }, schema: { tags, body: ZFbStartBody.nullish(), response: { 200: ZAuthUrl } } },
    async (req, reply) => {
      const { authUrl, state } = await startAuth(deps, user(req), req.body?.locale);
      bindStateToBrowser(
        reply,
        { name: FB_OAUTH_COOKIE, path: '/facebook/callback' },
        state,
        deps.config.secureCookies,
      );
      return { authUrl };
    },
  );
  r.get(
    '/facebook/callback',
    { config: { access: 'public' }, schema: { tags, querystring: ZCallbackQuery } },
    async (req, reply) => {
      const location = await handleCallback(deps, req.query, req.cookies[FB_OAUTH_COOKIE]);
      reply.clearCookie(FB_OAUTH_COOKIE, { path: '/facebook/callback' });
      return reply.redirect(location, 302);
    },
  );

  r.get(
    '/api/facebook/connections',
    { config: { access: 'client' }, schema: { tags, response: { 200: z.array(ZFbConnection) } } },
    (req) => service.listConnections(db, user(req)),
  );
  r.get(
    '/api/facebook/accountPicture',
    { config: { access: 'client' }, schema: { tags, querystring: ZFbPictureQuery, response: { 200: ZFbPicture } } },
    (req) => service.accountPicture(deps, user(req), req.query.accountId),
  );
  r.get(
    '/api/facebook/connection/:cid/accounts',
    {
      config: { access: 'client' },
      schema: {
        tags,
        params: ZConnectionParams,
        querystring: ZFbAccountsQuery,
        response: { 200: z.array(ZFbAccount) },
      },
    },
    (req) =>
      service.listAccounts(deps, user(req), req.params.cid, req.query.refresh === '1' || req.query.refresh === 'true'),
  );
  r.get(
    '/api/facebook/connection/:cid/account/:aid',
    { config: { access: 'client' }, schema: { tags, params: ZPageParams, response: { 200: ZFbAccountState } } },
    (req) => service.pageState(deps, user(req), req.params.cid, req.params.aid),
  );
  r.post(
    '/api/facebook/connection/:cid/account/:aid/subscribe',
    { config: { access: 'client' }, schema: { tags, params: ZPageParams, response: { 200: ZSuccessResponse } } },
    (req) => subscribePage(deps, user(req), req.params.cid, req.params.aid),
  );
  r.delete(
    '/api/facebook/connection/:cid/account/:aid/unsubscribe',
    { config: { access: 'client' }, schema: { tags, params: ZPageParams, response: { 200: ZSuccessResponse } } },
    (req) => unsubscribePage(deps, user(req), req.params.cid, req.params.aid),
  );

  // Legacy paths (the JS SDK flow and the old screens).
  r.get(
    `${legacy}/accessToken`,
    {
      config: { access: 'client' },
      schema: { tags, querystring: ZFbAccessTokenQuery, response: { 200: z.object({ connectionId: z.string() }) } },
    },
    (req) => connectWithSdkCode(deps, user(req), req.query.code, req.query.redirectUri ?? ''),
  );
  r.post(
    `${legacy}/accounts`,
    { config: { access: 'client' }, schema: { tags, body: ZFbConnectionRef, response: { 200: z.array(ZFbAccount) } } },
    (req) => service.listAccounts(deps, user(req), req.body.connectionId, true),
  );
  r.delete(
    `${legacy}/accounts/:id`,
    { config: { access: 'client' }, schema: { tags, params: ZIdParams, response: { 200: ZSuccessResponse } } },
    (req) => service.deleteConnection(deps, user(req), req.params.id),
  );
  r.post(
    `${legacy}/pages`,
    { config: { access: 'client' }, schema: { tags, body: ZFbConnectionRef, response: { 200: z.array(ZFbPage) } } },
    (req) => service.listPages(db, user(req), req.body.connectionId),
  );
  r.post(
    `${legacy}/leadform`,
    { config: { access: 'client' }, schema: { tags, body: ZFbLeadFormBody, response: { 200: z.array(ZFbLeadForm) } } },
    (req) => service.leadForms(deps, user(req), req.body.connectionId, req.body.pageId),
  );
  r.get(
    '/api/legacy/api/admin/integration/fbPageItems',
    { config: { access: 'client' }, schema: { tags, response: { 200: z.array(ZFbPageItem) } } },
    (req) => service.pageItems(db, user(req)),
  );

  r.post(
    '/api/facebook/integration/:id/test-lead',
    {
      config: { access: 'client' },
      schema: {
        tags,
        params: ZIdParams,
        body: ZFbTestLeadBody.nullish(),
        response: { 200: z.object({ leadgenId: z.string() }) },
      },
    },
    (req) => sendTestLead(deps, user(req), req.params.id, req.body?.fieldData),
  );
  r.post(
    '/api/integrations/migrate/fb/:id',
    {
      config: { access: 'client' },
      schema: { tags, params: ZIdParams, body: ZFbMigrateBody, response: { 200: ZIntegration } },
    },
    (req) => migrateIntegration(deps, user(req), req.params.id, req.body.fbConnectionId),
  );
}
