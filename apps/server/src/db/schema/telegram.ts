// The Telegram manager bot (issue 19, ADR 010): the one-time codes that link a distribution item (a
// manager) to their Telegram chat, and the cards the bot sent, so a press edits every card of a lead.
import { bigint, index, pgTable, text, timestamp, unique, uuid } from 'drizzle-orm/pg-core';
import { collections, integrations } from './integrations';
import { leads } from './routing';
import { users } from './users';

export const telegramLinkCodes = pgTable(
  'telegram_link_codes',
  {
    code: text('code').primaryKey(),
    accountId: uuid('account_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    /** The manager's collection and item; null on an owner's code. */
    collectionId: uuid('collection_id').references(() => collections.id, { onDelete: 'cascade' }),
    itemId: text('item_id'),
    /** manager: a collection item's chat (the cards); owner: the account owner's chat (the guardian's notices). */
    purpose: text('purpose').$type<'manager' | 'owner'>().notNull().default('manager'),
    /** The Telegram destination whose bot the manager opens. */
    integrationId: uuid('integration_id')
      .notNull()
      .references(() => integrations.id, { onDelete: 'cascade' }),
    expiresAt: timestamp('expires_at', { withTimezone: true }).notNull(),
    /** Set by the one /start that used it; a code is used once. */
    usedAt: timestamp('used_at', { withTimezone: true }),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [index('telegram_link_codes_item_idx').on(t.collectionId, t.itemId)],
);
export type TelegramLinkCodeRow = typeof telegramLinkCodes.$inferSelect;

export const telegramCards = pgTable(
  'telegram_cards',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    accountId: uuid('account_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    leadId: uuid('lead_id')
      .notNull()
      .references(() => leads.id, { onDelete: 'cascade' }),
    /** The Telegram destination that sent it. */
    integrationId: uuid('integration_id')
      .notNull()
      .references(() => integrations.id, { onDelete: 'cascade' }),
    /** The distribution item (manager) it went to. */
    itemId: text('item_id').notNull(),
    itemName: text('item_name'),
    chatId: bigint('chat_id', { mode: 'number' }).notNull(),
    messageId: bigint('message_id', { mode: 'number' }).notNull(),
    /** 'uk' | 'en': the card's language, kept for its edits. */
    language: text('language').notNull(),
    /** The card's text as sent (HTML), so an edit appends to it. */
    text: text('text').notNull(),
    /** 'open', 'taken' or 'passed' (the lead went on to another manager). */
    state: text('state').notNull().default('open'),
    /** Who the lead went on to, for a passed card (its footer is kept through later edits). */
    passedTo: text('passed_to'),
    sentAt: timestamp('sent_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    unique('telegram_cards_lead_destination_item').on(t.leadId, t.integrationId, t.itemId),
    index('telegram_cards_lead_idx').on(t.leadId),
  ],
);
export type TelegramCardRow = typeof telegramCards.$inferSelect;
