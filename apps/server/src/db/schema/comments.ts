import { index, pgTable, text, timestamp, uuid } from 'drizzle-orm/pg-core';
import { hooks } from './routing';
import { users } from './users';

// Team notes on a lead in the lead log (POST /api/legacy/api/comment): tenant data, one account's
// own hooks only; they go with the hook (cascade) and with the account's data (comments cleaner).
export const comments = pgTable(
  'comments',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    accountId: uuid('account_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    hookId: uuid('hook_id')
      .notNull()
      .references(() => hooks.id, { onDelete: 'cascade' }),
    /** Who wrote it (the account's user, or staff entered as the user); kept as a login too. */
    authorLogin: text('author_login').notNull(),
    text: text('text').notNull(),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [index('comments_hook_idx').on(t.hookId, t.createdAt), index('comments_account_idx').on(t.accountId)],
);
export type CommentRow = typeof comments.$inferSelect;
