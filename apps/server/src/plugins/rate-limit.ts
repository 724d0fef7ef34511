// Rate limits that hold across API processes (docs/operations.md, "Rate limits"): the public
// webhook per source token, the widget and the sign-in/sign-up calls per client address.
//
// Fixed one-minute windows counted in PostgreSQL (`rate_windows`, unlogged). A request never
// waits for the database: each process counts locally and, every FLUSH_MS, adds its new hits to
// the shared row in one statement for all keys and reads back the total. A key is refused once
// the shared total plus this process's unsent hits reach the limit, so several processes
// together overshoot by at most what they take in one flush interval.
import { sql } from 'drizzle-orm';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { type Db, rowsOf } from '../db/client';
import { AppError } from './errors';

export type RateLimitName = 'webhook' | 'widget' | 'auth' | 'signin';
/** Requests per minute for each; 0 or absent: no limit. */
export type RateLimits = Partial<Record<RateLimitName, number>>;

declare module 'fastify' {
  interface FastifyInstance {
    /** The process's shared limiter, when a limit is set (tests flush it instead of waiting). */
    rateLimiter?: SharedRateLimiter;
  }
  interface FastifyContextConfig {
    /** Which shared limit the route counts against (plugins/rate-limit.ts). */
    rateLimit?: RateLimitName;
  }
}

const WINDOW_MS = 60_000;
const FLUSH_MS = 200;

interface Counter {
  windowStart: number;
  /** The shared total as last read back. */
  shared: number;
  /** Hits taken here and not yet added to the shared row. */
  unsent: number;
}

/**
 * Who a request counts as: the source token for webhooks (or the destination's id, for a CRM's
 * webhook: amoCRM posts for all its accounts from a few addresses), else the client address.
 */
function keyOf(name: RateLimitName, request: FastifyRequest): string {
  const params = request.params as { token?: unknown; integrationId?: unknown } | undefined;
  const token = params?.token ?? params?.integrationId;
  if (name === 'webhook' && typeof token === 'string') return `webhook:${token}`;
  return `${name}:${request.ip}`;
}

export class SharedRateLimiter {
  private readonly counters = new Map<string, Counter>();
  private timer: NodeJS.Timeout | undefined;
  private flushing: Promise<void> | undefined;

  constructor(
    private readonly db: Db,
    private readonly onError: (error: unknown) => void,
    private readonly now: () => number = Date.now,
  ) {}

  /** Counts one hit; the seconds until the window ends when the limit is reached, else null. */
  hit(key: string, limit: number): number | null {
    const now = this.now();
    const windowStart = now - (now % WINDOW_MS);
    let counter = this.counters.get(key);
    if (!counter || counter.windowStart !== windowStart) {
      counter = { windowStart, shared: 0, unsent: 0 };
      this.counters.set(key, counter);
    }
    if (counter.shared + counter.unsent >= limit) return Math.ceil((windowStart + WINDOW_MS - now) / 1000);
    counter.unsent += 1;
    this.schedule();
    return null;
  }

  private schedule(): void {
    this.timer ??= setTimeout(() => {
      this.timer = undefined;
      this.flushing = this.flush().catch(this.onError);
    }, FLUSH_MS);
  }

  /** Adds the unsent hits of every key in one statement and reads back the shared totals. */
  async flush(): Promise<void> {
    const sent = [...this.counters].filter(([, c]) => c.unsent > 0).map(([key, c]) => ({ key, c, n: c.unsent }));
    const current = this.now() - (this.now() % WINDOW_MS);
    for (const [key, c] of this.counters) if (c.windowStart < current && c.unsent === 0) this.counters.delete(key);
    if (!sent.length) return;
    for (const s of sent) s.c.unsent -= s.n;
    const rows = sent.map((s) => ({ key: s.key, window_start: new Date(s.c.windowStart).toISOString(), hits: s.n }));
    try {
      const result = await this.db.execute(sql`
        insert into rate_windows (key, window_start, hits)
        select key, window_start, hits from jsonb_to_recordset(${JSON.stringify(rows)}::jsonb)
          as x(key text, window_start timestamptz, hits int)
        on conflict (key, window_start) do update set hits = rate_windows.hits + excluded.hits
        returning key, hits`);
      const totals = new Map(rowsOf<{ key: string; hits: number }>(result).map((r) => [r.key, r.hits]));
      for (const s of sent) s.c.shared = Math.max(s.c.shared, totals.get(s.key) ?? 0);
    } catch (error) {
      // The database is away: keep counting here, send again next time.
      for (const s of sent) s.c.unsent += s.n;
      this.schedule();
      throw error;
    }
  }

  async close(): Promise<void> {
    clearTimeout(this.timer);
    this.timer = undefined;
    await this.flushing;
  }
}

/** Drops windows older than ten minutes (a periodic task). */
export async function pruneRateWindows(db: Pick<Db, 'execute'>, now: Date): Promise<void> {
  await db.execute(
    sql`delete from rate_windows where window_start < ${new Date(now.getTime() - 10 * WINDOW_MS).toISOString()}::timestamptz`,
  );
}

export function setupRateLimits(app: FastifyInstance, db: Db, limits: RateLimits): void {
  if (!Object.values(limits).some((n) => n && n > 0)) return;
  const limiter = new SharedRateLimiter(db, (error) => app.log.warn({ err: error }, 'rate-limit counts not shared'));
  app.decorate('rateLimiter', limiter);
  app.addHook('onClose', () => limiter.close());
  app.addHook('onRequest', async (request) => {
    const name = request.routeOptions.config?.rateLimit;
    const limit = name ? limits[name] : undefined;
    if (!name || !limit) return;
    const retryAfter = limiter.hit(keyOf(name, request), limit);
    if (retryAfter !== null)
      throw new AppError('TOO_MANY_REQUESTS', { headers: { 'Retry-After': String(retryAfter) } });
  });
}
