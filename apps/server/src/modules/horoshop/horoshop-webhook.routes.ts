// The receiver Horoshop calls: PUT (or POST) /api/horoshop/webhook/{token} with an order (or a
// batch) as JSON, DELETE when the shop removed the subscription. Public, since the shop signs
// nothing: the path's token is the integration's secret ingest token (32 random bytes), the same
// secret the generic webhook URL carries. Encapsulated: any content type is read as bytes (up to
// 1 MB) and parsed here, so a hostile body is a 4xx, never a 500. Orders are acknowledged only after
// their leads are committed (ingest), so a 2xx never loses an order.
import { WEBHOOK_BODY_LIMIT_BYTES } from '@leadrelay/shared';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { AppError } from '../../lib/app-error';
import { storedRequest } from '../ingest';
import { horoshopDeps } from './horoshop-deps';
import { receiveOrders, subscriptionRemoved } from './horoshop-webhook.service';

const tags = ['horoshop'];
const PATH = '/api/horoshop/webhook/:token';
const ZTokenParams = z.object({ token: z.string().min(1).max(200) });
const ZReceived = z.object({
  ok: z.literal(true),
  orders: z.array(z.object({ orderId: z.string(), status: z.string(), hookId: z.string().nullable() })),
});

export async function horoshopWebhookRoutes(app: FastifyInstance): Promise<void> {
  app.removeAllContentTypeParsers();
  app.addContentTypeParser('*', { parseAs: 'buffer', bodyLimit: WEBHOOK_BODY_LIMIT_BYTES }, (_req, body, done) =>
    done(null, body),
  );
  const r = app.withTypeProvider<ZodTypeProvider>();
  const deps = horoshopDeps(app);

  r.route({
    method: ['PUT', 'POST'],
    url: PATH,
    config: { access: 'public', rateLimit: 'webhook' },
    bodyLimit: WEBHOOK_BODY_LIMIT_BYTES,
    schema: {
      tags,
      summary: 'Horoshop order webhook: each order becomes one lead, a repeated order none',
      params: ZTokenParams,
      response: { 200: ZReceived },
    },
    handler: async (req) => {
      const raw = Buffer.isBuffer(req.body) ? req.body : Buffer.alloc(0);
      const meta = storedRequest(req.method, req.headers, undefined, req.ip);
      const orders = await receiveOrders(deps, req.params.token, raw, {
        method: req.method,
        headers: meta.headers,
        contentType: meta.contentType,
        ip: req.ip,
      });
      return { ok: true as const, orders };
    },
  });

  r.delete(
    PATH,
    {
      config: { access: 'public' },
      bodyLimit: WEBHOOK_BODY_LIMIT_BYTES,
      schema: {
        tags,
        summary: 'Horoshop removed the subscription: the integration shows its webhook as removed',
        params: ZTokenParams,
        response: { 200: z.object({ ok: z.literal(true) }) },
      },
    },
    async (req) => {
      await subscriptionRemoved(deps, req.params.token);
      return { ok: true as const };
    },
  );

  // Anything else at this address is a clear 405 naming what it takes (GET brings HEAD with it).
  r.route({
    method: ['GET', 'PATCH', 'OPTIONS'],
    url: PATH,
    config: { access: 'public' },
    schema: { hide: true, params: ZTokenParams },
    handler: async () => {
      throw new AppError('METHOD_NOT_ALLOWED', { headers: { allow: 'PUT, POST, DELETE' } });
    },
  });
}
