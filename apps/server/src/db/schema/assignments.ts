// Who holds a lead now and when it passes on (issue 19 part 3, escalation; docs/adr/010-manager-bot.md).
// One row per lead of a source whose routing policy escalates: its current holder (an item of the
// distribution collection), when the holder's working time to take it runs out, and who had it.
import { sql } from 'drizzle-orm';
import { index, integer, jsonb, pgTable, text, timestamp, uuid } from 'drizzle-orm/pg-core';
import { collections, integrations } from './integrations';
import { leads } from './routing';
import { users } from './users';

/** One holder of a lead: from when, and until when (absent while they hold it). */
export interface AssignmentStep {
  itemId: string;
  name: string;
  from: string;
  until?: string;
}

export const leadAssignments = pgTable(
  'lead_assignments',
  {
    leadId: uuid('lead_id')
      .primaryKey()
      .references(() => leads.id, { onDelete: 'cascade' }),
    accountId: uuid('account_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    /** The lead's source integration (its options hold the routing policy). */
    integrationId: uuid('integration_id')
      .notNull()
      .references(() => integrations.id, { onDelete: 'cascade' }),
    collectionId: uuid('collection_id')
      .notNull()
      .references(() => collections.id, { onDelete: 'cascade' }),
    /** The current holder: an item id of the collection. */
    itemId: text('item_id').notNull(),
    assignedAt: timestamp('assigned_at', { withTimezone: true }).notNull(),
    /** When it passes on unless taken; null once taken, or when it can wait no longer for anyone. */
    escalateAt: timestamp('escalate_at', { withTimezone: true }),
    /** How many times it was passed on. */
    passes: integer('passes').notNull().default(0),
    history: jsonb('history').$type<AssignmentStep[]>().notNull().default([]),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    // The periodic task reads the due ones only.
    index('lead_assignments_due_idx').on(t.escalateAt).where(sql`${t.escalateAt} is not null`),
    index('lead_assignments_account_idx').on(t.accountId, t.createdAt),
  ],
);
export type LeadAssignmentRow = typeof leadAssignments.$inferSelect;
