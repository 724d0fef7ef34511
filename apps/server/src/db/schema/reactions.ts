// How fast a team reacts to its leads (issue 19, speed to lead): the first time a manager took a
// lead, and the first time they called back. One row per lead and kind, whoever pressed first and
// however often: the unique key decides between two presses at once.
import type { ReactionKind, ReactionVia } from '@leadrelay/shared';
import { index, pgTable, text, timestamp, unique, uuid } from 'drizzle-orm/pg-core';
import { integrations } from './integrations';
import { leads } from './routing';
import { users } from './users';

export const leadReactions = pgTable(
  'lead_reactions',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    accountId: uuid('account_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    leadId: uuid('lead_id')
      .notNull()
      .references(() => leads.id, { onDelete: 'cascade' }),
    /** The lead's source integration (the report groups by it). */
    integrationId: uuid('integration_id')
      .notNull()
      .references(() => integrations.id, { onDelete: 'cascade' }),
    kind: text('kind').$type<ReactionKind>().notNull(),
    /** Who reacted: a distribution item's value and name, or the signed-in user (via web). */
    byId: text('by_id'),
    byName: text('by_name'),
    via: text('via').$type<ReactionVia>().notNull(),
    at: timestamp('at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    unique('lead_reactions_lead_kind').on(t.leadId, t.kind),
    index('lead_reactions_account_idx').on(t.accountId, t.at),
  ],
);
export type LeadReactionRow = typeof leadReactions.$inferSelect;
