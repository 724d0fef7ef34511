// AlphaSMS's own routes: the account's SMS log (spec 7 "Other": GET /api/legacy/api/admin/sms) and
// the balance an integration's page shows (a loader of the connector, like the CRMs' lists).
import { ZSmsBalance, ZSmsList, ZSmsListQuery } from '@leadrelay/shared';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { authOf } from '../../plugins/auth';
import { registerLoaderRoutes } from '../integrations';
import { listSms } from './sms.service';

const tags = ['sms'];

export async function smsRoutes(app: FastifyInstance): Promise<void> {
  const r = app.withTypeProvider<ZodTypeProvider>();
  r.get(
    '/api/legacy/api/admin/sms',
    { config: { access: 'client' }, schema: { tags, querystring: ZSmsListQuery, response: { 200: ZSmsList } } },
    (req) => listSms(app.db, authOf(req).user, req.query),
  );
  registerLoaderRoutes(app, 'alfasms', [{ path: '/api/alfasms/balance/:id', list: 'balance', response: ZSmsBalance }], {
    tags,
  });
}
