// The guardian (issue 19 part 4; docs/adr/010-manager-bot.md): what it found wrong with an
// account's sources, open until it is right again, kept as the account's history.
import type { GuardianAlertKind, OwnerTelegramLink } from '@leadrelay/shared';
import { sql } from 'drizzle-orm';
import {
  boolean,
  date,
  doublePrecision,
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
import { connectorConnections } from './connector-connections';
import { integrations } from './integrations';
import { users } from './users';

export const guardianAlerts = pgTable(
  'guardian_alerts',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    accountId: uuid('account_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    /** The integration it is about; null for an account connection's expiry (connectionId). */
    integrationId: uuid('integration_id').references(() => integrations.id, { onDelete: 'cascade' }),
    connectionId: uuid('connection_id').references(() => connectorConnections.id, { onDelete: 'cascade' }),
    kind: text('kind').$type<GuardianAlertKind>().notNull(),
    /** drought: the last lead before the silence. */
    silentSince: timestamp('silent_since', { withTimezone: true }),
    /** drought: leads the source's history expected during the silence when the alert opened. */
    expected: doublePrecision('expected'),
    /** expiry: when the credential ends. */
    expiresAt: timestamp('expires_at', { withTimezone: true }),
    /** expiry: the warning's lead time in days (7 or 1). */
    daysAhead: integer('days_ahead'),
    /** access: the reason the sender refused, as stored on the integration (a code, maybe with its words). */
    reason: text('reason'),
    openedAt: timestamp('opened_at', { withTimezone: true }).notNull().defaultNow(),
    /** When it was right again (drought: a lead came); null while open. */
    closedAt: timestamp('closed_at', { withTimezone: true }),
    /** When the account was told (mail, Telegram); null until it was. */
    notifiedAt: timestamp('notified_at', { withTimezone: true }),
  },
  (t) => [
    // One open alert per source and kind.
    uniqueIndex('guardian_alerts_open_idx').on(t.integrationId, t.kind).where(sql`${t.closedAt} is null`),
    uniqueIndex('guardian_alerts_open_connection_idx').on(t.connectionId, t.kind).where(sql`${t.closedAt} is null`),
    // Each warning of a credential's lifetime once, open or closed.
    uniqueIndex('guardian_alerts_expiry_idx')
      .on(t.integrationId, t.expiresAt, t.daysAhead)
      .where(sql`${t.kind} = 'expiry' and ${t.integrationId} is not null`),
    uniqueIndex('guardian_alerts_connection_expiry_idx')
      .on(t.connectionId, t.expiresAt, t.daysAhead)
      .where(sql`${t.kind} = 'expiry' and ${t.connectionId} is not null`),
    index('guardian_alerts_account_idx').on(t.accountId, t.openedAt),
  ],
);
export type GuardianAlertRow = typeof guardianAlerts.$inferSelect;

/** The account's choice of the guardian's mails; no row means every mail on. */
export const guardianSettings = pgTable('guardian_settings', {
  accountId: uuid('account_id')
    .primaryKey()
    .references(() => users.id, { onDelete: 'cascade' }),
  mailDrought: boolean('mail_drought').notNull().default(true),
  mailExpiry: boolean('mail_expiry').notNull().default(true),
  weeklyMail: boolean('weekly_mail').notNull().default(true),
  /** The owner's own Telegram chat on the account's bot (the guardian's notices); null when not linked. */
  telegram: jsonb('telegram').$type<OwnerTelegramLink>(),
  updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
});

/** The weekly report mails sent: one per account and week (its Monday in Kyiv), so a retry sends none. */
export const guardianWeeklyMails = pgTable(
  'guardian_weekly_mails',
  {
    accountId: uuid('account_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    /** The Monday (Kyiv) of the week the mail reports on. */
    week: date('week').notNull(),
    sentAt: timestamp('sent_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [primaryKey({ columns: [t.accountId, t.week] })],
);
