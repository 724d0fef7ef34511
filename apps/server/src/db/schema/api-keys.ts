import { sql } from 'drizzle-orm';
import { index, pgTable, text, timestamp, uniqueIndex, uuid } from 'drizzle-orm/pg-core';
import { users } from './users';

// An account's API keys (issue 34). Only the SHA-256 of the key is kept: a request's key is looked
// up by its hash (a unique index), so a revoke is seen by every process at the next request.
export const apiKeys = pgTable(
  'api_keys',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    accountId: uuid('account_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    /** 1–60 printable characters; unique per account among live keys. */
    name: text('name').notNull(),
    scope: text('scope', { enum: ['read', 'write'] }).notNull(),
    /** `lr_` + 8 characters: the start of the key, shown to tell keys apart. */
    prefix: text('prefix').notNull(),
    /** SHA-256 (base64url) of the whole key; the key itself is never stored. */
    keyHash: text('key_hash').notNull(),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    /** Who made it (a person signed in to the account). */
    createdBy: uuid('created_by').notNull(),
    /** Updated at most once a minute per key. */
    lastUsedAt: timestamp('last_used_at', { withTimezone: true }),
    revokedAt: timestamp('revoked_at', { withTimezone: true }),
  },
  (t) => [
    uniqueIndex('api_keys_hash_idx').on(t.keyHash),
    uniqueIndex('api_keys_live_name_idx').on(t.accountId, t.name).where(sql`${t.revokedAt} is null`),
    index('api_keys_account_idx').on(t.accountId, t.createdAt),
  ],
);

export type ApiKeyRow = typeof apiKeys.$inferSelect;
