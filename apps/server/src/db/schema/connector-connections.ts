// Account connections (issue 29, ADR 013 "Connections and assets"): a login at a service that several
// integrations of an account share (a lead-ads login's user token; other ad platforms' logins of
// issue 32 have the same shape), the assets it reaches (pages with their own tokens, ad accounts,
// forms …), the events its service sends us, kept until they are processed, and how far a backfill
// of what those events missed has read. Which connector a row is of is its `type` (the connector's
// slug); what is the connector's own is JSON (`details`, an event's `data`, a cursor).
// Tokens are sealed with the app's SecretBox, bound to the row's id.
import {
  boolean,
  index,
  integer,
  jsonb,
  pgTable,
  primaryKey,
  text,
  timestamp,
  uniqueIndex,
  uuid,
} from 'drizzle-orm/pg-core';
import type { SealedSecret } from './sealed-secret';
import { users } from './users';

/** One login an account made at a service; logging in again as the same person updates its row. */
export const connectorConnections = pgTable(
  'connector_connections',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    accountId: uuid('account_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    /** The connector's slug. */
    type: text('type').notNull(),
    /** Who logged in, as the service names them (a user id). */
    externalId: text('external_id').notNull(),
    name: text('name').notNull(),
    email: text('email'),
    /** The login's token, sealed ({ accessToken }). */
    secret: jsonb('secret').$type<SealedSecret>().notNull(),
    /** When the service stops honouring the token (null: it does not say). */
    expiresAt: timestamp('expires_at', { withTimezone: true }),
    /** 'broken' when the service refused the token or a permission; the person logs in again. */
    status: text('status', { enum: ['ok', 'broken'] })
      .notNull()
      .default('ok'),
    statusReason: text('status_reason'),
    /** Set when the account was e-mailed about the current outage; cleared when it is ok again. */
    brokenNotifiedAt: timestamp('broken_notified_at', { withTimezone: true }),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [uniqueIndex('connector_connections_account_type_external_idx').on(t.accountId, t.type, t.externalId)],
);
export type ConnectorConnectionRow = typeof connectorConnections.$inferSelect;

/** What a connection reaches (a page, an ad account), with its own token when it has one (sealed { accessToken }). */
export const connectorAssets = pgTable(
  'connector_assets',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    accountId: uuid('account_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    connectionId: uuid('connection_id')
      .notNull()
      .references(() => connectorConnections.id, { onDelete: 'cascade' }),
    /** The connector's kind of asset (`page`, `adAccount`). */
    kind: text('kind').notNull(),
    externalId: text('external_id').notNull(),
    name: text('name').notNull(),
    /** The connector's own fields of it (a page's category). */
    details: jsonb('details').$type<Record<string, string | null>>().notNull().default({}),
    secret: jsonb('secret').$type<SealedSecret>(),
    /** The service sends us its events (a page's leadgen webhooks). */
    subscribed: boolean('subscribed').notNull().default(false),
    subscribedAt: timestamp('subscribed_at', { withTimezone: true }),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    uniqueIndex('connector_assets_connection_kind_external_idx').on(t.connectionId, t.kind, t.externalId),
    // An inbound event names its asset by the service's id, across accounts.
    index('connector_assets_kind_external_idx').on(t.kind, t.externalId),
  ],
);
export type ConnectorAssetRow = typeof connectorAssets.$inferSelect;

export const INBOUND_EVENT_STATUSES = ['pending', 'waiting', 'done', 'failed', 'skipped'] as const;
export type InboundEventStatus = (typeof INBOUND_EVENT_STATUSES)[number];

/**
 * Events a connection's service sent us (a Meta leadgen notification) or its backfill found: the
 * receiver writes a row before it answers, the processor fetches and ingests it. One row per
 * connector and event id is the dedupe across retries, duplicates and the backfill; rows are kept
 * 14 days after they settle.
 */
export const connectorInboundEvents = pgTable(
  'connector_inbound_events',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    /** The connector's slug. */
    type: text('type').notNull(),
    /** The service's id of the event's item (a leadgen id). */
    externalId: text('external_id').notNull(),
    /** The asset it is about, by the service's id (a page id). */
    assetId: text('asset_id').notNull(),
    /** What else the event says, in the connector's shape (a form id). */
    data: jsonb('data').$type<Record<string, string>>().notNull().default({}),
    /** webhook | sweep: who told us about it. */
    origin: text('origin', { enum: ['webhook', 'sweep'] }).notNull(),
    /**
     * pending: due at next_at (a claim moves next_at past its lease); waiting: a connection's token
     * was refused, retried once no connection of the asset is broken (or at next_at); done; failed
     * (the service does not know it, or retries ran out); skipped (no integration takes it).
     */
    status: text('status', { enum: INBOUND_EVENT_STATUSES }).notNull().default('pending'),
    attempts: integer('attempts').notNull().default(0),
    nextAt: timestamp('next_at', { withTimezone: true }).notNull().defaultNow(),
    /** Connections whose integrations already took it: a retry skips them. */
    doneConnections: jsonb('done_connections').$type<string[]>().notNull().default([]),
    lastError: text('last_error'),
    receivedAt: timestamp('received_at', { withTimezone: true }).notNull().defaultNow(),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    uniqueIndex('connector_inbound_events_type_external_idx').on(t.type, t.externalId),
    index('connector_inbound_events_due_idx').on(t.status, t.nextAt),
  ],
);
export type ConnectorInboundEventRow = typeof connectorInboundEvents.$inferSelect;

/**
 * How far a connector's backfill has read each of its keys (a lead form), across connections and
 * accounts: the next sweep starts a little before. Not connector_state, which is one row per
 * integration: a form's cursor is shared by every integration and connection that takes it.
 */
export const connectorCursors = pgTable(
  'connector_cursors',
  {
    type: text('type').notNull(),
    key: text('key').notNull(),
    /** The asset the key belongs to (a form's page). */
    assetId: text('asset_id').notNull(),
    until: timestamp('until', { withTimezone: true }).notNull(),
  },
  (t) => [primaryKey({ columns: [t.type, t.key] })],
);
