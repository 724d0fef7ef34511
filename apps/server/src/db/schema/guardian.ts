// The guardian (issue 19 part 4; docs/adr/010-manager-bot.md): what it found wrong with an
// account's sources, open until it is right again, kept as the account's history.
import type { GuardianAlertKind } from '@leadrelay/shared';
import { sql } from 'drizzle-orm';
import { doublePrecision, index, pgTable, text, timestamp, uniqueIndex, uuid } from 'drizzle-orm/pg-core';
import { integrations } from './integrations';
import { users } from './users';

export const guardianAlerts = pgTable(
  'guardian_alerts',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    accountId: uuid('account_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    integrationId: uuid('integration_id')
      .notNull()
      .references(() => integrations.id, { onDelete: 'cascade' }),
    kind: text('kind').$type<GuardianAlertKind>().notNull(),
    /** drought: the last lead before the silence. */
    silentSince: timestamp('silent_since', { withTimezone: true }),
    /** drought: leads the source's history expected during the silence when the alert opened. */
    expected: doublePrecision('expected'),
    openedAt: timestamp('opened_at', { withTimezone: true }).notNull().defaultNow(),
    /** When it was right again (drought: a lead came); null while open. */
    closedAt: timestamp('closed_at', { withTimezone: true }),
    /** When the account was told (mail, Telegram); null until it was. */
    notifiedAt: timestamp('notified_at', { withTimezone: true }),
  },
  (t) => [
    // One open alert per source and kind.
    uniqueIndex('guardian_alerts_open_idx').on(t.integrationId, t.kind).where(sql`${t.closedAt} is null`),
    index('guardian_alerts_account_idx').on(t.accountId, t.openedAt),
  ],
);
export type GuardianAlertRow = typeof guardianAlerts.$inferSelect;
