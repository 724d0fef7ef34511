import { existsSync, statSync } from 'node:fs';
import { join, normalize, resolve, sep } from 'node:path';
import fastifyStatic from '@fastify/static';
import type { FastifyInstance } from 'fastify';
import { AppError } from './errors';

const SERVER_PREFIXES = ['/api', '/auth', '/socket.io'];

const isServerPath = (path: string) => SERVER_PREFIXES.some((p) => path === p || path.startsWith(`${p}/`));

/**
 * Serves the built web app when WEB_DIST/index.html exists. Any other GET that is not a file
 * gets index.html, and the web app shows its own 404 page.
 */
export async function setupWeb(app: FastifyInstance, webDist: string | undefined): Promise<boolean> {
  if (!webDist || !existsSync(join(webDist, 'index.html'))) return false;
  const root = resolve(webDist);
  await app.register(fastifyStatic, { root, serve: false });

  app.get('/*', { config: { access: 'public' }, schema: { hide: true } }, (req, reply) => {
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
    return reply.header('cache-control', 'no-cache').sendFile('index.html', { maxAge: 0 });
  });
  return true;
}
