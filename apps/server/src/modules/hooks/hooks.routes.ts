import { ZHookIds, ZHookListQuery, ZPageQuery } from '@leadrelay/shared';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { authOf } from '../../plugins/auth';
import { assertIntegration } from '../integrations';
import { getHook, hookTotals, listHooks, removeHooks, renewHooks, statistic } from './hooks.service';

const ZIdParams = z.object({ id: z.uuid({ message: 'VALIDATION_ERROR' }) });

export async function hooksRoutes(app: FastifyInstance): Promise<void> {
  const r = app.withTypeProvider<ZodTypeProvider>();
  const tags = ['hooks'];

  r.get(
    '/api/hook',
    {
      config: { access: 'client' },
      schema: { tags, summary: 'Hooks of the account with their deliveries', querystring: ZHookListQuery },
    },
    async (req) => {
      const accountId = authOf(req).user.id;
      // Another account's integration is not found, never an empty list that confirms it exists.
      if (req.query.integrationId) await assertIntegration(app.db, accountId, req.query.integrationId);
      return listHooks(app.db, accountId, req.query);
    },
  );

  r.get('/api/hook/total', { config: { access: 'client' }, schema: { tags, summary: 'Hook counters' } }, (req) =>
    hookTotals(app.db, authOf(req).user.id),
  );

  // Static /api/hook/total wins over this parametric route (find-my-way prefers static segments).
  r.get(
    '/api/hook/:id',
    {
      config: { access: 'client' },
      schema: { tags, summary: 'One hook with every delivery attempt, oldest first', params: ZIdParams },
    },
    (req) => getHook(app.db, authOf(req).user.id, req.params.id),
  );

  r.delete(
    '/api/hook',
    { config: { access: 'client' }, schema: { tags, summary: 'Remove all hooks of the account' } },
    (req) => removeHooks(app.db, app.events, authOf(req).user.id),
  );

  r.post(
    '/api/hook',
    { config: { access: 'client' }, schema: { tags, summary: 'Remove the selected hooks', body: ZHookIds } },
    (req) => removeHooks(app.db, app.events, authOf(req).user.id, req.body.ids),
  );

  r.put(
    '/api/hook',
    {
      config: { access: 'client' },
      schema: { tags, summary: 'Renew: deliver the selected hooks again', body: ZHookIds },
    },
    (req) => renewHooks(app.db, app.events, authOf(req).user.id, req.body.ids),
  );

  r.get(
    '/api/legacy/api/admin/statistic',
    {
      config: { access: 'client' },
      schema: {
        tags,
        summary: 'Leads per day: received, delivered, failed, pending, filtered, duplicate',
        querystring: ZPageQuery,
      },
    },
    (req) => statistic(app.db, authOf(req).user.id, req.query.page, req.query.limit),
  );
}
