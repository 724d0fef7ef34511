// Meta leadgen notifications we acknowledged, kept until their lead is ingested (docs/adr/006):
// the webhook writes a row before it answers 200, the sweep writes rows for leads the webhook
// missed, and the worker fetches and ingests them. One row per leadgen_id is the dedupe across
// Meta's retries, duplicates and the sweep; rows are kept 14 days after they settle.
import { index, integer, jsonb, pgTable, text, timestamp, uniqueIndex, uuid } from 'drizzle-orm/pg-core';

export const FB_LEADGEN_EVENT_STATUSES = ['pending', 'waiting', 'done', 'failed', 'skipped'] as const;
export type FbLeadgenEventStatus = (typeof FB_LEADGEN_EVENT_STATUSES)[number];

export const fbLeadgenEvents = pgTable(
  'fb_leadgen_events',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    leadgenId: text('leadgen_id').notNull(),
    pageId: text('page_id').notNull(),
    formId: text('form_id'),
    /** webhook | sweep: who told us about the lead. */
    origin: text('origin', { enum: ['webhook', 'sweep'] }).notNull(),
    /**
     * pending: due at next_at (a claim moves next_at past its lease); waiting: a connection's token
     * was refused, retried once no connection of the page is broken (or at next_at); done; failed
     * (Facebook does not know the lead, or retries ran out); skipped (no integration takes it).
     */
    status: text('status', { enum: FB_LEADGEN_EVENT_STATUSES }).notNull().default('pending'),
    attempts: integer('attempts').notNull().default(0),
    nextAt: timestamp('next_at', { withTimezone: true }).notNull().defaultNow(),
    /** Connections whose integrations already took the lead: a retry skips them. */
    doneConnections: jsonb('done_connections').$type<string[]>().notNull().default([]),
    lastError: text('last_error'),
    receivedAt: timestamp('received_at', { withTimezone: true }).notNull().defaultNow(),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    uniqueIndex('fb_leadgen_events_leadgen_idx').on(t.leadgenId),
    index('fb_leadgen_events_due_idx').on(t.status, t.nextAt),
  ],
);
export type FbLeadgenEventRow = typeof fbLeadgenEvents.$inferSelect;

/** How far the backfill sweep has read each lead form (the next sweep starts a little before). */
export const fbBackfillCursors = pgTable('fb_backfill_cursors', {
  formId: text('form_id').primaryKey(),
  pageId: text('page_id').notNull(),
  sweptUntil: timestamp('swept_until', { withTimezone: true }).notNull(),
});
