// The plans a new install starts with (annual ≈ 10 × monthly: two months free). Seeded once per
// database, never again: an operator's deletions and edits stand (plans.service seedPlans).
import { DEMO_PLAN_LIMITS, type PlanLimits } from '@leadrelay/shared';

export interface SeedPlan {
  title: { uk: string; en: string };
  monthlyCents: number;
  annualCents: number;
  limits: PlanLimits;
}

export const PLANS_SEED = 'plans';

export const SEED_PLANS: readonly SeedPlan[] = [
  {
    title: { uk: 'Старт', en: 'Start' },
    monthlyCents: 900,
    annualCents: 9_000,
    limits: { leadsPerMonth: 500, integrations: 3, destinationsPerSource: 2 },
  },
  {
    title: { uk: 'Бізнес', en: 'Business' },
    monthlyCents: 2_900,
    annualCents: 29_000,
    // A trial gets these (DEMO_PLAN_LIMITS), so it can try what most accounts buy.
    limits: DEMO_PLAN_LIMITS,
  },
  {
    title: { uk: 'Про', en: 'Pro' },
    monthlyCents: 7_900,
    annualCents: 79_000,
    limits: { leadsPerMonth: null, integrations: null, destinationsPerSource: null },
  },
];
