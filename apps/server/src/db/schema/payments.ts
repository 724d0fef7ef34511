// Payments (docs/payments.md): an order is one attempt to buy a period of a plan; a paid order
// gets exactly one invoice; the saved card is the provider's token, sealed; every callback and
// charge answer is kept in payment_events with what was done with it.
import type { BillingPeriod, OrderKind, OrderStatus } from '@leadrelay/shared';
import { sql } from 'drizzle-orm';
import {
  bigserial,
  date,
  doublePrecision,
  index,
  integer,
  jsonb,
  pgTable,
  text,
  timestamp,
  uniqueIndex,
  uuid,
} from 'drizzle-orm/pg-core';
import { plans } from './plans';
import type { SealedSecret } from './sealed-secret';
import { users } from './users';

export const orders = pgTable(
  'orders',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    /** Counts orders for their printed number (LR-000123) and the provider's order_id. */
    seq: bigserial('seq', { mode: 'number' }).notNull(),
    accountId: uuid('account_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    kind: text('kind').$type<OrderKind>().notNull(),
    status: text('status').$type<OrderStatus>().notNull().default('pending'),
    /** Null once the plan is deleted (possible when no account has it any more). */
    planId: uuid('plan_id').references(() => plans.id, { onDelete: 'set null' }),
    /** The plan's title when ordered: a renamed or deleted plan does not rewrite history. */
    planTitle: jsonb('plan_title').$type<{ uk: string; en: string }>().notNull(),
    period: text('period').$type<BillingPeriod>().notNull(),
    amountCents: integer('amount_cents').notNull(),
    creditCents: integer('credit_cents').notNull().default(0),
    chargedCents: integer('charged_cents').notNull(),
    /** What the referrer was credited for this order (0 when nobody referred the account). */
    rewardCents: integer('reward_cents').notNull().default(0),
    provider: text('provider'),
    providerPaymentId: text('provider_payment_id'),
    errorCode: text('error_code'),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    paidAt: timestamp('paid_at', { withTimezone: true }),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [uniqueIndex('orders_seq_idx').on(t.seq), index('orders_account_idx').on(t.accountId, t.createdAt)],
);
export type OrderRow = typeof orders.$inferSelect;

export const invoices = pgTable(
  'invoices',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    /** The order it bills: one invoice per paid order, whatever the provider repeats. */
    orderId: uuid('order_id')
      .notNull()
      .references(() => orders.id, { onDelete: 'cascade' }),
    accountId: uuid('account_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    number: text('number').notNull(),
    status: text('status').$type<'paid' | 'refunded'>().notNull().default('paid'),
    periodFrom: date('period_from', { mode: 'string' }).notNull(),
    periodTo: date('period_to', { mode: 'string' }).notNull(),
    /** UAH per USD on the day of payment (NBU), for the hryvnia equivalent on the PDF. */
    usdRate: doublePrecision('usd_rate'),
    issuedAt: timestamp('issued_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    uniqueIndex('invoices_order_idx').on(t.orderId),
    uniqueIndex('invoices_number_idx').on(t.number),
    index('invoices_account_idx').on(t.accountId, t.issuedAt),
  ],
);
export type InvoiceRow = typeof invoices.$inferSelect;

/** The last invoice number issued in a year (the seller's, Europe/Kyiv): a paid order takes the
 * next one in its transaction, under this row's lock, so a rolled-back payment leaves no gap and a
 * pending, failed or abandoned order takes none (docs/payments.md "Invoices"). */
export const invoiceCounters = pgTable('invoice_counters', {
  year: integer('year').primaryKey(),
  last: integer('last').notNull(),
});

/** The account's saved card: one at most; removing it stops renewals. */
export const paymentMethods = pgTable('payment_methods', {
  id: uuid('id').primaryKey().defaultRandom(),
  accountId: uuid('account_id')
    .notNull()
    .unique()
    .references(() => users.id, { onDelete: 'cascade' }),
  provider: text('provider').notNull(),
  /** `{ token }`, sealed with the app's key and bound to the row's id. */
  token: jsonb('token').$type<SealedSecret>().notNull(),
  mask: text('mask').notNull(),
  cardType: text('card_type'),
  expiry: text('expiry'),
  createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
});
export type PaymentMethodRow = typeof paymentMethods.$inferSelect;

/** Renewal of a paid account's plan (users.plan_id) by its saved card: the period it renews for,
 * when to charge next and how many charges in a row were declined. */
export const renewals = pgTable(
  'renewals',
  {
    accountId: uuid('account_id')
      .primaryKey()
      .references(() => users.id, { onDelete: 'cascade' }),
    period: text('period').$type<BillingPeriod>().notNull(),
    /** Next charge; null when renewals stopped (no card, or every retry declined). */
    dueAt: timestamp('due_at', { withTimezone: true }),
    failures: integer('failures').notNull().default(0),
    lastErrorCode: text('last_error_code'),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [index('renewals_due_idx').on(t.dueAt).where(sql`${t.dueAt} is not null`)],
);
export type RenewalRow = typeof renewals.$inferSelect;

/** Every callback and charge answer, verified or not, with what became of it (the audit trail). */
export const paymentEvents = pgTable(
  'payment_events',
  {
    id: bigserial('id', { mode: 'number' }).primaryKey(),
    provider: text('provider').notNull(),
    orderId: uuid('order_id'),
    /** applied | duplicate | stale | unknown_order | amount_mismatch | forged */
    result: text('result').notNull(),
    outcome: text('outcome'),
    /** The decoded body (a forged one as received, cut to a size). */
    body: jsonb('body').$type<Record<string, unknown>>(),
    remoteAddress: text('remote_address'),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [index('payment_events_order_idx').on(t.orderId)],
);
