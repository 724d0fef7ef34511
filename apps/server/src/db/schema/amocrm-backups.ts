import type { AmoBackup } from '@leadrelay/shared';
import { index, jsonb, pgTable, timestamp, uuid } from 'drizzle-orm/pg-core';
import { integrations } from './integrations';
import { users } from './users';

/**
 * Snapshots of an amoCRM integration (its settings and the account's pipelines, users and fields),
 * at most AMOCRM_BACKUPS_KEPT per integration. They go with the integration and with the account.
 */
export const amocrmBackups = pgTable(
  'amocrm_backups',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    accountId: uuid('account_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    integrationId: uuid('integration_id')
      .notNull()
      .references(() => integrations.id, { onDelete: 'cascade' }),
    data: jsonb('data').$type<AmoBackup['data']>().notNull(),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [index('amocrm_backups_integration_idx').on(t.integrationId, t.createdAt)],
);
export type AmocrmBackupRow = typeof amocrmBackups.$inferSelect;
