// The routing engine's tables: what arrived (leads, hooks, dedupe keys), what must reach each
// destination (deliveries: the queue itself), what happened (attempts, error records), and the
// state that keeps delivery fair and safe (destination health, distribution cursors).
import type { Assignee, AttemptOutcome, DeliveryStatus, HookStatus, Lead } from '@leadrelay/shared';
import { sql } from 'drizzle-orm';
import { bigint, index, integer, jsonb, pgTable, primaryKey, text, timestamp, uuid } from 'drizzle-orm/pg-core';
import { integrations } from './integrations';
import { users } from './users';

const createdAt = () => timestamp('created_at', { withTimezone: true }).notNull().defaultNow();

export const leads = pgTable(
  'leads',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    accountId: uuid('account_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    integrationId: uuid('integration_id')
      .notNull()
      .references(() => integrations.id, { onDelete: 'cascade' }),
    fields: jsonb('fields').$type<Lead>().notNull(),
    raw: jsonb('raw').$type<unknown>().notNull(),
    /** The source's own event id (Idempotency-Key header or the dedupe.sourceIdField value). */
    sourceId: text('source_id'),
    assignee: jsonb('assignee').$type<Assignee>(),
    createdAt: createdAt(),
  },
  (t) => [index('leads_account_idx').on(t.accountId, t.createdAt)],
);
export type LeadRow = typeof leads.$inferSelect;

/** One row per (source integration, key) while the key counts as a repeat. */
export const dedupeKeys = pgTable(
  'dedupe_keys',
  {
    integrationId: uuid('integration_id')
      .notNull()
      .references(() => integrations.id, { onDelete: 'cascade' }),
    /** `idem:<header>`, `src:<source id>` or `body:<sha256 of the canonical body>`. */
    key: text('key').notNull(),
    hookId: uuid('hook_id').notNull(),
    expiresAt: timestamp('expires_at', { withTimezone: true }).notNull(),
  },
  (t) => [primaryKey({ columns: [t.integrationId, t.key] }), index('dedupe_keys_expires_idx').on(t.expiresAt)],
);

export interface StoredRequest {
  method: string;
  contentType?: string;
  headers: Record<string, string>;
  /** Absent when `bodyInLead`. */
  body?: unknown;
  ip?: string;
  /**
   * The body is the hook's lead's `raw`, stored once, on the lead (ingest writes about 1 KB less
   * per lead); readers put it back (hooks.service `requestOf`).
   */
  bodyInLead?: true;
}

export const hooks = pgTable(
  'hooks',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    accountId: uuid('account_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    integrationId: uuid('integration_id')
      .notNull()
      .references(() => integrations.id, { onDelete: 'cascade' }),
    leadId: uuid('lead_id').references(() => leads.id, { onDelete: 'set null' }),
    status: text('status').$type<HookStatus>().notNull(),
    reason: text('reason'),
    request: jsonb('request').$type<StoredRequest>().notNull(),
    createdAt: createdAt(),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    index('hooks_account_idx').on(t.accountId, t.createdAt),
    index('hooks_integration_idx').on(t.integrationId, t.createdAt),
  ],
);
export type HookRow = typeof hooks.$inferSelect;

/**
 * The dashboard's counters (`/api/hook/total`, `HOOKS_INFORMER`) without counting the lead log:
 * statement triggers on `hooks` (migration 0021) append, per statement, how many of an account's
 * hooks entered or left each status. Append-only, so concurrent batches never wait on a counter
 * row; an account's counts are the sums, and reading them folds its rows into one per status
 * (hooks.service `hookTotals`).
 */
