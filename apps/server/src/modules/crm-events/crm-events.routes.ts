// What the CRMs post to us (issue 19, speed to lead; ADR 010): the stage-change webhook of every
// connector that declares a stageWatch (form-encoded PHP-style arrays or JSON, as its `read` takes
// them), one URL per destination with its secret (crm-watch.service.ts makes the subscription).
// Public: only the secret in the path authenticates; an unknown integration and a wrong secret both
// get a bare 404. Encapsulated, so only these routes read form bodies.
import formbody from '@fastify/formbody';
import { connectors } from '@leadrelay/connectors';
import { WEBHOOK_BODY_LIMIT_BYTES, ZCrmWatch } from '@leadrelay/shared';
import type { FastifyInstance, FastifyReply } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { authOf } from '../../plugins/auth';
import { receiveStageChanges, UnknownTarget } from './crm-events.service';
import { crmWatchOf, savePastedToken } from './crm-watch.service';

// Not bounded here: a wrong value of any length is the same bare 404 (Fastify caps a param at 100 characters).
const ZEventParams = z.object({ integrationId: z.string(), secret: z.string() });
const ZEventReply = z.object({ ok: z.literal(true), recorded: z.number().int() });

export async function crmEventsRoutes(app: FastifyInstance): Promise<void> {
  await app.register(formbody, { bodyLimit: WEBHOOK_BODY_LIMIT_BYTES });
  const r = app.withTypeProvider<ZodTypeProvider>();
  const { deps } = app;

  const receive = async (
    type: string,
    params: { integrationId: string; secret: string },
    body: unknown,
    reply: FastifyReply,
  ) => {
    try {
      const { recorded } = await receiveStageChanges(deps, type, params.integrationId, params.secret, body);
      return reply.send({ ok: true as const, recorded });
    } catch (error) {
      // Nothing said about why: an unknown destination and a wrong secret look alike from outside.
      if (error instanceof UnknownTarget) return reply.code(404).send();
      throw error;
    }
  };

  // The CRM posts here (its subscription is ours: crm-watch.service.ts), one path per CRM.
  for (const connector of connectors.values()) {
    const { slug: type } = connector;
    const stageWatch = connector.stageWatch ?? connector.pastedStageWatch;
    if (!stageWatch) continue;
    r.post(
      `/api/${type}/events/:integrationId/:secret`,
      {
        // A CRM turns off a webhook that keeps failing: a stray NUL is cleaned, a key named `__proto__`
        // kept, not refused (plugins/input).
        config: { access: 'public', textPolicy: 'clean', keysAsData: true, rateLimit: 'webhook' },
        bodyLimit: WEBHOOK_BODY_LIMIT_BYTES,
        schema: { tags: [type], summary: stageWatch.summary, params: ZEventParams, response: { 200: ZEventReply } },
      },
      (req, reply) => receive(type, req.params, req.body, reply),
    );
  }
  r.get(
    '/api/integrations/:id/crm-watch',
    {
      config: { access: 'client' },
      schema: {
        tags: ['integrations'],
        summary: 'Whether a CRM destination tells us of stage changes (speed to lead), or why not',
        params: z.object({ id: z.string() }),
        response: { 200: ZCrmWatch },
      },
    },
    (req) => crmWatchOf(deps, authOf(req).user, req.params.id),
  );
  r.post(
    '/api/integrations/:id/crm-watch/token',
    {
      config: { access: 'client' },
      schema: {
        tags: ['integrations'],
        summary:
          "A CRM whose stage changes reach us through an outgoing webhook the person made by hand: the token the CRM showed for it, stored sealed; the watch's state back",
        params: z.object({ id: z.string() }),
        // Checked by the connector's own schema (its field error names `token`).
        body: z.object({ token: z.unknown() }),
        response: { 200: ZCrmWatch },
      },
    },
    (req) => savePastedToken(deps, authOf(req).user, req.params.id, req.body),
  );
}
