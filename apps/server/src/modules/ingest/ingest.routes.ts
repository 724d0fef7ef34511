import formbody from '@fastify/formbody';
import multipart from '@fastify/multipart';
import { WEBHOOK_BODY_LIMIT_BYTES } from '@leadrelay/shared';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { AppError } from '../../plugins/errors';
import { storableText } from '../../plugins/input';
import { ingestWebhook } from './ingest.service';
import { storedRequest } from './request';

const ZTokenParams = z.object({ token: z.string().min(1).max(200) });
const ZIngestReply = z.object({ ok: z.literal(true), hookId: z.string(), status: z.string() });

/** Multipart fields as a flat object (repeated names become lists); files are read and dropped. */
async function multipartFields(request: FastifyRequest): Promise<Record<string, unknown>> {
  const fields: Record<string, unknown> = {};
  let bytes = 0;
  for await (const part of request.parts()) {
    if (part.type === 'file') {
      for await (const chunk of part.file) bytes += (chunk as Buffer).length;
    } else {
      const value = typeof part.value === 'string' ? part.value : String(part.value ?? '');
      if (part.valueTruncated) throw new AppError('PAYLOAD_TOO_LARGE');
      bytes += Buffer.byteLength(value) + part.fieldname.length;
      const previous = fields[part.fieldname];
      fields[part.fieldname] =
        previous === undefined ? value : Array.isArray(previous) ? [...previous, value] : [previous, value];
    }
    if (bytes > WEBHOOK_BODY_LIMIT_BYTES) throw new AppError('PAYLOAD_TOO_LARGE');
  }
  return fields;
}

export async function ingestRoutes(app: FastifyInstance): Promise<void> {
  // Encapsulated: only the webhook URL reads form and multipart bodies; the API stays JSON only.
  await app.register(formbody, { bodyLimit: WEBHOOK_BODY_LIMIT_BYTES });
  await app.register(multipart, {
    limits: { fieldSize: WEBHOOK_BODY_LIMIT_BYTES, fields: 1000, files: 20, fileSize: WEBHOOK_BODY_LIMIT_BYTES },
    throwFileSizeLimit: true,
  });

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
      const body = request.isMultipart() ? storableText(await multipartFields(request)) : (request.body ?? {});
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
