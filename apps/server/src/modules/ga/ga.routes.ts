// Google Analytics 4's own route: "send a test lead" through Google's validation server with the
// integration's saved settings and secret (nothing is recorded in GA), its messages answered.
import { gaDebug } from '@leadrelay/connectors';
import { ZGaDebugBody, ZGaDebugResult } from '@leadrelay/shared';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { authOf } from '../../plugins/auth';
import { callConnector } from '../integrations';

const tags = ['ga'];
const ZIdParams = z.object({ id: z.string() });

export async function gaRoutes(app: FastifyInstance): Promise<void> {
  const r = app.withTypeProvider<ZodTypeProvider>();
  r.post(
    '/api/ga/debug/:id',
    {
      config: { access: 'client' },
      schema: { tags, params: ZIdParams, body: ZGaDebugBody, response: { 200: ZGaDebugResult } },
    },
    (req) =>
      callConnector(app.deps, authOf(req).user, req.params.id, 'ga', (_connector, ctx) =>
        gaDebug(
          ctx as Parameters<typeof gaDebug>[0],
          req.body?.lead ? { ...req.body.lead, custom: req.body.lead.custom ?? {} } : undefined,
        ),
      ),
  );
}
