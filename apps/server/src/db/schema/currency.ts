import { doublePrecision, pgTable, text, timestamp } from 'drizzle-orm/pg-core';

// The last good exchange rate of each currency, in hryvnias per unit, as the National Bank of
// Ukraine set it (`rateDate`, YYYY-MM-DD) and when we took it. Kept when the bank cannot be reached.
export const currencyRates = pgTable('currency_rates', {
  code: text('code').primaryKey(),
  rate: doublePrecision('rate').notNull(),
  rateDate: text('rate_date').notNull(),
  fetchedAt: timestamp('fetched_at', { withTimezone: true }).notNull(),
});
