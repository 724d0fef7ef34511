// Meta lead forms: Facebook profiles an account connected (Facebook Login), the pages and ad
// accounts each one manages. Tokens are sealed with the app's SecretBox, bound to the row's id.
import { boolean, index, jsonb, pgTable, text, timestamp, uniqueIndex, uuid } from 'drizzle-orm/pg-core';
import type { SealedSecret } from './sealed-secret';
import { users } from './users';

/** One Facebook profile connected to an account; reconnecting the same profile updates its row. */
export const fbConnections = pgTable(
  'fb_connections',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    accountId: uuid('account_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    fbUserId: text('fb_user_id').notNull(),
    name: text('name').notNull(),
    email: text('email'),
    /** The long-lived user token, sealed ({ accessToken }). */
    userToken: jsonb('user_token').$type<SealedSecret>().notNull(),
    tokenExpiresAt: timestamp('token_expires_at', { withTimezone: true }),
    /** 'broken' when Facebook refused the token or a permission; the user reconnects. */
    status: text('status', { enum: ['ok', 'broken'] })
      .notNull()
      .default('ok'),
    statusReason: text('status_reason'),
    /** Set when the account was e-mailed about the current outage; cleared when it is ok again. */
    brokenNotifiedAt: timestamp('broken_notified_at', { withTimezone: true }),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [uniqueIndex('fb_connections_account_user_idx').on(t.accountId, t.fbUserId)],
);
export type FbConnectionRow = typeof fbConnections.$inferSelect;

/** A page the connection's profile manages, with its page token (sealed { accessToken }). */
export const fbPages = pgTable(
  'fb_pages',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    accountId: uuid('account_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    connectionId: uuid('connection_id')
      .notNull()
      .references(() => fbConnections.id, { onDelete: 'cascade' }),
    pageId: text('page_id').notNull(),
    name: text('name').notNull(),
    category: text('category'),
    pageToken: jsonb('page_token').$type<SealedSecret>().notNull(),
    /** Our app is installed on the page for leadgen (page subscribed_apps). */
    isSubscribed: boolean('is_subscribed').notNull().default(false),
    subscribedAt: timestamp('subscribed_at', { withTimezone: true }),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    uniqueIndex('fb_pages_connection_page_idx').on(t.connectionId, t.pageId),
    // The webhook routes a leadgen event by page id, across accounts.
    index('fb_pages_page_idx').on(t.pageId),
  ],
);
export type FbPageRow = typeof fbPages.$inferSelect;

export const fbAdAccounts = pgTable(
  'fb_ad_accounts',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    accountId: uuid('account_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    connectionId: uuid('connection_id')
      .notNull()
      .references(() => fbConnections.id, { onDelete: 'cascade' }),
    adAccountId: text('ad_account_id').notNull(),
    name: text('name').notNull(),
  },
  (t) => [uniqueIndex('fb_ad_accounts_connection_ad_account_idx').on(t.connectionId, t.adAccountId)],
);
export type FbAdAccountRow = typeof fbAdAccounts.$inferSelect;
