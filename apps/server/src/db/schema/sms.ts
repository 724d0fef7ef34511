// The SMS log (spec 7 "Other": GET /api/legacy/api/admin/sms): every message AlphaSMS took for a
// delivery, written in the transaction that stores the delivery's result, and its status as
// AlphaSMS's status call reports it later (modules/sms).
import type { SmsStatus } from '@leadrelay/shared';
import { sql } from 'drizzle-orm';
import { index, integer, numeric, pgTable, text, timestamp, uniqueIndex, uuid } from 'drizzle-orm/pg-core';
import { integrations } from './integrations';
import { users } from './users';

export const smsMessages = pgTable(
  'sms_messages',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    accountId: uuid('account_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    /** The AlphaSMS integration that sent it; the log goes with it. */
    integrationId: uuid('integration_id')
      .notNull()
      .references(() => integrations.id, { onDelete: 'cascade' }),
    /**
     * The delivery, hook and lead it was sent for. No foreign keys: the message was sent and paid for
     * whatever becomes of the lead log (a hook removed leaves the row; no scan of this table per delete).
     */
    deliveryId: uuid('delivery_id'),
    hookId: uuid('hook_id'),
    leadId: uuid('lead_id'),
    /** lead | manager */
    recipient: text('recipient').$type<'lead' | 'manager'>().notNull(),
    phone: text('phone').notNull(),
    /** sms | viber+sms */
    channel: text('channel').notNull(),
    text: text('text').notNull(),
    msgId: text('msg_id').notNull(),
    parts: integer('parts').notNull(),
    status: text('status').$type<SmsStatus>().notNull().default('sent'),
    /** AlphaSMS's own word for the status (DELIVERED, READ …). */
    providerStatus: text('provider_status'),
    cost: numeric('cost', { precision: 12, scale: 4, mode: 'number' }),
    /** When the status was last asked for. */
    checkedAt: timestamp('checked_at', { withTimezone: true }),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    index('sms_messages_account_idx').on(t.accountId, t.createdAt),
    index('sms_messages_integration_idx').on(t.integrationId, t.createdAt),
    // One row per message: a result stored twice (a lost lease) does not log it twice.
    uniqueIndex('sms_messages_msg_idx').on(t.integrationId, t.msgId),
    // The status poller's work: messages whose status may still change.
    index('sms_messages_open_idx')
      .on(t.checkedAt)
      .where(sql`${t.status} = 'sent' or (${t.status} = 'delivered' and ${t.channel} <> 'sms')`),
  ],
);
export type SmsMessageRow = typeof smsMessages.$inferSelect;
