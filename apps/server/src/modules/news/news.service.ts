// News posts: staff write them, everyone reads them (spec 7 "Posts").
import { createHash } from 'node:crypto';
import {
  DEFAULT_TIME_ZONE,
  type Post,
  type PostAnalytics,
  type PostList,
  type PostListQuery,
  type PostUpdate,
} from '@leadrelay/shared';
import { and, count, desc, eq, gte, sql } from 'drizzle-orm';
import { DateTime } from 'luxon';
import type { Executor } from '../../db/client';
import { type PostRow, posts, postViews } from '../../db/schema';
import { AppError } from '../../lib/app-error';
import { isUuid } from '../../lib/ids';
import { type AuditActor, recordAudit } from '../audit';
import { plainText, sanitizePostHtml } from './news-content';

export const POSTS_PATH = '/api/legacy/api/post';

/** The image's address carries the edit time, so a changed post never shows a cached old image. */
export const imageUrl = (row: Pick<PostRow, 'id' | 'updatedAt'>) =>
  `${POSTS_PATH}/image/${row.id}?v=${row.updatedAt.getTime().toString(36)}`;

const listColumns = {
  id: posts.id,
  title: posts.title,
  text: posts.text,
  titleEn: posts.titleEn,
  textEn: posts.textEn,
  views: posts.views,
  createdAt: posts.createdAt,
  updatedAt: posts.updatedAt,
};
type PostFields = Pick<PostRow, keyof typeof listColumns>;

const toPost = (row: PostFields): Post => ({
  _id: row.id,
  title: row.title,
  text: row.text,
  en: row.titleEn !== null && row.textEn !== null ? { title: row.titleEn, text: row.textEn } : null,
  image: imageUrl(row),
  views: row.views,
  createdAt: row.createdAt.toISOString(),
  updatedAt: row.updatedAt.toISOString(),
});

export async function listPosts(db: Executor, query: PostListQuery): Promise<PostList> {
  const [rows, [total]] = await Promise.all([
    db
      .select(listColumns)
      .from(posts)
      .orderBy(desc(posts.createdAt), desc(posts.id))
      .limit(query.limit)
      .offset((query.page - 1) * query.limit),
    db.select({ n: count() }).from(posts),
  ]);
  return { data: rows.map(toPost), total: total?.n ?? 0 };
}

async function postFields(db: Executor, id: string): Promise<PostFields> {
  if (!isUuid(id)) throw new AppError('POST_NOT_FOUND');
  const [row] = await db.select(listColumns).from(posts).where(eq(posts.id, id));
  if (!row) throw new AppError('POST_NOT_FOUND');
  return row;
}

export const getPost = async (db: Executor, id: string): Promise<Post> => toPost(await postFields(db, id));

/** What a link preview of the post shows (Open Graph): the version the link's language reads. */
export async function postPreview(db: Executor, id: string, lang: 'uk' | 'en' = 'uk') {
  const post = await postFields(db, id).catch(() => null);
  if (!post) return null;
  const version =
    lang === 'en' && post.titleEn !== null && post.textEn !== null
      ? { title: post.titleEn, text: post.textEn }
      : { title: post.title, text: post.text };
  const text = plainText(version.text);
  return {
    title: version.title,
    description: text.length > 200 ? `${text.slice(0, 197).trimEnd()}…` : text,
    image: imageUrl(post),
  };
}

export async function postImage(db: Executor, id: string): Promise<{ data: Buffer; type: string }> {
  if (!isUuid(id)) throw new AppError('POST_NOT_FOUND');
  const [row] = await db.select({ data: posts.image, type: posts.imageType }).from(posts).where(eq(posts.id, id));
  if (!row) throw new AppError('POST_NOT_FOUND');
  return row;
}

/** Sanitised text that still says something: markup alone (`<script>` only) is no text. */
function cleanText(html: string, field: 'text' | 'textEn' = 'text'): string {
  const clean = sanitizePostHtml(html);
  if (!plainText(clean)) throw new AppError('REQUIRED', { errors: [{ field, code: 'REQUIRED' }] });
  return clean;
}

/** The English columns an input asks for: set (both given), removed (null), or untouched (absent). */
function englishColumns(input: { titleEn?: string | null; textEn?: string | null }) {
  if (input.titleEn && input.textEn) return { titleEn: input.titleEn, textEn: cleanText(input.textEn, 'textEn') };
  if (input.titleEn === null || input.textEn === null) return { titleEn: null, textEn: null };
  return {};
}

export async function createPost(
  db: Executor,
  actor: AuditActor,
  input: { title: string; text: string; titleEn?: string; textEn?: string; image: { data: Buffer; type: string } },
): Promise<Post> {
  const text = cleanText(input.text);
  const english = englishColumns(input);
  return db.transaction(async (tx) => {
    const [row] = await tx
      .insert(posts)
      .values({
        title: input.title,
        text,
        ...english,
        image: input.image.data,
        imageType: input.image.type,
        authorId: actor.actorId,
      })
      .returning(listColumns);
    await recordAudit(tx, actor, {
      action: 'post.create',
      targetType: 'post',
      targetId: row!.id,
      targetLabel: row!.title,
    });
    return toPost(row!);
  });
}

