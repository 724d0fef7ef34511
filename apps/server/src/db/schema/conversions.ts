// Conversion events (issue 33): a source integration's leads' CRM stages sent back to the ad
// platform (Meta's Conversions API). `conversion_settings` is the integration's switch, dataset and
// stage → event mapping; `conversion_events` is the outbox, one row per lead and stage (the unique
// key makes each once), written before anything is sent: a crash between making and sending leaves
// a pending row, sent again with the same event_id (which the platform dedupes as well).
import type { ConversionEvents, ConversionState } from '@leadrelay/shared';
import { sql } from 'drizzle-orm';
import { boolean, index, integer, jsonb, pgTable, text, timestamp, unique, uuid } from 'drizzle-orm/pg-core';
import { integrations } from './integrations';
import { leads } from './routing';
import { users } from './users';

export const conversionSettings = pgTable('conversion_settings', {
  integrationId: uuid('integration_id')
    .primaryKey()
    .references(() => integrations.id, { onDelete: 'cascade' }),
  accountId: uuid('account_id')
    .notNull()
    .references(() => users.id, { onDelete: 'cascade' }),
  enabled: boolean('enabled').notNull().default(false),
  datasetId: text('dataset_id'),
  events: jsonb('events').$type<ConversionEvents>().notNull().default({}),
  /** When it was last switched on: leads delivered before that send no initial event. */
  enabledAt: timestamp('enabled_at', { withTimezone: true }),
  /** Sending waits: the reason (a lost permission, the dataset gone) and when it is tried again. */
  heldReason: text('held_reason'),
  heldUntil: timestamp('held_until', { withTimezone: true }),
  /** The breaker (the delivery engine's policy): retryable failures in a row, and pauses in a row. */
  failures: integer('failures').notNull().default(0),
  pauses: integer('pauses').notNull().default(0),
  updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
});
export type ConversionSettingsRow = typeof conversionSettings.$inferSelect;

/** Meta's answer to the request that carried the event. */
export interface ConversionAnswer {
  eventsReceived: number;
  fbtraceId: string | null;
  messages: string[];
}

export const conversionEvents = pgTable(
  'conversion_events',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    accountId: uuid('account_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    /** The lead's source integration (whose settings and connection send it). */
    integrationId: uuid('integration_id')
      .notNull()
      .references(() => integrations.id, { onDelete: 'cascade' }),
    leadId: uuid('lead_id')
      .notNull()
      .references(() => leads.id, { onDelete: 'cascade' }),
    /** 'lead' (the initial event) or the CRM's stage id. */
    stage: text('stage').notNull(),
    stageName: text('stage_name'),
    pipelineId: text('pipeline_id'),
    /**
     * The event's name, the lead's id at the platform (a leadgen id) and the event's stable id. An
     * initial event is made by the delivery's own statement (delivery/result-batch.ts), which knows
     * none of them: null until the sender reads them from the lead and the mapping, before sending.
     */
    eventName: text('event_name'),
    externalLeadId: text('external_lead_id'),
    eventId: text('event_id'),
    /** When the stage was reached (the event's time). */
    at: timestamp('at', { withTimezone: true }).notNull(),
    state: text('state').$type<ConversionState | 'skipped'>().notNull().default('pending'),
    attempts: integer('attempts').notNull().default(0),
    nextAttemptAt: timestamp('next_attempt_at', { withTimezone: true }).notNull().defaultNow(),
    sentAt: timestamp('sent_at', { withTimezone: true }),
    answer: jsonb('answer').$type<ConversionAnswer>(),
    /** The reason code of the failure or of the last retry, and the platform's words. ('skipped': a lead with no platform id, or an initial event the mapping sends none of; never shown.) */
    error: text('error'),
    errorMessage: text('error_message'),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    unique('conversion_events_lead_stage').on(t.leadId, t.stage),
    // The sender's claim: a source's due events, oldest first (and whether it has any).
    index('conversion_events_source_due_idx').on(t.integrationId, t.nextAttemptAt).where(sql`${t.state} = 'pending'`),
    index('conversion_events_sent_idx').on(t.accountId, t.sentAt),
  ],
);
export type ConversionEventRow = typeof conversionEvents.$inferSelect;
