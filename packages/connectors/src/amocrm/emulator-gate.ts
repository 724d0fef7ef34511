// How the amoCRM emulator answers: problem+json bodies, validation-errors, HAL lists, and the gate
// in front of every non-control path (log, latency, faults, the limiter, the bearer check).
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { AmoRequest, AmoRuntime } from './emulator-state';

export interface ValidationError {
  code: string;
  path: string;
  detail: string;
}

export class Invalid extends Error {
  constructor(
    readonly requestId: string,
    readonly errors: ValidationError[],
  ) {
    super('Request validation failed');
  }
}

export const problem = (status: number, title: string, detail: string, extra: Record<string, unknown> = {}) => ({
  title,
  type: `https://httpstatus.es/${status}`,
  status,
  detail,
  ...extra,
});

export const hal = (rt: AmoRuntime, key: string, items: unknown[], path: string) => ({
  _page: 1,
  _links: { self: { href: `${rt.origin()}${path}` } },
  _embedded: { [key]: items },
});

/**
 * One page of a paged list as amoCRM answers it (amocrm-api-php: PagesFilterTrait sends `page`
 * from 1 and `limit`, default 50, at most 250; BaseEntity/PageMethodsTrait follow
 * `_links.next.href`): `_page`, `_links.self`, `_links.next` while more remain. null: past the end
 * (the route answers 204, as amoCRM does for an empty list).
 */
export function halPage(rt: AmoRuntime, key: string, items: unknown[], path: string, query: unknown) {
  const q = (query ?? {}) as Record<string, string | undefined>;
  const page = Math.max(1, Math.trunc(Number(q.page ?? 1)) || 1);
  const limit = Math.min(250, Math.max(1, Math.trunc(Number(q.limit ?? 50)) || 50));
  const slice = items.slice((page - 1) * limit, page * limit);
  if (!slice.length) return null;
  const href = (n: number) => `${rt.origin()}${path}?page=${n}&limit=${limit}`;
  return {
    _page: page,
    _links: { self: { href: href(page) }, ...(page * limit < items.length ? { next: { href: href(page + 1) } } : {}) },
    _embedded: { [key]: slice },
  };
}

export function registerGate(app: FastifyInstance, rt: AmoRuntime): void {
  const { kit } = rt;
  app.addHook('preHandler', async (req: FastifyRequest, reply: FastifyReply) => {
    if (req.url.startsWith('/__emulator')) return;
    const entry = kit.log({
      method: req.method,
      path: req.url,
      body: req.body,
      status: 200,
      receivedAt: new Date().toISOString(),
    });
    (req as FastifyRequest & { logEntry?: AmoRequest }).logEntry = entry;
    await kit.delay();
    if (!req.url.startsWith('/api/v4/')) return;
    const f = kit.takeFault((fault) => req.url.startsWith(fault.path ?? '/api/v4/'));
    if (f) {
      if (f.retryAfter !== undefined) reply.header('retry-after', String(f.retryAfter));
      return reply
        .code(f.status)
        .type('application/problem+json')
        .send(f.body ?? problem(f.status, 'Emulated fault', `emulated ${f.status}`));
    }
    if (rt.limit !== null && !rt.limiter.hit('', rt.limit).isAdmitted) {
      rt.limited += 1;
      return reply
        .code(429)
        .type('application/problem+json')
        .send(problem(429, 'Too Many Requests', 'Too Many Requests'));
    }
    const auth = req.headers.authorization ?? '';
    const bearer = auth.startsWith('Bearer ') ? auth.slice(7) : '';
    const expires = rt.accessTokens.get(bearer);
    if (expires === undefined || expires <= Date.now()) {
      return reply
        .code(401)
        .type('application/problem+json')
        .send(problem(401, 'Unauthorized', 'Unauthorized'));
    }
  });
  app.addHook('onResponse', async (req, reply) => {
    const entry = (req as FastifyRequest & { logEntry?: AmoRequest }).logEntry;
    if (entry) entry.status = reply.statusCode;
  });
  app.setErrorHandler((error, _req, reply) => {
    if (error instanceof Invalid) {
      return reply
        .code(400)
        .type('application/problem+json')
        .send(
          problem(400, 'Bad Request', 'Request validation failed', {
            'validation-errors': [{ request_id: error.requestId, errors: error.errors }],
          }),
        );
    }
    const status = (error as { statusCode?: number }).statusCode ?? 500;
    return reply
      .code(status)
      .type('application/problem+json')
      .send(problem(status, 'Error', (error as Error).message));
  });
}
