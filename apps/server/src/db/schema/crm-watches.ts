// The CRM tells us when a record we delivered changes stage (issue 19, speed to lead; ADR 010): one
// subscription per destination whose connector has a stage watch, made by us at the CRM, with the secret its URL
// carries. The row is written before the CRM is called, so a crash between the two leaves a row
// without remote id that the periodic task finishes; made once, removed when the integration goes.

import { index, jsonb, pgTable, text, timestamp, uuid } from 'drizzle-orm/pg-core';
import { integrations } from './integrations';
import type { SealedSecret } from './sealed-secret';
import { users } from './users';

/** What is sealed: the URL's secret and the URL we gave the CRM (a CRM may remove a subscription by its URL). */
export type CrmWatchSecret = {
  secret: string;
  url: string;
  /** A watch set up by hand: the token the CRM showed for its outgoing webhook, which its events carry. */
  token?: string;
};

export const crmWatches = pgTable(
  'crm_watches',
  {
    integrationId: uuid('integration_id')
      .primaryKey()
      .references(() => integrations.id, { onDelete: 'cascade' }),
    accountId: uuid('account_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    /** CrmWatchSecret sealed with the app's SecretBox, bound to the integration's id. */
    secret: jsonb('secret').$type<SealedSecret>().notNull(),
    /** The CRM's id of the subscription; null until the CRM accepted it. */
    remoteId: text('remote_id'),
    subscribedAt: timestamp('subscribed_at', { withTimezone: true }),
    /** The last try to subscribe (the periodic task waits a while after a failure). */
    attemptedAt: timestamp('attempted_at', { withTimezone: true }).notNull().defaultNow(),
    lastError: text('last_error'),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [index('crm_watches_pending_idx').on(t.attemptedAt)],
);
export type CrmWatchRow = typeof crmWatches.$inferSelect;
