// Uspacy: its connect route and account summary (uspacy.service), and its lists as loader routes
// over the connector (funnels with stages, fields, users). Every path is the signed-in account's own
// integration of type uspacy; anything else answers INTEGRATION_NOT_FOUND.
import {
  ZUspacyAccount,
  ZUspacyConnectBody,
  ZUspacyConnectResult,
  ZUspacyFields,
  ZUspacyFunnel,
  ZUspacyUser,
} from '@leadrelay/shared';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { authOf } from '../../plugins/auth';
import { registerLoaderRoutes } from '../integrations';
import * as service from './uspacy.service';

const tags = ['uspacy'];
const base = '/api/uspacy';
const ZIdParams = z.object({ id: z.string() });

export async function uspacyRoutes(app: FastifyInstance): Promise<void> {
  const r = app.withTypeProvider<ZodTypeProvider>();
  const { deps } = app;

  r.post(
    `${base}/connect`,
    {
      config: { access: 'client' },
      schema: { tags, body: ZUspacyConnectBody, response: { 200: ZUspacyConnectResult } },
    },
    (req) => service.connect(deps, authOf(req).user, req.body),
  );
  r.get(
    `${base}/account/:id`,
    { config: { access: 'client' }, schema: { tags, params: ZIdParams, response: { 200: ZUspacyAccount } } },
    (req) => service.account(deps, authOf(req).user, req.params.id),
  );
  registerLoaderRoutes(
    app,
    service.TYPE,
    [
      { path: `${base}/leadFunnels/:id`, list: 'leadFunnels', response: z.array(ZUspacyFunnel) },
      { path: `${base}/dealFunnels/:id`, list: 'dealFunnels', response: z.array(ZUspacyFunnel) },
      { path: `${base}/fields/:id`, list: 'uspacyFields', response: ZUspacyFields },
      { path: `${base}/users/:id`, list: 'uspacyUsers', response: z.array(ZUspacyUser) },
    ],
    // Uspacy refusing a request itself (a 4xx other than auth) answers CRM_REQUEST_FAILED with its reason.
    { tags, refusal: 'CRM_REQUEST_FAILED' },
  );
}
