import { ZPageQuery } from '@leadrelay/shared';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { listErrorRecords, restartErrorRecord } from './delivery-errors.service';

const ZErrorsQuery = ZPageQuery.extend({ accountId: z.uuid({ message: 'VALIDATION_ERROR' }).optional() }).strict();
const ZIdParams = z.object({ id: z.uuid({ message: 'VALIDATION_ERROR' }) });

export async function deliveryErrorsRoutes(app: FastifyInstance): Promise<void> {
  const r = app.withTypeProvider<ZodTypeProvider>();
  const tags = ['super-admin'];

  r.get(
    '/api/legacy/api/super-admin/errors',
    {
      config: { access: 'privileged' },
      schema: { tags, summary: 'Deliveries that failed for good, with their attempts', querystring: ZErrorsQuery },
    },
    (req) => listErrorRecords(app.db, req.query),
  );

  r.post(
    '/api/legacy/api/super-admin/errors/:id',
    { config: { access: 'privileged' }, schema: { tags, summary: 'Restart: deliver again now', params: ZIdParams } },
    (req) => restartErrorRecord(app.db, app.events, req.params.id),
  );
}
