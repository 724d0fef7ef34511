import { index, pgTable, text, timestamp, uuid } from 'drizzle-orm/pg-core';
import { users } from './users';

export const sessions = pgTable(
  'sessions',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    userId: uuid('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    tokenHash: text('token_hash').notNull(),
    // The token replaced by the last rotation, accepted for a short grace (two tabs refreshing at once).
    previousHash: text('previous_hash'),
    rotatedAt: timestamp('rotated_at', { withTimezone: true }),
    revokedAt: timestamp('revoked_at', { withTimezone: true }),
    userAgent: text('user_agent').notNull().default(''),
    ip: text('ip').notNull().default(''),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    lastUsedAt: timestamp('last_used_at', { withTimezone: true }).notNull().defaultNow(),
    expiresAt: timestamp('expires_at', { withTimezone: true }).notNull(),
    /** Set on a session a staff member opened to enter this account (short-lived, no refresh token). */
    impersonatorId: uuid('impersonator_id').references(() => users.id, { onDelete: 'cascade' }),
    impersonatorLogin: text('impersonator_login'),
  },
  (t) => [index('sessions_user_idx').on(t.userId)],
);

export type SessionRow = typeof sessions.$inferSelect;
