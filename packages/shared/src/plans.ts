// Tariff plans (spec 3 "Plan", 7 "Billing and plans"): what the super-admin tariffs screen edits
// and the account's plan page shows. Amounts are US dollars in the API (the server keeps cents).
import { z } from 'zod';
import { maxText, money, requiredText } from './validation';

export const PLAN_TITLE_MAX = 100;
/** No plan costs more than this many dollars a period; a typo of a few zeros is refused. */
export const PLAN_AMOUNT_MAX = 1_000_000;
/** Larger limits are meaningless; "unlimited" is null. */
export const PLAN_LIMIT_MAX = 1_000_000_000;

const typeError = (i: { input?: unknown }) => (i.input === undefined || i.input === null ? 'REQUIRED' : 'INVALID_TYPE');

const ZTitleText = requiredText().pipe(maxText(PLAN_TITLE_MAX));
/** A title per interface language. */
export const ZPlanTitle = z.object({ uk: ZTitleText, en: ZTitleText }, { error: typeError }).strict();

/** Dollars with at most two decimals (whole cents), 0 for a free plan. */
const ZAmount = money('VALIDATION_ERROR', PLAN_AMOUNT_MAX);

/** A positive whole number, or null for unlimited. */
const ZLimit = z
  .number({ error: (i) => (i.input === undefined ? 'REQUIRED' : 'INVALID_TYPE') })
  .int({ error: 'INTEGER' })
  .min(1, { error: 'VALIDATION_ERROR' })
  .max(PLAN_LIMIT_MAX, { error: 'VALIDATION_ERROR' })
  .nullable();

export const ZPlanLimits = z
  .object(
    {
      /** Leads accepted per calendar month (UTC). */
      leadsPerMonth: ZLimit,
      /** Integrations of the account, sources and destinations together. */
      integrations: ZLimit,
      /** Destinations one source sends to. */
      destinationsPerSource: ZLimit,
    },
    { error: typeError },
  )
  .strict();
export type PlanLimits = z.infer<typeof ZPlanLimits>;

/** What an account without a plan (demo) may use: the seeded middle plan's limits, fixed here so
 * that an operator editing plans does not change what a trial gets. */
export const DEMO_PLAN_LIMITS: PlanLimits = { leadsPerMonth: 3000, integrations: 10, destinationsPerSource: 5 };

export const ZPlanBody = z
  .object({
    title: ZPlanTitle,
    monthlyAmount: ZAmount,
    annualAmount: ZAmount,
    limits: ZPlanLimits,
    active: z.boolean({ error: 'INVALID_TYPE' }).optional(),
  })
  .strict();
export type PlanBody = z.infer<typeof ZPlanBody>;

/** PUT /api/plans/{id}: any of the fields; the title and limits are replaced whole. Switching a
 * plan on or off is the toggle call's. */
export const ZPlanPatch = ZPlanBody.omit({ active: true }).partial().strict();
export type PlanPatch = z.infer<typeof ZPlanPatch>;

export const ZPlan = z.object({
  _id: z.string(),
  title: z.object({ uk: z.string(), en: z.string() }),
  monthlyAmount: z.number(),
  annualAmount: z.number(),
  active: z.boolean(),
  limits: z.object({
    leadsPerMonth: z.number().nullable(),
    integrations: z.number().nullable(),
    destinationsPerSource: z.number().nullable(),
  }),
  createdAt: z.string(),
  updatedAt: z.string(),
});
export type Plan = z.infer<typeof ZPlan>;

/** GET /api/legacy/api/plans/limits: the account's limits and what it uses now. */
export const ZPlanLimitsResponse = z.object({
  planId: z.string().nullable(),
  demo: z.boolean(),
  limits: ZPlan.shape.limits,
  usage: z.object({
    /** Leads this UTC month that counted towards the limit (held leads do not). */
    leadsThisMonth: z.number(),
    integrations: z.number(),
    /** The most destinations one of the account's sources sends to. */
    destinationsPerSource: z.number(),
  }),
});
export type PlanLimitsResponse = z.infer<typeof ZPlanLimitsResponse>;
