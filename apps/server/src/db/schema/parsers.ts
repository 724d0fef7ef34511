// E-mail parsers' own state beside their integration rows (type `parser`): every mail a parser
// accepted, stored whole before the SMTP 250 or the IMAP flag, with what became of it (parser_mails,
// also the queue of mails still to process), and the IMAP poll's cursor (parser_mailboxes).
// The rules, the sample and the mailbox settings live in the integration's settings; the mailbox
// password sealed in its auth.
import { sql } from 'drizzle-orm';
import {
  bigint,
  customType,
  index,
  integer,
  jsonb,
  pgTable,
  text,
  timestamp,
  uniqueIndex,
  uuid,
} from 'drizzle-orm/pg-core';
import { integrations } from './integrations';
import { users } from './users';

const bytea = customType<{ data: Buffer; driverData: Buffer }>({ dataType: () => 'bytea' });

export interface ParserAttachment {
  filename: string;
  contentType: string;
  size: number;
}

export const parserMails = pgTable(
  'parser_mails',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    integrationId: uuid('integration_id')
      .notNull()
      .references(() => integrations.id, { onDelete: 'cascade' }),
    accountId: uuid('account_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    via: text('via', { enum: ['smtp', 'imap'] }).notNull(),
    /** imap:<uidvalidity>:<uid> for a polled mail (one row per message however often it is fetched). */
    sourceKey: text('source_key'),
    /** The envelope sender (SMTP) or the From header (IMAP), as received. */
    mailFrom: text('mail_from').notNull().default(''),
    subject: text('subject').notNull().default(''),
    messageId: text('message_id'),
    size: integer('size').notNull(),
    /** The mail as received; null for a refused one (too large, rate-limited: nothing to keep). */
    raw: bytea('raw'),
    /**
     * received: stored, not processed yet; then lead, held, filtered, duplicate, no_match, rejected, or
     * failed (processing failed MAX_PARSER_MAIL_ATTEMPTS times or permanently: `reason`, `detail`).
     */
    status: text('status').notNull().default('received'),
    reason: text('reason'),
    /** A failed mail's technical details (the error's words), shown folded under the reason. */
    detail: text('detail'),
    /** Processing attempts begun (each claim counts one): bounded, so a mail that always fails ends `failed`. */
    attempts: integer('attempts').notNull().default(0),
    hookId: uuid('hook_id'),
    fields: jsonb('fields').$type<Record<string, string>>(),
    attachments: jsonb('attachments').$type<ParserAttachment[]>().notNull().default([]),
    /** A process working on it holds it until then; past that another takes it over. */
    claimedUntil: timestamp('claimed_until', { withTimezone: true }),
    receivedAt: timestamp('received_at', { withTimezone: true }).notNull().defaultNow(),
    processedAt: timestamp('processed_at', { withTimezone: true }),
  },
  (t) => [
    index('parser_mails_recent_idx').on(t.integrationId, t.receivedAt),
    index('parser_mails_received_idx').on(t.receivedAt),
    index('parser_mails_pending_idx').on(t.receivedAt).where(sql`${t.status} = 'received'`),
    uniqueIndex('parser_mails_source_key_idx').on(t.integrationId, t.sourceKey).where(sql`${t.sourceKey} is not null`),
  ],
);
export type ParserMailRow = typeof parserMails.$inferSelect;

export const parserMailboxes = pgTable('parser_mailboxes', {
  integrationId: uuid('integration_id')
    .primaryKey()
    .references(() => integrations.id, { onDelete: 'cascade' }),
  accountId: uuid('account_id')
    .notNull()
    .references(() => users.id, { onDelete: 'cascade' }),
  /** The mailbox's UIDVALIDITY the cursor belongs to; another value means the UIDs were renumbered. */
  uidValidity: bigint('uid_validity', { mode: 'number' }),
  /** Messages up to this UID are stored (parser_mails); the next poll asks for the ones after. */
  lastUid: bigint('last_uid', { mode: 'number' }).notNull().default(0),
  /** UIDs stored but not yet flagged \Seen or moved (the connection dropped first): the next poll does it. */
  pendingUids: jsonb('pending_uids').$type<number[]>().notNull().default([]),
  lastPollAt: timestamp('last_poll_at', { withTimezone: true }),
  lastError: text('last_error'),
  updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
});
export type ParserMailboxRow = typeof parserMailboxes.$inferSelect;
