import { ZPageQuery, ZReferrals } from '@leadrelay/shared';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { authOf } from '../../plugins/auth';
import { listReferrals } from './referrals.service';

export async function referralsRoutes(app: FastifyInstance): Promise<void> {
  const r = app.withTypeProvider<ZodTypeProvider>();
  r.get(
    '/api/legacy/api/admin/referrals',
    {
      config: { access: 'client' },
      schema: { tags: ['referrals'], querystring: ZPageQuery, response: { 200: ZReferrals } },
    },
    (req) => listReferrals(app.deps.db, authOf(req).user, app.deps.config.publicUrl, req.query.page, req.query.limit),
  );
}