export async function updatePost(
  db: Executor,
  actor: AuditActor,
  id: string,
  input: PostUpdate & { image?: { data: Buffer; type: string } },
): Promise<Post> {
  const before = await postFields(db, id);
  const text = cleanText(input.text);
  const english = englishColumns(input);
  return db.transaction(async (tx) => {
    const [row] = await tx
      .update(posts)
      .set({
        text,
        ...(input.title ? { title: input.title } : {}),
        ...english,
        ...(input.image ? { image: input.image.data, imageType: input.image.type } : {}),
        updatedAt: new Date(),
      })
      .where(eq(posts.id, id))
      .returning(listColumns);
    if (!row) throw new AppError('POST_NOT_FOUND');
    await recordAudit(tx, actor, {
      action: 'post.update',
      targetType: 'post',
      targetId: id,
      targetLabel: row.title,
      details: {
        ...(before.title !== row.title ? { title: [before.title, row.title] } : {}),
        text: before.text !== row.text ? 'changed' : 'unchanged',
        ...(before.titleEn !== row.titleEn || before.textEn !== row.textEn
          ? { english: row.titleEn === null ? 'removed' : before.titleEn === null ? 'added' : 'changed' }
          : {}),
        ...(input.image ? { image: 'replaced' } : {}),
      },
    });
    return toPost(row);
  });
}

export async function deletePost(db: Executor, actor: AuditActor, id: string): Promise<void> {
  if (!isUuid(id)) throw new AppError('POST_NOT_FOUND');
  await db.transaction(async (tx) => {
    const [row] = await tx.delete(posts).where(eq(posts.id, id)).returning({ title: posts.title });
    if (!row) throw new AppError('POST_NOT_FOUND');
    await recordAudit(tx, actor, { action: 'post.delete', targetType: 'post', targetId: id, targetLabel: row.title });
  });
}

/** A visitor's id: kept in a cookie; the first one is a hash of address and browser (never stored raw). */
export const visitorIdOf = (ip: string, userAgent: string) =>
  createHash('sha256').update(`${ip}\n${userAgent}`).digest('base64url').slice(0, 32);
export const isVisitorId = (id: string) => /^[A-Za-z0-9_-]{16,64}$/.test(id);

/**
 * The zone of a view's day (issue 31). Visitors have no account and the views are counted per day
 * as they come, so the days are the platform's: Kyiv (the default account zone), for every viewer
 * and every staff member alike; the analytics card says so.
 */
export const VIEWS_TIME_ZONE = DEFAULT_TIME_ZONE;

/** The day (YYYY-MM-DD) an instant falls on in the views' zone. */
const viewDay = (at: Date) => DateTime.fromJSDate(at, { zone: VIEWS_TIME_ZONE }).toISODate()!;

/** Counts a view once per visitor and day (Kyiv); answers the post's total either way. */
export async function addView(
  db: Executor,
  id: string,
  visitor: string,
  now = new Date(),
): Promise<{ views: number; counted: boolean }> {
  if (!isUuid(id)) throw new AppError('POST_NOT_FOUND');
  return db.transaction(async (tx) => {
    const [exists] = await tx.select({ id: posts.id }).from(posts).where(eq(posts.id, id));
    if (!exists) throw new AppError('POST_NOT_FOUND');
    const inserted = await tx
      .insert(postViews)
      .values({ postId: id, visitor, day: viewDay(now) })
      .onConflictDoNothing()
      .returning();
    if (inserted.length === 0) {
      const [row] = await tx.select({ views: posts.views }).from(posts).where(eq(posts.id, id));
      return { views: row?.views ?? 0, counted: false };
    }
    const [row] = await tx
      .update(posts)
      .set({ views: sql`${posts.views} + 1` })
      .where(eq(posts.id, id))
      .returning({ views: posts.views });
    return { views: row?.views ?? 0, counted: true };
  });
}

/** Views per post and day over the last `days` days (Kyiv, VIEWS_TIME_ZONE), newest posts first. */
export async function postAnalytics(
  db: Executor,
  query: { days: number; postId?: string },
  now = new Date(),
): Promise<PostAnalytics> {
  const today = DateTime.fromJSDate(now, { zone: VIEWS_TIME_ZONE }).startOf('day');
  const days = Array.from({ length: query.days }, (_, i) => today.minus({ days: query.days - 1 - i }).toISODate()!);
  const from = days[0]!;
  const postRows = await db
    .select({ id: posts.id, title: posts.title, titleEn: posts.titleEn, views: posts.views })
    .from(posts)
    .where(query.postId ? eq(posts.id, query.postId) : undefined)
    .orderBy(desc(posts.createdAt));
  const counts = await db
    .select({ postId: postViews.postId, day: postViews.day, n: count() })
    .from(postViews)
    .where(and(gte(postViews.day, from), query.postId ? eq(postViews.postId, query.postId) : undefined))
    .groupBy(postViews.postId, postViews.day);
  const byKey = new Map(counts.map((c) => [`${c.postId}|${c.day}`, c.n]));
  return {
    days,
    posts: postRows.map((p) => ({
      _id: p.id,
      title: p.title,
      titleEn: p.titleEn,
      views: p.views,
      perDay: days.map((d) => byKey.get(`${p.id}|${d}`) ?? 0),
    })),
  };
}
