import { existsSync, readFileSync, statSync } from 'node:fs';
import { join, normalize, resolve, sep } from 'node:path';
import fastifyStatic from '@fastify/static';
import type { FastifyInstance } from 'fastify';
import { AppError } from '../lib/app-error';

const SERVER_PREFIXES = ['/api', '/auth', '/socket.io'];

const isServerPath = (path: string) => SERVER_PREFIXES.some((p) => path === p || path.startsWith(`${p}/`));

/** What a link preview shows for one page (Open Graph); image is an address on this server. */
export interface PagePreview {
  title: string;
  description: string;
  image?: string;
}

/** A page whose preview the server writes into index.html, since crawlers run no JavaScript. */
export interface PreviewRoute {
  /** Matched against the path; the first group is handed to load. */
  path: RegExp;
  load: (param: string) => Promise<PagePreview | null>;
}

export interface WebOptions {
  publicUrl: string;
  previews?: PreviewRoute[];
}

const escapeHtml = (text: string) =>
  text.replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c] ?? c);

/** index.html with the page's title and Open Graph tags in its head. */
export function withPreview(html: string, preview: PagePreview, url: string, publicUrl: string): string {
  const title = escapeHtml(preview.title);
  const tags = [
    `<meta property="og:type" content="article" />`,
    `<meta property="og:title" content="${title}" />`,
    `<meta property="og:description" content="${escapeHtml(preview.description)}" />`,
    `<meta name="description" content="${escapeHtml(preview.description)}" />`,
    `<meta property="og:url" content="${escapeHtml(publicUrl + url)}" />`,
    ...(preview.image
      ? [
          `<meta property="og:image" content="${escapeHtml(publicUrl + preview.image)}" />`,
          `<meta name="twitter:card" content="summary_large_image" />`,
        ]
      : []),
  ].join('\n    ');
  return html.replace(/<title>[^<]*<\/title>/, `<title>${title}</title>\n    ${tags}`);
}

/**
 * Serves the built web app when WEB_DIST/index.html exists. Any other GET that is not a file
 * gets index.html, and the web app shows its own 404 page.
 */
export async function setupWeb(
  app: FastifyInstance,
  webDist: string | undefined,
  options: WebOptions = { publicUrl: '' },
): Promise<boolean> {
  if (!webDist || !existsSync(join(webDist, 'index.html'))) return false;
  const root = resolve(webDist);
  await app.register(fastifyStatic, { root, serve: false });
  const indexHtml = readFileSync(join(root, 'index.html'), 'utf8');

  app.get('/*', { config: { access: 'public' }, schema: { hide: true } }, async (req, reply) => {
    let path: string;
    try {
      path = decodeURIComponent(req.url.split('?')[0] ?? '/');
    } catch {
      throw new AppError('NOT_FOUND');
    }
    if (isServerPath(path)) throw new AppError('NOT_FOUND');
    const file = normalize(join(root, path));
    const inside = file.startsWith(root + sep);
    if (inside && existsSync(file) && statSync(file).isFile()) {
      // Hashed build assets never change; everything else is revalidated.
      const immutable = path.startsWith('/assets/');
      return reply.sendFile(file.slice(root.length + 1), { immutable, maxAge: immutable ? '1y' : 0 });
    }
    for (const route of options.previews ?? []) {
      const match = route.path.exec(path);
      if (!match?.[1]) continue;
      const preview = await route.load(match[1]);
      if (!preview) break;
      return reply
        .header('cache-control', 'no-cache')
        .type('text/html; charset=utf-8')
        .send(withPreview(indexHtml, preview, path, options.publicUrl));
    }
    return reply.header('cache-control', 'no-cache').sendFile('index.html', { maxAge: 0 });
  });
  return true;
}
