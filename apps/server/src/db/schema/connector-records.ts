// What connectors keep of their deliveries (issue 29: a connector declares its records, the server
// keeps them here): an SMS destination's sent messages (kind `sms`, the spec's SMS log) … One row per record,
// written in the transaction that stores the delivery's result, kept current by the kind's periodic
// refresh while `open` (modules/connectors).
import { sql } from 'drizzle-orm';
import { boolean, index, jsonb, pgTable, text, timestamp, uniqueIndex, uuid } from 'drizzle-orm/pg-core';
import { integrations } from './integrations';
import { users } from './users';

export const connectorRecords = pgTable(
  'connector_records',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    accountId: uuid('account_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    /** The integration that made it; its records go with it. */
    integrationId: uuid('integration_id')
      .notNull()
      .references(() => integrations.id, { onDelete: 'cascade' }),
    /** The connector's name for the kind (sms). */
    kind: text('kind').notNull(),
    /** The destination's id of it, unique per integration and kind (an SMS provider's message id). */
    key: text('key').notNull(),
    /**
     * The delivery, hook and lead it was made for. No foreign keys: what was sent stays sent (and
     * paid for) whatever becomes of the lead log; no scan of this table per delete.
     */
    deliveryId: uuid('delivery_id'),
    hookId: uuid('hook_id'),
    leadId: uuid('lead_id'),
    status: text('status').notNull(),
    /** Whether the kind's refresh still asks about it. */
    open: boolean('open').notNull().default(false),
    /** The kind's own fields, as the connector describes them. */
    data: jsonb('data').$type<Record<string, unknown>>().notNull().default({}),
    /** When the destination was last asked about it. */
    checkedAt: timestamp('checked_at', { withTimezone: true }),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    index('connector_records_account_idx').on(t.accountId, t.kind, t.createdAt),
    index('connector_records_integration_idx').on(t.integrationId, t.kind, t.createdAt),
    // One row per record: a result stored twice (a lost lease) does not keep it twice.
    uniqueIndex('connector_records_key_idx').on(t.integrationId, t.kind, t.key),
    // The refresh's work: records whose state may still change.
    index('connector_records_open_idx').on(t.kind, t.checkedAt).where(sql`${t.open}`),
  ],
);
export type ConnectorRecordRow = typeof connectorRecords.$inferSelect;
