// GET /api/dev/mail: every mail the product sends, drawn with sample data in both languages, as
// HTML or as its text part (docs/mail.md). Registered only when the preview is on (MAIL_PREVIEW or
// EMULATORS: development, demo and end-to-end installs), so a production server does not have it.
// Sample data only: no account's mail is ever shown here.
import { LOCALES } from '@leadrelay/shared';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { AppError } from '../../lib/app-error';
import { MAIL_PREVIEW_NAMES, MAIL_PREVIEWS, type MailPreviewName } from '../../lib/mail/previews';

export interface MailPreviewOptions {
  /** PUBLIC_URL: where the sample links and the footer point. */
  publicUrl: string;
}

const ZPreviewQuery = z.object({
  lang: z.enum(LOCALES).default('uk'),
  format: z.enum(['html', 'text']).default('html'),
});

const isPreview = (name: string): name is MailPreviewName => Object.hasOwn(MAIL_PREVIEWS, name);

export async function mailPreviewRoutes(app: FastifyInstance, options: MailPreviewOptions): Promise<void> {
  const r = app.withTypeProvider<ZodTypeProvider>();
  const base = '/api/dev/mail';

  r.get(base, { config: { access: 'public' }, schema: { hide: true } }, async () => ({
    templates: await Promise.all(
      MAIL_PREVIEW_NAMES.map(async (name) => ({
        name,
        subject: Object.fromEntries(
          await Promise.all(
            LOCALES.map(async (lang) => [
              lang,
              (await MAIL_PREVIEWS[name]({ lang, publicUrl: options.publicUrl })).subject,
            ]),
          ),
        ),
        links: Object.fromEntries(
          LOCALES.flatMap((lang) =>
            (['html', 'text'] as const).map((format) => [
              `${lang}.${format}`,
              `${base}/${name}?lang=${lang}&format=${format}`,
            ]),
          ),
        ),
      })),
    ),
  }));

  r.get(
    `${base}/:template`,
    {
      config: { access: 'public' },
      schema: { hide: true, params: z.object({ template: z.string().max(100) }), querystring: ZPreviewQuery },
    },
    async (req, reply) => {
      const { template } = req.params;
      if (!isPreview(template)) throw new AppError('NOT_FOUND');
      const mail = await MAIL_PREVIEWS[template]({ lang: req.query.lang, publicUrl: options.publicUrl });
      return req.query.format === 'text'
        ? reply.type('text/plain; charset=utf-8').send(`Subject: ${mail.subject}\n\n${mail.text}`)
        : reply.type('text/html; charset=utf-8').send(mail.html);
    },
  );
}
