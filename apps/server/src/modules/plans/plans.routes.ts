// Tariff plans (spec 7 "Billing and plans"). Every signed-in user reads the list (the plan page);
// changing it is privileged (the super-admin tariffs screen).
import { ZPlan, ZPlanBody, ZPlanLimitsResponse, ZPlanPatch, ZSuccessResponse } from '@leadrelay/shared';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { authOf } from '../../plugins/auth';
import * as service from './plans.service';

const tags = ['plans'];
const base = '/api/plans';
const ZIdParams = z.object({ id: z.string() });

export async function plansRoutes(app: FastifyInstance): Promise<void> {
  const r = app.withTypeProvider<ZodTypeProvider>();
  const { db } = app;

  r.get(base, { config: { access: 'client' }, schema: { tags, response: { 200: z.array(ZPlan) } } }, () =>
    service.listPlans(db),
  );
  r.post(
    base,
    { config: { access: 'owner' }, schema: { tags, body: ZPlanBody, response: { 201: ZPlan } } },
    async (req, reply) => reply.code(201).send(await service.createPlan(db, req.body)),
  );
  r.put(
    `${base}/:id`,
    {
      config: { access: 'owner' },
      schema: { tags, params: ZIdParams, body: ZPlanPatch, response: { 200: ZPlan } },
    },
    (req) => service.updatePlan(db, req.params.id, req.body),
  );
  r.put(
    `${base}/:id/toggle`,
    { config: { access: 'owner' }, schema: { tags, params: ZIdParams, response: { 200: ZPlan } } },
    (req) => service.togglePlan(db, req.params.id),
  );
  r.delete(
    `${base}/:id`,
    { config: { access: 'owner' }, schema: { tags, params: ZIdParams, response: { 200: ZSuccessResponse } } },
    async (req) => {
      await service.deletePlan(db, req.params.id);
      return { success: true as const };
    },
  );
  r.get(
    '/api/legacy/api/plans/limits',
    { config: { access: 'client' }, schema: { tags, response: { 200: ZPlanLimitsResponse } } },
    (req) => service.accountLimits(db, authOf(req).user),
  );
}
