import { integer, pgTable, primaryKey, text, timestamp } from 'drizzle-orm/pg-core';

// Hits per key and fixed window, shared by every API process (plugins/rate-limit.ts). UNLOGGED in
// the migration: counters need no crash safety, and skipping the WAL keeps them cheap.
export const rateWindows = pgTable(
  'rate_windows',
  {
    key: text('key').notNull(),
    windowStart: timestamp('window_start', { withTimezone: true }).notNull(),
    hits: integer('hits').notNull(),
  },
  (t) => [primaryKey({ columns: [t.key, t.windowStart] })],
);
