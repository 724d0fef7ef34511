// What decides whether an account's leads are held (docs/adr/008-held-leads.md): the leads it got
// this month, counted by ingest, and the hold itself while it has held leads.
import type { HoldReason } from '@leadrelay/shared';
import { date, integer, pgTable, primaryKey, smallint, text, timestamp, uuid } from 'drizzle-orm/pg-core';
import { users } from './users';

/**
 * Leads of an account that counted towards its plan's monthly limit (held ones do not), per UTC
 * month, in shards: each batch that ingest writes at the same time adds to a row of its own, so
 * concurrent batches never wait for one another on a counter. The month's usage is the sum.
 */
export const leadUsage = pgTable(
  'lead_usage',
  {
    accountId: uuid('account_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    /** The first day of the UTC month. */
    month: date('month', { mode: 'string' }).notNull(),
    shard: smallint('shard').notNull(),
    leads: integer('leads').notNull().default(0),
  },
  (t) => [primaryKey({ columns: [t.accountId, t.month, t.shard] })],
);

/**
 * An account whose leads are being held, from its first held lead until they are released. While
 * the row exists every new lead of the account is held too, so that a release delivers them all in
 * arrival order and no newer lead overtakes them.
 */
export const accountHolds = pgTable('account_holds', {
  accountId: uuid('account_id')
    .primaryKey()
    .references(() => users.id, { onDelete: 'cascade' }),
  /** Why the account is held now (the periodic check keeps it current). */
  reason: text('reason').$type<HoldReason>().notNull(),
  since: timestamp('since', { withTimezone: true }).notNull(),
  /** When the account was told by mail that its leads are held (once per hold). */
  notifiedAt: timestamp('notified_at', { withTimezone: true }),
  /** The drop the account was told about: leads held up to this instant … */
  dropCoversUntil: timestamp('drop_covers_until', { withTimezone: true }),
  /** … are dropped at this one (HELD_DROP_NOTICE_DAYS after the mail). */
  dropAt: timestamp('drop_at', { withTimezone: true }),
});
export type AccountHoldRow = typeof accountHolds.$inferSelect;
