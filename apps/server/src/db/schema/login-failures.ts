import { bigserial, index, pgTable, text, timestamp } from 'drizzle-orm/pg-core';

// One row per failed sign-in, keyed "login:<email>" or "ip:<address>". In the database so the
// throttle holds across several API processes.
export const loginFailures = pgTable(
  'login_failures',
  {
    id: bigserial('id', { mode: 'number' }).primaryKey(),
    key: text('key').notNull(),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [index('login_failures_key_idx').on(t.key, t.createdAt)],
);
