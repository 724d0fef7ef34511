import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { authOf } from '../../plugins/auth';
import { listAlerts } from './guardian.service';

export async function guardianRoutes(app: FastifyInstance): Promise<void> {
  const r = app.withTypeProvider<ZodTypeProvider>();
  r.get(
    '/api/guardian/alerts',
    {
      config: { access: 'client' },
      schema: { tags: ['guardian'], summary: "The guardian's alerts of the account (droughts), newest first" },
    },
    (req) => listAlerts(app.db, authOf(req).user.id),
  );
}
