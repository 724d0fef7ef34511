import { ZPageQuery } from '@leadrelay/shared';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { listAudit } from './audit.service';

const ZAuditQuery = ZPageQuery.extend({
  action: z
    .string()
    .regex(/^[a-z][a-z.-]{0,63}$/, { message: 'VALIDATION_ERROR' })
    .optional(),
  actorId: z.uuid({ message: 'VALIDATION_ERROR' }).optional(),
  targetId: z.string().min(1).max(200).optional(),
}).strict();

/** Read-only: the app offers no way to change or remove an entry. */
export async function auditRoutes(app: FastifyInstance): Promise<void> {
  const r = app.withTypeProvider<ZodTypeProvider>();
  r.get(
    '/api/super/audit',
    {
      config: { access: 'privileged' },
      schema: {
        tags: ['super-admin'],
        summary: 'The audit log of privileged actions, newest first',
        querystring: ZAuditQuery,
      },
    },
    (req) => listAudit(app.db, req.query),
  );
}
