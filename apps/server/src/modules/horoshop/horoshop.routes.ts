// Horoshop (spec 7 "Shop"): POST /api/integrations/{id}/horoshop/auth (returns data.integration) and
// POST /api/integrations/{id}/horoshop/webhooks, plus what the integration page needs: the state
// (connection, webhook, poll, last orders), removing the webhook and polling now. The static
// `horoshop` segment takes precedence over the generic /api/integrations/:id/:type/webhooks, which
// would register a URL the user typed: here the URL is always our receiver's.
import { ZHoroshopAuthBody, ZHoroshopState, ZIntegration } from '@leadrelay/shared';
import { eq } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { horoshopSources } from '../../db/schema';
import { AppError } from '../../lib/app-error';
import { authOf } from '../../plugins/auth';
import { ownIntegrationOfType } from '../integrations';
import { connectShop, horoshopState, registerWebhook, unregisterWebhook } from './horoshop.service';
import { horoshopDeps, TYPE } from './horoshop-deps';
import { pollShop } from './horoshop-poll.task';

const tags = ['horoshop'];
const ZIdParams = z.object({ id: z.string() });
const ZNoBody = z.object({}).strict().nullish();
const ZStateReply = z.object({ data: ZHoroshopState });

export async function horoshopRoutes(app: FastifyInstance): Promise<void> {
  const r = app.withTypeProvider<ZodTypeProvider>();
  const deps = horoshopDeps(app);
  const user = (req: Parameters<typeof authOf>[0]) => authOf(req).user;

  r.post(
    '/api/integrations/:id/horoshop/auth',
    {
      config: { access: 'client' },
      schema: {
        tags,
        summary: 'Connect the shop: its address and an API admin login and password, or a token',
        params: ZIdParams,
        body: ZHoroshopAuthBody,
        response: { 200: z.object({ data: z.object({ integration: ZIntegration }) }) },
      },
    },
    (req) => connectShop(deps, user(req), req.params.id, req.body),
  );
  r.get(
    '/api/integrations/:id/horoshop',
    {
      config: { access: 'client' },
      schema: {
        tags,
        summary: 'The connection, its webhook and poll, the last orders',
        params: ZIdParams,
        response: { 200: ZHoroshopState },
      },
    },
    (req) => horoshopState(deps, user(req), req.params.id),
  );
  r.post(
    '/api/integrations/:id/horoshop/webhooks',
    {
      config: { access: 'client' },
      schema: {
        tags,
        summary: 'Register our receiver for new orders at the shop',
        params: ZIdParams,
        body: ZNoBody,
        response: { 200: ZStateReply },
      },
    },
    (req) => registerWebhook(deps, user(req), req.params.id),
  );
  r.delete(
    '/api/integrations/:id/horoshop/webhooks',
    {
      config: { access: 'client' },
      schema: { tags, summary: 'Remove our receiver at the shop', params: ZIdParams, response: { 200: ZStateReply } },
    },
    (req) => unregisterWebhook(deps, user(req), req.params.id),
  );
  r.post(
    '/api/integrations/:id/horoshop/poll',
    {
      config: { access: 'client' },
      schema: {
        tags,
        summary: 'Look for orders now (as the poll does every 5 minutes)',
        params: ZIdParams,
        body: ZNoBody,
        response: { 200: ZStateReply },
      },
    },
    async (req) => {
      const actor = user(req);
      const row = await ownIntegrationOfType(deps.db, actor, req.params.id, TYPE);
      if (!row.auth || !row.hookToken) throw new AppError('INTEGRATION_NOT_CONNECTED');
      // An inactive source takes no leads: nothing to look for (the page says it is off).
      if (row.active) {
        const [source] = await deps.db.select().from(horoshopSources).where(eq(horoshopSources.integrationId, row.id));
        await pollShop(deps, row, source, new Date());
      }
      return { data: await horoshopState(deps, actor, row.id) };
    },
  );
}
