// Every write made with an API key lands in the audit log with the key's name (issue 34): one
// entry per successful write (a status below 400), naming the route and the path. It is written
// after the route's work and before the answer leaves (onSend), so a client that has its answer
// finds the entry; not in the write's own transaction (a route's service knows nothing of keys),
// and a failure to write it is logged as an error.
import type { FastifyInstance } from 'fastify';
import type { Db } from '../../db/client';
import { READ_METHODS } from '../../plugins/auth';
import { auditActor, recordAudit } from '../audit';

export function auditKeyWrites(app: FastifyInstance, db: Db): void {
  app.addHook('onSend', async (request, reply, payload) => {
    if (!request.auth?.apiKey || READ_METHODS.has(request.method) || reply.statusCode >= 400) return payload;
    try {
      await recordAudit(db, auditActor(request), {
        action: 'api-key.write',
        targetType: 'route',
        targetId: `${request.method} ${request.routeOptions.url ?? ''}`,
        // The path only: a query string may carry what is not for the log.
        targetLabel: request.url.split('?')[0]!.slice(0, 500),
        details: { status: reply.statusCode },
      });
    } catch (error) {
      request.log.error({ err: error }, 'an API key write was not written to the audit log');
    }
    return payload;
  });
}
