// A Horoshop source's own state beside its integration row: the webhook registered at the shop and
// the poll's cursor (horoshop_sources), and the orders it received (horoshop_orders): what the
// integration page lists, and the first check a repeated webhook or poll meets before ingest (whose
// dedupe key `idem:horoshop-order:<id>` stays the guard where two arrive at once).
import { index, integer, pgTable, primaryKey, text, timestamp, uuid } from 'drizzle-orm/pg-core';
import { integrations } from './integrations';
import { users } from './users';

export const horoshopSources = pgTable('horoshop_sources', {
  integrationId: uuid('integration_id')
    .primaryKey()
    .references(() => integrations.id, { onDelete: 'cascade' }),
  accountId: uuid('account_id')
    .notNull()
    .references(() => users.id, { onDelete: 'cascade' }),
  /** The subscription's id at the shop (hooks/subscribe), kept to unsubscribe. */
  webhookId: text('webhook_id'),
  /** none: never registered (or unregistered by us); active; removed: the shop sent a DELETE. */
  webhookStatus: text('webhook_status', { enum: ['none', 'active', 'removed'] })
    .notNull()
    .default('none'),
  webhookRegisteredAt: timestamp('webhook_registered_at', { withTimezone: true }),
  webhookRemovedAt: timestamp('webhook_removed_at', { withTimezone: true }),
  /** Orders created before this were looked for by the poll; the next poll starts a while before it. */
  polledUntil: timestamp('polled_until', { withTimezone: true }),
  /** When the shop was connected: the poll never takes orders made before (they were not leads of ours). */
  pollFrom: timestamp('poll_from', { withTimezone: true }),
  lastPollAt: timestamp('last_poll_at', { withTimezone: true }),
  /** HOROSHOP_… code of the last poll's failure (with the shop's words after a colon); null when it worked. */
  lastPollError: text('last_poll_error'),
  updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
});
export type HoroshopSourceRow = typeof horoshopSources.$inferSelect;

export const horoshopOrders = pgTable(
  'horoshop_orders',
  {
    integrationId: uuid('integration_id')
      .notNull()
      .references(() => integrations.id, { onDelete: 'cascade' }),
    accountId: uuid('account_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    orderId: text('order_id').notNull(),
    name: text('name'),
    phone: text('phone'),
    total: text('total'),
    currency: text('currency'),
    /** webhook | poll: how it came first. */
    via: text('via', { enum: ['webhook', 'poll'] }).notNull(),
    timesSeen: integer('times_seen').notNull().default(1),
    /** The hook its lead was written with (no foreign key: hooks may be deleted from the lead log). */
    hookId: uuid('hook_id'),
    receivedAt: timestamp('received_at', { withTimezone: true }).notNull().defaultNow(),
    lastSeenAt: timestamp('last_seen_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    primaryKey({ columns: [t.integrationId, t.orderId] }),
    index('horoshop_orders_recent_idx').on(t.integrationId, t.receivedAt),
    index('horoshop_orders_received_idx').on(t.receivedAt),
  ],
);
export type HoroshopOrderRowDb = typeof horoshopOrders.$inferSelect;