export const hookCounts = pgTable(
  'hook_counts',
  {
    accountId: uuid('account_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    status: text('status').$type<HookStatus>().notNull(),
    n: bigint('n', { mode: 'number' }).notNull(),
  },
  (t) => [index('hook_counts_account_idx').on(t.accountId)],
);

export const deliveries = pgTable(
  'deliveries',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    accountId: uuid('account_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    leadId: uuid('lead_id')
      .notNull()
      .references(() => leads.id, { onDelete: 'cascade' }),
    hookId: uuid('hook_id')
      .notNull()
      .references(() => hooks.id, { onDelete: 'cascade' }),
    destinationId: uuid('destination_id')
      .notNull()
      .references(() => integrations.id, { onDelete: 'cascade' }),
    status: text('status').$type<DeliveryStatus>().notNull().default('pending'),
    attempts: integer('attempts').notNull().default(0),
    /** When it is due; for a `held` delivery, when it was held (the retention counts from it). */
    nextAttemptAt: timestamp('next_attempt_at', { withTimezone: true }).notNull().defaultNow(),
    firstAttemptAt: timestamp('first_attempt_at', { withTimezone: true }),
    leaseUntil: timestamp('lease_until', { withTimezone: true }),
    leasedBy: text('leased_by'),
    /** `${leadId}:${destinationId}`: the same on every retry. */
    idempotencyKey: text('idempotency_key').notNull().unique(),
    lastError: text('last_error'),
    externalId: text('external_id'),
    deliveredAt: timestamp('delivered_at', { withTimezone: true }),
    /** Creation order within a destination, for draining a backlog in order. */
    seq: bigint('seq', { mode: 'number' }).generatedAlwaysAsIdentity(),
    createdAt: createdAt(),
  },
  (t) => [
    // The claim's order (queue.ts CLAIM): pending deliveries by due time, then creation; finished
    // ones (nearly all rows) are not in it, so a claim reads what it takes.
    index('deliveries_due_idx').on(t.nextAttemptAt, t.seq).where(sql`${t.status} = 'pending'`),
    // Leases that ran out (a worker died): the few running deliveries.
    index('deliveries_leased_idx').on(t.leaseUntil).where(sql`${t.status} = 'running'`),
    index('deliveries_hook_idx').on(t.hookId),
    index('deliveries_destination_idx').on(t.destinationId, t.status),
    // A CRM's webhook names its record: the delivery that made it (issue 19, speed to lead).
    index('deliveries_external_idx').on(t.destinationId, t.externalId).where(sql`${t.externalId} is not null`),
    // Held deliveries only (few next to the rest): an account's, to release or count them, oldest first.
    index('deliveries_held_idx').on(t.accountId, t.nextAttemptAt).where(sql`${t.status} = 'held'`),
  ],
);
export type DeliveryRow = typeof deliveries.$inferSelect;

export interface AttemptTraceJson {
  method?: string;
  url?: string;
  headers?: Record<string, string>;
  status?: number;
  body?: unknown;
}

export const deliveryAttempts = pgTable(
  'delivery_attempts',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    deliveryId: uuid('delivery_id')
      .notNull()
      .references(() => deliveries.id, { onDelete: 'cascade' }),
    number: integer('number').notNull(),
    outcome: text('outcome').$type<AttemptOutcome>().notNull(),
    httpStatus: integer('http_status'),
    request: jsonb('request').$type<AttemptTraceJson>(),
    response: jsonb('response').$type<AttemptTraceJson>(),
    error: text('error'),
    durationMs: integer('duration_ms').notNull(),
    startedAt: timestamp('started_at', { withTimezone: true }).notNull(),
  },
  (t) => [index('delivery_attempts_delivery_idx').on(t.deliveryId, t.number)],
);
export type DeliveryAttemptRow = typeof deliveryAttempts.$inferSelect;

/** A delivery out of attempts or failed permanently; super-admin can restart it. */
export const errorRecords = pgTable(
  'error_records',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    accountId: uuid('account_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    deliveryId: uuid('delivery_id')
      .notNull()
      .unique()
      .references(() => deliveries.id, { onDelete: 'cascade' }),
    message: text('message').notNull(),
    createdAt: createdAt(),
    restartedAt: timestamp('restarted_at', { withTimezone: true }),
  },
  (t) => [index('error_records_created_idx').on(t.createdAt)],
);

/** Circuit breaker per destination integration. */
export const destinationHealth = pgTable('destination_health', {
  destinationId: uuid('destination_id')
    .primaryKey()
    .references(() => integrations.id, { onDelete: 'cascade' }),
  consecutiveFailures: integer('consecutive_failures').notNull().default(0),
  pausedUntil: timestamp('paused_until', { withTimezone: true }),
  /** How many pauses in a row: each one is longer. */
  pauses: integer('pauses').notNull().default(0),
  updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
});

/** Round-robin position per distribution collection: one atomic increment per lead. */
export const distributionCursors = pgTable('distribution_cursors', {
  collectionId: uuid('collection_id').primaryKey(),
  counter: bigint('counter', { mode: 'number' }).notNull().default(0),
});
