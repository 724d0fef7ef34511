// GET and POST /api/facebook/webhook: Meta's verification and leadgen notifications. Public (Meta
// calls them); the POST proves itself with X-Hub-Signature-256 over the raw bytes, so this plugin
// keeps JSON bodies as Buffers (encapsulated: the rest of the API parses JSON as usual).
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import {
  FB_WEBHOOK_BODY_LIMIT_BYTES,
  signedNotifications,
  storeNotifications,
  verificationChallenge,
} from './facebook-webhook.service';

const tags = ['facebook'];
/** Meta's signature header (lower case, as Node gives headers). */
const SIGNATURE_256_HEADER = 'x-hub-signature-256';
const ZVerifyQuery = z.record(z.string(), z.string().max(1000));

export async function facebookWebhookRoutes(app: FastifyInstance): Promise<void> {
  app.removeContentTypeParser('application/json');
  app.addContentTypeParser(
    'application/json',
    { parseAs: 'buffer', bodyLimit: FB_WEBHOOK_BODY_LIMIT_BYTES },
    (_req, body, done) => done(null, body),
  );
  const r = app.withTypeProvider<ZodTypeProvider>();

  r.get(
    '/api/facebook/webhook',
    {
      config: { access: 'public' },
      schema: { tags, summary: 'Meta webhook verification (hub.challenge echo)', querystring: ZVerifyQuery },
    },
    async (req, reply) => {
      const challenge = verificationChallenge(app.deps.config, req.query);
      if (challenge === null) return reply.code(403).type('text/plain').send('Forbidden');
      return reply.type('text/plain').header('x-content-type-options', 'nosniff').send(challenge);
    },
  );

  r.post(
    '/api/facebook/webhook',
    {
      config: { access: 'public' },
      bodyLimit: FB_WEBHOOK_BODY_LIMIT_BYTES,
      schema: {
        tags,
        summary: 'Meta leadgen notifications: stored, acknowledged, then fetched and ingested by the worker',
        response: { 200: z.object({ ok: z.literal(true) }) },
      },
    },
    async (req) => {
      const raw = Buffer.isBuffer(req.body) ? req.body : Buffer.alloc(0);
      const notifications = signedNotifications(app.deps.config, raw, req.headers[SIGNATURE_256_HEADER]);
      // Stored before the answer: an acknowledged lead survives a crash.
      const stored = await storeNotifications(app.db, notifications, 'webhook');
      if (stored > 0) app.events.emit('facebook.leadgen');
      return { ok: true as const };
    },
  );
}
