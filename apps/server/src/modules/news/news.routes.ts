// News (spec 7 "Posts"): staff manage posts under /post/admin; anyone reads them, and their views
// are counted once per visitor and day. Create, update and delete are written to the audit log.
import multipart from '@fastify/multipart';
import {
  fieldErrors,
  POST_IMAGE_MAX_BYTES,
  POST_TEXT_MAX,
  setOwn,
  ZPost,
  ZPostAnalytics,
  ZPostAnalyticsQuery,
  ZPostCreateFields,
  ZPostList,
  ZPostListQuery,
  ZPostUpdate,
  ZPostViewBody,
  ZPostViewResult,
  ZSuccessResponse,
} from '@leadrelay/shared';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { AppError } from '../../lib/app-error';
import { auditActor } from '../audit';
import * as news from './news.service';
import { storedImage } from './news-content';

const tags = ['news'];
const base = news.POSTS_PATH;
const ZIdParams = z.object({ id: z.string().max(100) });
const VISITOR_COOKIE = 'lr_visitor';

/** The create form: title and text fields and one image file, read into memory up to the limit. */
async function createForm(request: FastifyRequest) {
  const fields: Record<string, string> = {};
  let image: Buffer | undefined;
  if (request.isMultipart()) {
    try {
      for await (const part of request.parts()) {
        if (part.type === 'file') {
          const bytes = await part.toBuffer();
          if (part.fieldname === 'image' && bytes.length > 0) image = bytes;
        } else if (typeof part.value === 'string') {
          if (part.valueTruncated) throw new AppError('PAYLOAD_TOO_LARGE');
          setOwn(fields, part.fieldname, part.value);
        }
      }
    } catch (error) {
      if ((error as { code?: string }).code === 'FST_REQ_FILE_TOO_LARGE') {
        throw new AppError('IMAGE_TOO_LARGE', { errors: [{ field: 'image', code: 'IMAGE_TOO_LARGE' }] });
      }
      throw error;
    }
  } else if (request.body && typeof request.body === 'object') {
    for (const [key, value] of Object.entries(request.body)) if (typeof value === 'string') setOwn(fields, key, value);
  }
  const parsed = ZPostCreateFields.safeParse({
    title: fields.title,
    text: fields.text,
    titleEn: fields.titleEn,
    textEn: fields.textEn,
  });
  const errors = parsed.success ? [] : fieldErrors(parsed.error);
  if (!image) errors.push({ field: 'image', code: 'IMAGE_REQUIRED' });
  if (errors.length > 0 || !parsed.success || !image) {
    const typed = errors as { field: string; code: 'REQUIRED' }[];
    throw new AppError(typed[0]?.code ?? 'VALIDATION_ERROR', { errors: typed });
  }
  return { ...parsed.data, image };
}

export async function newsRoutes(app: FastifyInstance): Promise<void> {
  // Encapsulated: only these routes read multipart bodies.
  await app.register(multipart, {
    limits: { fileSize: POST_IMAGE_MAX_BYTES, files: 1, fields: 10, fieldSize: POST_TEXT_MAX * 2 },
    throwFileSizeLimit: true,
  });
  const r = app.withTypeProvider<ZodTypeProvider>();
  const { db } = app;

  // Staff
  r.get(
    `${base}/admin`,
    {
      config: { access: 'privileged' },
      schema: { tags, summary: 'Every post, newest first', querystring: ZPostListQuery, response: { 200: ZPostList } },
    },
    (req) => news.listPosts(db, req.query),
  );
  r.post(
    `${base}/admin`,
    {
      config: { access: 'privileged' },
      bodyLimit: POST_IMAGE_MAX_BYTES + POST_TEXT_MAX * 3,
      schema: {
        tags,
        summary:
          'Publish a post: a multipart form with title, text (HTML, sanitised), an image file, and optionally the English titleEn and textEn (both or neither)',
        consumes: ['multipart/form-data'],
        response: { 201: ZPost },
      },
    },
    async (req, reply) => {
      const form = await createForm(req);
      const image = await storedImage(form.image);
      return reply.code(201).send(await news.createPost(db, auditActor(req), { ...form, image }));
    },
  );
  r.get(
    `${base}/admin/get/analytics`,
    {
      config: { access: 'privileged' },
      schema: {
        tags,
        summary: 'Views per post and day (Kyiv days, the platform time zone)',
        querystring: ZPostAnalyticsQuery,
        response: { 200: ZPostAnalytics },
      },
    },
    (req) => news.postAnalytics(db, req.query),
  );
  r.get(
    `${base}/admin/:id`,
    { config: { access: 'privileged' }, schema: { tags, params: ZIdParams, response: { 200: ZPost } } },
    (req) => news.getPost(db, req.params.id),
  );
  r.put(
    `${base}/admin/:id`,
    {
      config: { access: 'privileged' },
      schema: {
        tags,
        summary: 'Change the text (and title); titleEn and textEn set the English version, both null remove it',
        params: ZIdParams,
        body: ZPostUpdate,
        response: { 200: ZPost },
      },
    },
    (req) => news.updatePost(db, auditActor(req), req.params.id, req.body),
  );
  r.delete(
    `${base}/admin/:id`,
    { config: { access: 'privileged' }, schema: { tags, params: ZIdParams, response: { 200: ZSuccessResponse } } },
    async (req) => {
      await news.deletePost(db, auditActor(req), req.params.id);
      return { success: true as const };
    },
  );

  // Everyone
  r.get(
    base,
    {
      config: { access: 'public' },
      schema: {
        tags,
        summary: 'Published posts, newest first',
        querystring: ZPostListQuery,
        response: { 200: ZPostList },
      },
    },
    (req) => news.listPosts(db, req.query),
  );
  r.get(
    `${base}/:id`,
    { config: { access: 'public' }, schema: { tags, params: ZIdParams, response: { 200: ZPost } } },
    (req) => news.getPost(db, req.params.id),
  );
  r.get(
    `${base}/image/:id`,
    { config: { access: 'public' }, schema: { tags, summary: "A post's image (JPEG)", params: ZIdParams } },
    async (req, reply) => {
      const image = await news.postImage(db, req.params.id);
      // The address changes with every edit (?v=), so the bytes behind one address never change.
      const versioned = typeof (req.query as { v?: unknown }).v === 'string';
      return reply
        .type(image.type)
        .header('x-content-type-options', 'nosniff')
        .header('cache-control', versioned ? 'public, max-age=31536000, immutable' : 'public, max-age=300')
        .send(image.data);
    },
  );
  r.put(
    `${base}/add/view/:id`,
    {
      config: { access: 'public' },
      schema: {
        tags,
        summary: 'Count a view: once per visitor and day (the body is ignored)',
        params: ZIdParams,
        body: ZPostViewBody,
        response: { 200: ZPostViewResult },
      },
    },
    async (req, reply) => {
      let id = req.cookies[VISITOR_COOKIE];
      if (!id || !news.isVisitorId(id)) {
        // A first view: the id is derived from address and browser, so a client that drops cookies
        // (a crawler, a script) still counts once a day, and the cookie keeps it stable afterwards.
        id = news.visitorIdOf(req.ip, req.headers['user-agent'] ?? '');
        reply.setCookie(VISITOR_COOKIE, id, {
          path: base,
          httpOnly: true,
          sameSite: 'lax',
          secure: app.deps.config.secureCookies,
          maxAge: 365 * 24 * 3600,
        });
      }
      const key = id;
      return news.addView(db, req.params.id, key);
    },
  );
}
