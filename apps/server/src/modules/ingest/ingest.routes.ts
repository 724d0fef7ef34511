import formbody from '@fastify/formbody';
import { WEBHOOK_BODY_LIMIT_BYTES } from '@leadrelay/shared';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { keysAsDataParsers } from './body-parsers';
import { ingestWebhook } from './ingest.service';
import { storedRequest } from './request';

const ZTokenParams = z.object({ token: z.string().min(1).max(200) });
const ZIngestReply = z.object({ ok: z.literal(true), hookId: z.string(), status: z.string() });

export async function ingestRoutes(app: FastifyInstance): Promise<void> {
  // Encapsulated: only the webhook URL reads form and multipart bodies, and keeps every field name
  // as data (body-parsers.ts); the API stays JSON only.
  await app.register(formbody, { bodyLimit: WEBHOOK_BODY_LIMIT_BYTES });
  keysAsDataParsers(app);

  app.withTypeProvider<ZodTypeProvider>().post(
    '/api/hooks/in/:token',
    {
      // A lead is never refused for a stray NUL or a broken character: they are cleaned (plugins/input).
      config: { access: 'public', textPolicy: 'clean', rateLimit: 'webhook' },
      bodyLimit: WEBHOOK_BODY_LIMIT_BYTES,
      schema: {
        tags: ['hooks'],
        summary: 'Webhook source: a lead in JSON, form-urlencoded or multipart fields (up to 1 MB)',
        params: ZTokenParams,
        response: { 200: ZIngestReply, 202: ZIngestReply },
      },
    },
    async (request, reply) => {
      const body = request.body ?? {};
      const idempotencyKey = request.headers['idempotency-key'];
      const result = await ingestWebhook(
        { db: app.db, events: app.events, log: request.log },
        {
          token: request.params.token,
          body,
          idempotencyKey: typeof idempotencyKey === 'string' ? idempotencyKey : undefined,
          request: storedRequest(request.method, request.headers, body, request.ip),
        },
      );
      return reply.code(result.httpStatus).send({ ok: true, hookId: result.hookId, status: result.status });
    },
  );
}
