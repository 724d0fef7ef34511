import type { BillingPeriod } from '@leadrelay/shared';
import { sql } from 'drizzle-orm';
import { boolean, date, index, integer, jsonb, pgTable, text, timestamp, uniqueIndex, uuid } from 'drizzle-orm/pg-core';
import { plans } from './plans';

export const users = pgTable(
  'users',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    login: text('login').notNull(),
    passwordHash: text('password_hash').notNull(),
    role: text('role', { enum: ['owner', 'admin', 'support', 'client'] })
      .notNull()
      .default('client'),
    active: boolean('active').notNull().default(true),
    expDate: date('exp_date', { mode: 'string' }),
    // Whole cents, so balances never pick up floating-point error.
    creditCents: integer('credit_cents').notNull().default(0),
    /** The account's tariff; null is demo (spec 4). A plan some account has cannot be deleted. */
    planId: uuid('plan_id').references(() => plans.id, { onDelete: 'restrict' }),
    subscription: jsonb('subscription').$type<{ title: string; planId: string; period?: BillingPeriod }>(),
    paymentInfo: jsonb('payment_info').$type<Record<string, unknown>>(),
    /** The code of the account's referral link (`?promo=CODE`); made the first time it is asked for. */
    referralCode: text('referral_code'),
    /** The account whose referral link this one signed up through (the promo cookie, spec 2). */
    referredBy: uuid('referred_by'),
    name: text('name').notNull().default(''),
    phone: text('phone').notNull().default(''),
    company: text('company').notNull().default(''),
    lang: text('lang', { enum: ['uk', 'en'] })
      .notNull()
      .default('uk'),
    /** The account's IANA time zone: every day boundary the account sees (charts, reports) is in it. */
    timeZone: text('time_zone').notNull().default('Europe/Kyiv'),
    emailConfirmedAt: timestamp('email_confirmed_at', { withTimezone: true }),
    deletedAt: timestamp('deleted_at', { withTimezone: true }),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  },
  // A soft-deleted account frees its login for a new sign-up.
  (t) => [
    uniqueIndex('users_login_live_idx').on(t.login).where(sql`${t.deletedAt} is null`),
    uniqueIndex('users_referral_code_idx').on(t.referralCode),
    index('users_referred_by_idx').on(t.referredBy),
  ],
);

export type UserRow = typeof users.$inferSelect;
