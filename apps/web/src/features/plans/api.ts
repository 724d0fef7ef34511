import type { Plan, PlanBody, PlanLimitsResponse, PlanPatch } from '@leadrelay/shared';
import { api, http } from '../../lib/http';
import { fetchPlans } from '../../lib/plans';

const PLANS = '/api/plans';
const id = (value: string) => encodeURIComponent(value);

export const plansApi = {
  list: fetchPlans,
  create: (body: PlanBody) => api.post<Plan>(PLANS, body),
  update: (planId: string, body: PlanPatch) => http<Plan>(`${PLANS}/${id(planId)}`, { method: 'PUT', body }),
  toggle: (planId: string) => http<Plan>(`${PLANS}/${id(planId)}/toggle`, { method: 'PUT' }),
  remove: (planId: string) => api.delete<{ success: true }>(`${PLANS}/${id(planId)}`),
  /** The account's limits (the demo ones without a plan) and what it uses now. */
  limits: () => api.get<PlanLimitsResponse>('/api/legacy/api/plans/limits'),
};
