import { index, pgTable, text, timestamp, uniqueIndex, uuid } from 'drizzle-orm/pg-core';

// Interface languages and the operator's strings (docs/translations.md). The shipped strings live
// in the web app's locale files; these rows override them, or fill in a language added here.
export const locales = pgTable('locales', {
  /** The language code used in URLs and i18next (`uk`, `en`, `pl`). */
  code: text('code').primaryKey(),
  /** BCP 47 tag for Intl and <html lang> (`uk-UA`). */
  iso: text('iso').notNull(),
  /** The locale file name the spec's locale entry carries (`uk.json`). */
  file: text('file').notNull(),
  /** The domain the language is served on; empty: the app's own. */
  domain: text('domain').notNull().default(''),
  dir: text('dir', { enum: ['ltr', 'rtl'] })
    .notNull()
    .default('ltr'),
  /** The language's own name, shown in the switcher (`Українська`). */
  name: text('name').notNull(),
  createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
});

export const translations = pgTable(
  'translations',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    locale: text('locale')
      .notNull()
      .references(() => locales.code, { onDelete: 'cascade' }),
    /** The i18next namespace (`common`, `errors`...). */
    namespace: text('namespace').notNull(),
    /** The key inside the namespace, dotted (`actions.save`, `days_few`). */
    key: text('key').notNull(),
    value: text('value').notNull(),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    uniqueIndex('translations_locale_key_idx').on(t.locale, t.namespace, t.key),
    index('translations_locale_idx').on(t.locale, t.updatedAt),
  ],
);

export type LocaleRow = typeof locales.$inferSelect;
export type TranslationRow = typeof translations.$inferSelect;
