// What the server keeps for lead sources (issue 29: a connector declares its receivers, poll and
// items, the server keeps their state here; packages/connectors/src/kit/source.ts):
// - connector_state: one row per source integration, its poll's cursor and our receiver's
//   subscription at the sender;
// - connector_seen: the items each source integration has taken (a shop's orders), by the sender's
//   id: what the integration page lists, and the first check a repeated webhook or poll meets before
//   ingest (whose dedupe key `idem:<key>:<id>` stays the guard where two arrive at once).
import { index, integer, jsonb, pgTable, primaryKey, text, timestamp, uuid } from 'drizzle-orm/pg-core';
import { integrations } from './integrations';
import { users } from './users';

export const connectorState = pgTable('connector_state', {
  integrationId: uuid('integration_id')
    .primaryKey()
    .references(() => integrations.id, { onDelete: 'cascade' }),
  accountId: uuid('account_id')
    .notNull()
    .references(() => users.id, { onDelete: 'cascade' }),
  /** The poll's cursor, in the connector's own shape (what its last complete run returned). */
  cursor: jsonb('cursor'),
  /** When the source was connected: its poll never takes items made before (they were not leads of ours). */
  pollFrom: timestamp('poll_from', { withTimezone: true }),
  lastPollAt: timestamp('last_poll_at', { withTimezone: true }),
  /** The API error key of the last poll's failure (the service's words after a colon); null when it worked. */
  lastPollError: text('last_poll_error'),
  /** Our receiver's subscription at the sender, as the sender identifies it (to remove it). */
  subscriptionId: text('subscription_id'),
  /** none: never registered (or removed by us); active; removed: the sender told us it removed it. */
  subscriptionStatus: text('subscription_status', { enum: ['none', 'active', 'removed'] })
    .notNull()
    .default('none'),
  subscriptionRegisteredAt: timestamp('subscription_registered_at', { withTimezone: true }),
  subscriptionRemovedAt: timestamp('subscription_removed_at', { withTimezone: true }),
  updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
});
export type ConnectorStateRow = typeof connectorState.$inferSelect;

export const connectorSeen = pgTable(
  'connector_seen',
  {
    integrationId: uuid('integration_id')
      .notNull()
      .references(() => integrations.id, { onDelete: 'cascade' }),
    accountId: uuid('account_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    /** The sender's id of the item (an order's id). */
    itemId: text('item_id').notNull(),
    /** webhook | poll: how it came first. */
    via: text('via', { enum: ['webhook', 'poll'] }).notNull(),
    timesSeen: integer('times_seen').notNull().default(1),
    /** The hook its lead was written with (no foreign key: hooks may be deleted from the lead log). */
    hookId: uuid('hook_id'),
    /** What the source's screen lists of it (the connector's summary: a name, a total …). */
    summary: jsonb('summary').$type<Record<string, string | null>>().notNull().default({}),
    firstSeenAt: timestamp('first_seen_at', { withTimezone: true }).notNull().defaultNow(),
    lastSeenAt: timestamp('last_seen_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    primaryKey({ columns: [t.integrationId, t.itemId] }),
    index('connector_seen_recent_idx').on(t.integrationId, t.firstSeenAt),
    index('connector_seen_first_seen_idx').on(t.firstSeenAt),
  ],
);
export type ConnectorSeenRow = typeof connectorSeen.$inferSelect;
