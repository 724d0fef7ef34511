// Tariff plans (spec 3 "Plan"): seeded once on the first start, then edited by operators.
import type { PlanLimits } from '@leadrelay/shared';
import { boolean, integer, jsonb, pgTable, text, timestamp, uuid } from 'drizzle-orm/pg-core';

export const plans = pgTable('plans', {
  id: uuid('id').primaryKey().defaultRandom(),
  /** `{ uk, en }`: the title in each interface language. */
  title: jsonb('title').$type<{ uk: string; en: string }>().notNull(),
  // Whole US cents, as users.credit_cents: prices never pick up floating-point error. The API shows dollars.
  monthlyCents: integer('monthly_cents').notNull(),
  annualCents: integer('annual_cents').notNull(),
  active: boolean('active').notNull().default(true),
  /** Each limit a positive whole number, or null for unlimited. */
  limits: jsonb('limits').$type<PlanLimits>().notNull(),
  createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
});
export type PlanRow = typeof plans.$inferSelect;

/** Shipped data seeded once per database (a row per seed): a seed whose row exists never runs
 * again, so what an operator deleted stays deleted. */
export const seeds = pgTable('seeds', {
  name: text('name').primaryKey(),
  seededAt: timestamp('seeded_at', { withTimezone: true }).notNull().defaultNow(),
});
