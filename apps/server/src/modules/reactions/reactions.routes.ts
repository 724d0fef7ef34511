import { ZReactionBody, ZSpeedToLeadQuery } from '@leadrelay/shared';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { authOf } from '../../plugins/auth';
import { assertIntegration } from '../integrations';
import { reactToHook, speedBreakdownOf, speedToLead } from './reactions.service';

const ZIdParams = z.object({ id: z.uuid({ message: 'VALIDATION_ERROR' }) });

export async function reactionsRoutes(app: FastifyInstance): Promise<void> {
  const r = app.withTypeProvider<ZodTypeProvider>();
  const tags = ['reactions'];

  r.post(
    '/api/hook/:id/reaction',
    {
      config: { access: 'client' },
      schema: {
        tags,
        summary: "A reaction to the hook's lead by the signed-in user (taken, called back); the first of a kind stands",
        params: ZIdParams,
        body: ZReactionBody,
      },
    },
    (req) => {
      const { user } = authOf(req);
      return reactToHook(app.db, user.id, req.params.id, req.body.kind, {
        id: user.id,
        name: user.name || user.login.split('@')[0] || user.login,
      });
    },
  );

  r.get(
    '/api/report/speed-to-lead',
    {
      config: { access: 'client' },
      schema: {
        tags,
        summary:
          'Speed to lead per day, source integration and manager: median, 90th percentile, shares within 5/15/60 min',
        querystring: ZSpeedToLeadQuery,
      },
    },
    async (req) => {
      const accountId = authOf(req).user.id;
      if (req.query.integrationId) await assertIntegration(app.db, accountId, req.query.integrationId);
      return speedToLead(app.db, accountId, req.query);
    },
  );

  r.get(
    '/api/report/speed-to-lead/breakdown',
    {
      config: { access: 'client' },
      schema: {
        tags,
        summary: 'Speed to lead as a whole, per day, per source integration and per manager (the report screen)',
        querystring: ZSpeedToLeadQuery,
      },
    },
    async (req) => {
      const accountId = authOf(req).user.id;
      if (req.query.integrationId) await assertIntegration(app.db, accountId, req.query.integrationId);
      return speedBreakdownOf(app.db, accountId, req.query);
    },
  );
}
