import type { Plan, PlanBody, PlanLimitsResponse, PlanPatch, Rates } from '@leadrelay/shared';
import { api, http } from '../../lib/http';

/** GET /api/legacy/api/currency: hryvnias per unit, and where the rate came from. */
export interface CurrencyRates extends Rates {
  source?: string;
  rateDate?: string;
}

const PLANS = '/api/plans';
const id = (value: string) => encodeURIComponent(value);

export const plansApi = {
  /** Active plans first, each group by annual price ascending; inactive ones marked. */
  list: () => api.get<Plan[]>(PLANS),
  create: (body: PlanBody) => api.post<Plan>(PLANS, body),
  update: (planId: string, body: PlanPatch) => http<Plan>(`${PLANS}/${id(planId)}`, { method: 'PUT', body }),
  toggle: (planId: string) => http<Plan>(`${PLANS}/${id(planId)}/toggle`, { method: 'PUT' }),
  remove: (planId: string) => api.delete<{ success: true }>(`${PLANS}/${id(planId)}`),
  /** The account's limits (the demo ones without a plan) and what it uses now. */
  limits: () => api.get<PlanLimitsResponse>('/api/legacy/api/plans/limits'),
  currency: () => api.get<CurrencyRates>('/api/legacy/api/currency'),
};
