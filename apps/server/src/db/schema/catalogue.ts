// The catalogue of integration types (spec: "Integration setting", "Integration category and
// module"): seeded at startup from code, then editable by operators in the super-admin area.
import { boolean, index, integer, jsonb, pgTable, text, timestamp, uuid } from 'drizzle-orm/pg-core';

export const integrationCategories = pgTable('integration_categories', {
  id: uuid('id').primaryKey().defaultRandom(),
  /** Set on the categories the seed creates, so a rename by an operator is not undone; null for operators' own. */
  key: text('key').unique(),
  name: text('name').notNull(),
  order: integer('order').notNull().default(0),
  createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
});
export type IntegrationCategoryRow = typeof integrationCategories.$inferSelect;

/** One integration type: its slug is the integrations.type value and the connector's slug. */
export const integrationSettings = pgTable('integration_settings', {
  id: uuid('id').primaryKey().defaultRandom(),
  slug: text('slug').notNull().unique(),
  name: text('name').notNull(),
  kind: text('kind', { enum: ['source', 'destination'] }).notNull(),
  categoryId: uuid('category_id').references(() => integrationCategories.id, { onDelete: 'set null' }),
  hidden: boolean('hidden').notNull().default(false),
  /** For sources: the destination slugs their integrations may send to. */
  destinations: jsonb('destinations').$type<string[]>().notNull().default([]),
  tags: jsonb('tags').$type<string[]>().notNull().default([]),
  createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
});
export type IntegrationSettingRow = typeof integrationSettings.$inferSelect;

/**
 * The destination types a release has already offered to every source type. The seed adds a newly
 * shipped destination type to the sources' lists once; an operator who later removes it from a
 * source keeps that choice across restarts.
 */
export const catalogueShippedDestinations = pgTable('catalogue_shipped_destinations', {
  slug: text('slug').primaryKey(),
  shippedAt: timestamp('shipped_at', { withTimezone: true }).notNull().defaultNow(),
});

/** A step or feature of a type shown in order on its screen (e.g. "Connect", "Mapping"). */
export const integrationModules = pgTable(
  'integration_modules',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    settingId: uuid('setting_id')
      .notNull()
      .references(() => integrationSettings.id, { onDelete: 'cascade' }),
    name: text('name').notNull(),
    slug: text('slug'),
    order: integer('order').notNull().default(0),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [index('integration_modules_setting_idx').on(t.settingId, t.order)],
);
export type IntegrationModuleRow = typeof integrationModules.$inferSelect;
