import { createHash } from 'node:crypto';
import {
  ZLocaleAddBody,
  ZPublicLocale,
  ZSuccessResponse,
  ZTranslation,
  ZTranslationList,
  ZTranslationPutBody,
  ZTranslationSaveBody,
  ZTranslationsQuery,
} from '@leadrelay/shared';
import type { FastifyInstance, FastifyReply } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { auditActor } from '../audit';
import { findWebLocales, loadShippedStrings } from './shipped-strings';
import { addLocale, listLocales, TranslationsCatalogue } from './translations.service';

export interface TranslationsRoutesOptions {
  /** The web app's locale files; default apps/web/src/locales found from here. */
  localesDir?: string | null;
}

const ZLocaleParams = z.object({
  locale: z.string().regex(/^[a-z]{2,3}(-[a-z0-9]{2,8})?$/, { message: 'VALIDATION_ERROR' }),
});
const ZBundleParams = ZLocaleParams.extend({
  namespace: z.string().regex(/^[A-Za-z]{1,40}$/, { message: 'VALIDATION_ERROR' }),
});
const ZIdParams = z.object({ id: z.uuid({ message: 'VALIDATION_ERROR' }) });
/** A list in a query string, as i18next joins it: `a+b` (a `+` reads as a space there) or `a,b`. */
const queryList = (item: z.ZodString, max: number) =>
  z
    .string()
    .transform((text) => [...new Set(text.split(/[\s+,]+/).filter(Boolean))])
    .pipe(z.array(item).min(1).max(max, { message: 'VALIDATION_ERROR' }));
const ZBundlesQuery = z.object({
  lng: queryList(ZLocaleParams.shape.locale, 5),
  ns: queryList(ZBundleParams.shape.namespace, 60),
});

export async function translationsRoutes(app: FastifyInstance, options: TranslationsRoutesOptions): Promise<void> {
  const r = app.withTypeProvider<ZodTypeProvider>();
  const tags = ['super-admin'];
  const base = '/api/legacy/api/super-admin/languages';
  const catalogue = new TranslationsCatalogue(loadShippedStrings(options.localesDir ?? findWebLocales()));

  r.get(base, { config: { access: 'privileged' }, schema: { tags, summary: 'Languages (locale entries)' } }, () =>
    listLocales(app.db),
  );

  r.post(
    `${base}/add`,
    { config: { access: 'privileged' }, schema: { tags, summary: 'Add a language', body: ZLocaleAddBody } },
    async (req, reply) => {
      const { body } = req;
      const entry = await addLocale(app.db, auditActor(req), {
        ...body,
        domain: body.domain ?? '',
        dir: body.dir ?? 'ltr',
      });
      return reply.code(201).send(entry);
    },
  );

  r.get(
    `${base}/translates/:locale`,
    {
      config: { access: 'privileged' },
      schema: {
        tags,
        summary: 'Strings of a language beside the English source (page size 30)',
        params: ZLocaleParams,
        querystring: ZTranslationsQuery,
        response: { 200: ZTranslationList },
      },
    },
    (req) => catalogue.list(app.db, req.params.locale, req.query),
  );

  r.post(
    `${base}/translates`,
    {
      config: { access: 'privileged' },
      schema: {
        tags,
        summary: 'Save the forms of one string (empty: back to the shipped text)',
        body: ZTranslationSaveBody,
      },
    },
    (req) => catalogue.save(app.db, auditActor(req), req.body),
  );

  r.put(
    `${base}/translates/:id`,
    {
      config: { access: 'privileged' },
      schema: {
        tags,
        summary: 'Change a saved string',
        params: ZIdParams,
        body: ZTranslationPutBody,
        response: { 200: ZTranslation },
      },
    },
    (req) => catalogue.update(app.db, auditActor(req), req.params.id, req.body.value),
  );

  r.delete(
    `${base}/translates/:id`,
    {
      config: { access: 'privileged' },
      schema: {
        tags,
        summary: 'Remove a saved string: the shipped text shows again',
        params: ZIdParams,
        response: { 200: ZSuccessResponse },
      },
    },
    async (req) => {
      await catalogue.remove(app.db, auditActor(req), req.params.id);
      return { success: true as const };
    },
  );

  // Public: the web app's i18next backend and language switcher read these at start.
  r.get(
    '/api/i18n/locales',
    { config: { access: 'public' }, schema: { tags: ['i18n'], response: { 200: z.array(ZPublicLocale) } } },
    async () => (await listLocales(app.db)).data.map(({ code, iso, name, dir }) => ({ code, iso, name, dir })),
  );

  // Every namespace the web app asks for at start in one call (i18next's multiload backend), instead
  // of one call per namespace (30 a page load before).
  r.get(
    '/api/i18n',
    {
      config: { access: 'public' },
      schema: {
        tags: ['i18n'],
        summary: "Several namespaces of several languages, shipped strings with the operator's on top",
        querystring: ZBundlesQuery,
      },
    },
    async (req, reply) => {
      const body = JSON.stringify(await catalogue.bundles(app.db, req.query.lng, req.query.ns));
      return sendRevalidated(req.headers['if-none-match'], reply, body);
    },
  );

  r.get(
    '/api/i18n/:locale/:namespace',
    {
      config: { access: 'public' },
      schema: { tags: ['i18n'], summary: "Shipped strings with the operator's on top", params: ZBundleParams },
    },
    async (req, reply) => {
      const body = JSON.stringify(await catalogue.bundle(app.db, req.params.locale, req.params.namespace));
      return sendRevalidated(req.headers['if-none-match'], reply, body);
    },
  );
}

/** A JSON body the browser caches and asks again on every load, by ETag (a saved string shows after a reload). */
function sendRevalidated(ifNoneMatch: string | undefined, reply: FastifyReply, body: string) {
  const etag = `"${createHash('sha256').update(body).digest('base64url').slice(0, 27)}"`;
  reply.header('cache-control', 'no-cache').header('etag', etag);
  if (ifNoneMatch === etag) return reply.code(304).send();
  return reply.type('application/json; charset=utf-8').send(body);
}
