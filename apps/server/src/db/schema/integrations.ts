import type { WorkingHours } from '@leadrelay/shared';
import { sql } from 'drizzle-orm';
import { boolean, index, jsonb, pgTable, text, timestamp, uniqueIndex, uuid } from 'drizzle-orm/pg-core';
import { users } from './users';

/** An account's configured node: a source (owns destination ids) or a destination. */
export const integrations = pgTable(
  'integrations',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    accountId: uuid('account_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    /** Catalogue slug: a connector's (packages/connectors), or a type with no connector (webhook, parser). */
    type: text('type').notNull(),
    name: text('name').notNull(),
    active: boolean('active').notNull().default(true),
    /** Mapping, filters, dedupe policy and other per-integration behaviour. */
    options: jsonb('options').$type<Record<string, unknown>>().notNull().default({}),
    /** Connector settings (validated by the connector's settings schema). */
    settings: jsonb('settings').$type<Record<string, unknown>>().notNull().default({}),
    /** Connector credentials; secrets inside are encrypted at rest by the module that writes them. */
    auth: jsonb('auth').$type<Record<string, unknown>>(),
    /** For sources: the destination integrations' ids, in order. */
    destinationIds: jsonb('destination_ids').$type<string[]>().notNull().default([]),
    distributionId: uuid('distribution_id'),
    /** Secret part of a source's webhook URL (generateHook). */
    hookToken: text('hook_token'),
    /** 'ok' or 'broken' (a connection the user must fix), with the reason shown in the UI. */
    status: text('status', { enum: ['ok', 'broken'] })
      .notNull()
      .default('ok'),
    statusReason: text('status_reason'),
    /**
     * When the stored credential stops working unless used or renewed (an OAuth refresh token with a
     * known lifetime; the connector declares it). Kept outside the sealed auth so the guardian can warn.
     */
    credentialExpiresAt: timestamp('credential_expires_at', { withTimezone: true }),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    index('integrations_account_idx').on(t.accountId, t.createdAt),
    uniqueIndex('integrations_hook_token_idx').on(t.hookToken).where(sql`${t.hookToken} is not null`),
  ],
);
export type IntegrationRow = typeof integrations.$inferSelect;

export interface CollectionItem {
  id: string;
  name: string;
  /** The value passed to the destination, e.g. the CRM user id. */
  value: string;
  /** Round-robin weight, 1 by default. */
  weight?: number;
  /** The manager's Telegram chat, set only by the bot's /start with a link code (issue 19). */
  telegram?: { chatId: number; username?: string; language: 'uk' | 'en'; linkedAt: string };
  /** Working hours (issue 19); absent: always on duty. */
  hours?: WorkingHours;
  /** The away switch (web or bot): off duty whatever the hours say. */
  away?: boolean;
}

/** A named list, e.g. the responsible users an integration's leads are distributed to. */
export const collections = pgTable(
  'collections',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    accountId: uuid('account_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    name: text('name').notNull(),
    items: jsonb('items').$type<CollectionItem[]>().notNull().default([]),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [index('collections_account_idx').on(t.accountId, t.createdAt)],
);
export type CollectionRow = typeof collections.$inferSelect;
