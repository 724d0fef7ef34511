// The receivers connectors with connections declare (kit/connection.ts `inbound.receiver`): the
// service's verification GET and its POST of events. Public (the service calls them); the POST proves
// itself with a signature over the raw bytes, so this plugin keeps JSON bodies as Buffers
// (encapsulated: the rest of the API parses JSON as usual). Events are stored before the answer.
import { InboundRefusal } from '@leadrelay/connectors';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { AppError } from '../../lib/app-error';
import { configOf, connectionConnectors } from './connection-deps';
import { INBOUND_WAKE, storeInboundEvents } from './inbound-events';

const ZVerifyQuery = z.record(z.string(), z.string().max(1000));
const ZAck = z.object({ ok: z.literal(true) });

export async function inboundRoutes(app: FastifyInstance): Promise<void> {
  const list = connectionConnectors();
  const bodyLimit = Math.max(0, ...list.map((c) => c.spec.inbound.receiver.bodyLimit));
  app.removeContentTypeParser('application/json');
  app.addContentTypeParser('application/json', { parseAs: 'buffer', bodyLimit }, (_req, body, done) =>
    done(null, body),
  );
  const r = app.withTypeProvider<ZodTypeProvider>();
  for (const c of list) {
    const receiver = c.spec.inbound.receiver;
    const tags = [c.type];
    r.get(
      receiver.path,
      { config: { access: 'public' }, schema: { tags, summary: receiver.summary.verify, querystring: ZVerifyQuery } },
      async (req, reply) => {
        const challenge = receiver.verify(configOf(app.deps, c.type), req.query);
        if (challenge === null) return reply.code(403).type('text/plain').send('Forbidden');
        return reply.type('text/plain').header('x-content-type-options', 'nosniff').send(challenge);
      },
    );
    r.post(
      receiver.path,
      {
        config: { access: 'public' },
        bodyLimit: receiver.bodyLimit,
        schema: { tags, summary: receiver.summary.receive, response: { 200: ZAck } },
      },
      async (req) => {
        const raw = Buffer.isBuffer(req.body) ? req.body : Buffer.alloc(0);
        let events: ReturnType<typeof receiver.receive>;
        try {
          events = receiver.receive(configOf(app.deps, c.type), raw, req.headers);
        } catch (error) {
          if (error instanceof InboundRefusal) throw new AppError(error.code);
          throw error;
        }
        // Stored before the answer: an acknowledged event survives a crash.
        const stored = await storeInboundEvents(app.db, c.type, events, 'webhook');
        if (stored > 0) app.events.emit(INBOUND_WAKE);
        return { ok: true as const };
      },
    );
  }
}
