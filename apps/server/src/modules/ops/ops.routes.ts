// Operability (docs/operations.md): GET /metrics for Prometheus and GET /api/ready for a load
// balancer or an orchestrator. /api/health (in app.ts) only says the process answers.

import { sql } from 'drizzle-orm';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { Registry } from 'prom-client';
import { MIGRATIONS_FOLDER, rowsOf } from '../../db/client';
import { MIGRATIONS_TABLE, readJournal } from '../../db/migrations-journal';
import { AppError } from '../../lib/app-error';
import { sameText } from '../../lib/same-text';

export interface OpsOptions {
  metrics: Registry;
  /** METRICS_TOKEN: a scraper sends it as a bearer token; without it only loopback may scrape. */
  metricsToken?: string;
  /** Whether this process should be running the delivery worker (ROLE all or worker). */
  runsWorker: boolean;
  workerRunning: () => boolean;
}

const LOOPBACK = new Set(['127.0.0.1', '::1', '::ffff:127.0.0.1']);

function mayScrape(request: FastifyRequest, token: string | undefined): boolean {
  const header = request.headers.authorization;
  const given = header?.toLowerCase().startsWith('bearer ') ? header.slice(7).trim() : undefined;
  if (token && given) return sameText(given, token);
  return LOOPBACK.has(request.socket.remoteAddress ?? '');
}

/** The newest migration this build ships (drizzle's journal), to compare with what the database has. */
const newestShippedMigration = () => Math.max(...readJournal(MIGRATIONS_FOLDER).entries.map((e) => e.when));

export async function opsRoutes(app: FastifyInstance, options: OpsOptions): Promise<void> {
  const shipped = newestShippedMigration();

  app.get('/metrics', { config: { access: 'public' }, schema: { hide: true } }, async (request, reply) => {
    if (!mayScrape(request, options.metricsToken)) throw new AppError('UNAUTHORIZED');
    reply.type(options.metrics.contentType);
    return options.metrics.metrics();
  });

  app.get('/api/ready', { config: { access: 'public' }, schema: { hide: true } }, async (_request, reply) => {
    const checks: Record<string, boolean> = { database: false, migrations: false };
    try {
      const result = await app.db.execute(
        sql`select coalesce(max(created_at), 0)::float8 as newest from ${sql.raw(MIGRATIONS_TABLE)}`,
      );
      checks.database = true;
      checks.migrations = (rowsOf<{ newest: number }>(result)[0]?.newest ?? 0) >= shipped;
    } catch (error) {
      app.log.warn({ err: error }, 'readiness: the database does not answer');
    }
    if (options.runsWorker) checks.worker = options.workerRunning();
    const ready = Object.values(checks).every(Boolean);
    // 503 is what a load balancer reads as "not ready": this is a probe, not a client's error.
    return reply.code(ready ? 200 : 503).send({ ready, checks });
  });
}
