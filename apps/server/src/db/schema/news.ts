import { sql } from 'drizzle-orm';
import {
  check,
  customType,
  date,
  index,
  integer,
  pgTable,
  primaryKey,
  text,
  timestamp,
  uuid,
} from 'drizzle-orm/pg-core';
import { users } from './users';

const bytea = customType<{ data: Buffer; driverData: Buffer }>({ dataType: () => 'bytea' });

// News posts (spec 3 "Post"): platform-wide, written by staff, read by everyone. The image lives
// in PostgreSQL (already resized), so every API process serves the same bytes with no shared disk.
export const posts = pgTable(
  'posts',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    title: text('title').notNull(),
    /** Sanitised HTML (sanitize-html on the server, never trusted from the browser). */
    text: text('text').notNull(),
    /** The English version (title and sanitised HTML), both or neither; title and text above are Ukrainian. */
    titleEn: text('title_en'),
    textEn: text('text_en'),
    image: bytea('image').notNull(),
    imageType: text('image_type').notNull(),
    views: integer('views').notNull().default(0),
    authorId: uuid('author_id').references(() => users.id, { onDelete: 'set null' }),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    index('posts_created_idx').on(t.createdAt),
    check('posts_en_whole', sql`(${t.titleEn} is null) = (${t.textEn} is null)`),
  ],
);
export type PostRow = typeof posts.$inferSelect;

/** One row per post, visitor and day: a view counts once per visitor and day (Kyiv, the platform's zone). */
export const postViews = pgTable(
  'post_views',
  {
    postId: uuid('post_id')
      .notNull()
      .references(() => posts.id, { onDelete: 'cascade' }),
    /** A random id from the visitor's cookie (or a hash of address and agent without one). */
    visitor: text('visitor').notNull(),
    day: date('day', { mode: 'string' }).notNull().default(sql`(now() at time zone 'Europe/Kyiv')::date`),
  },
  (t) => [primaryKey({ columns: [t.postId, t.visitor, t.day] }), index('post_views_day_idx').on(t.day)],
);
