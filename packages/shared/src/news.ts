import { z } from 'zod';
import { requiredText } from './validation';

// News posts (spec 3 "Post": title, text, image, views, _id; spec 5: creation needs all three).
export const POST_TITLE_MAX = 200;
/** The HTML of a post's text, after sanitising. */
export const POST_TEXT_MAX = 100_000;
/** The largest image file accepted; it is resized to at most POST_IMAGE_WIDTH pixels wide. */
export const POST_IMAGE_MAX_BYTES = 10 * 1024 * 1024;
export const POST_IMAGE_WIDTH = 1600;
/** Spec 9: the text editor is at most 500px high. */
export const POST_EDITOR_MAX_HEIGHT = 500;

export const ZPostTitle = requiredText().pipe(
  z
    .string()
    .trim()
    .max(POST_TITLE_MAX, { error: `MAX_LENGTH_${POST_TITLE_MAX}` }),
);
export const ZPostText = requiredText().pipe(z.string().max(POST_TEXT_MAX, { error: `MAX_LENGTH_${POST_TEXT_MAX}` }));

/** A post's version in one language. */
export const ZPostVersion = z.object({ title: z.string(), text: z.string() });
export type PostVersion = z.infer<typeof ZPostVersion>;

export const ZPost = z.object({
  _id: z.string(),
  /** The Ukrainian version (every post has one). */
  title: z.string(),
  text: z.string(),
  /** The English version; null: the post is only in Ukrainian (an English page says so). */
  en: ZPostVersion.nullable(),
  /** Address of the stored image (changes when the post is edited, so caches never show an old one). */
  image: z.string(),
  views: z.number().int(),
  createdAt: z.string(),
  updatedAt: z.string(),
});
export type Post = z.infer<typeof ZPost>;

export const ZPostList = z.object({ data: z.array(ZPost), total: z.number().int() });
export type PostList = z.infer<typeof ZPostList>;

export const ZPostListQuery = z
  .object({
    page: z.coerce.number().int().min(1).max(100_000).default(1),
    limit: z.coerce.number().int().min(1).max(100).default(10),
  })
  .strict();
export type PostListQuery = z.infer<typeof ZPostListQuery>;

const present = (v: unknown) => v !== undefined && v !== null;

/** The English version is whole or absent: a title without its text (or the reverse) names the one missing. */
function englishWhole(v: { titleEn?: string | null; textEn?: string | null }, ctx: z.RefinementCtx) {
  if (present(v.titleEn) && !present(v.textEn)) ctx.addIssue({ code: 'custom', path: ['textEn'], message: 'REQUIRED' });
  if (present(v.textEn) && !present(v.titleEn))
    ctx.addIssue({ code: 'custom', path: ['titleEn'], message: 'REQUIRED' });
}

/** POST .../post/admin (a form): the Ukrainian title and text; the English ones optional, both or neither. */
export const ZPostCreateFields = z
  .object({ title: ZPostTitle, text: ZPostText, titleEn: ZPostTitle.optional(), textEn: ZPostText.optional() })
  .superRefine(englishWhole);

/**
 * PUT .../post/admin/{id}: the spec's body is the text; a title may come along, and the English
 * version: both given sets it, both null removes it, neither leaves it as it is.
 */
export const ZPostUpdate = z
  .object({
    text: ZPostText,
    title: ZPostTitle.optional(),
    titleEn: ZPostTitle.nullable().optional(),
    textEn: ZPostText.nullable().optional(),
  })
  .strict()
  .superRefine(englishWhole);
export type PostUpdate = z.infer<typeof ZPostUpdate>;

/** PUT .../post/add/view/{id}: the legacy body carries `views`; the server counts, never trusts it. */
export const ZPostViewBody = z.object({ views: z.number().optional() }).passthrough().optional();
export const ZPostViewResult = z.object({ views: z.number().int(), counted: z.boolean() });

export const ZPostAnalyticsQuery = z
  .object({
    /** Days back from today (UTC), today included. */
    days: z.coerce.number().int().min(1).max(366).default(30),
    postId: z.uuid({ message: 'VALIDATION_ERROR' }).optional(),
  })
  .strict();
export const ZPostAnalytics = z.object({
  days: z.array(z.string()),
  posts: z.array(
    z.object({
      _id: z.string(),
      title: z.string(),
      /** The English title; null: the post is only in Ukrainian. */
      titleEn: z.string().nullable(),
      views: z.number().int(),
      /** Views per day, one number per entry of `days` (oldest first). */
      perDay: z.array(z.number().int()),
    }),
  ),
});
export type PostAnalytics = z.infer<typeof ZPostAnalytics>;

// Team notes on a lead in the lead log (POST /api/legacy/api/comment).
export const COMMENT_MAX = 2000;
export const ZCommentBody = z
  .object({
    hookId: z.uuid({ message: 'VALIDATION_ERROR' }),
    text: requiredText().pipe(
      z
        .string()
        .trim()
        .max(COMMENT_MAX, { error: `MAX_LENGTH_${COMMENT_MAX}` }),
    ),
  })
  .strict();
export type CommentBody = z.infer<typeof ZCommentBody>;
export const ZComment = z.object({
  _id: z.string(),
  hookId: z.string(),
  author: z.string(),
  text: z.string(),
  createdAt: z.string(),
});
export type Comment = z.infer<typeof ZComment>;
export const ZCommentListQuery = z.object({ hookId: z.uuid({ message: 'VALIDATION_ERROR' }) }).strict();

/** Public settings of the embedded support chat (spec 3 "Support widget settings"); null: none. */
export const ZSupportChat = z
  .object({ scriptUrl: z.string(), organization: z.string(), loadImmediately: z.boolean() })
  .nullable();
export type SupportChat = z.infer<typeof ZSupportChat>;
