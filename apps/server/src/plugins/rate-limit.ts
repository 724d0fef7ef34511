// Rate limits that hold across API processes (docs/operations.md, "Rate limits"): the public
// webhooks per source token (or the destination's or bot's id), the widget and the sign-in/sign-up
// calls per client address, and every request made with an API key per key (on by default).
//
// Fixed one-minute windows counted in PostgreSQL (`rate_windows`, unlogged). A request never
// waits for the database: each process counts locally and, every FLUSH_MS, adds its new hits to
// the shared rows and reads back the totals. A key is refused once the shared total plus this
// process's unsent hits reach the limit, so several processes together overshoot by at most what
// they take in one flush interval.
//
// Nothing a client sends can poison or grow the shared state:
// - a request whose route parameters are invalid (the route answers 400 before any work) is not
//   counted at all;
// - a key is stored as a SHA-256 digest of what it counts (a token, an address): fixed size, and
//   always text PostgreSQL can store (a NUL or a lone surrogate in a token cannot fail the flush);
// - at most MAX_KEYS keys are kept per process, the least recently hit dropped first, and a flush
//   sends at most FLUSH_BATCH keys per statement, each batch on its own (one failing batch does not
//   stop the others);
// - hits that could not be sent are kept only while their window lasts; a failing database is
//   reported once and then at most once a minute, not at every retry.
import { createHash } from 'node:crypto';
import { sql } from 'drizzle-orm';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { type Db, rowsOf } from '../db/client';
import { AppError } from '../lib/app-error';
import { unstorableTextAt } from '../lib/storable-text';

export type RateLimitName = 'webhook' | 'widget' | 'auth' | 'signin' | 'apiKey';
/** Requests per minute for each; 0 or absent: no limit. */
export type RateLimits = Partial<Record<RateLimitName, number>>;

declare module 'fastify' {
  interface FastifyInstance {
    /** The process's shared limiter, when a limit is set (tests flush it instead of waiting). */
    rateLimiter?: SharedRateLimiter;
    /**
     * Counts one request made with an API key against the key's limit: the seconds to wait when it
     * is past the limit, else null. For doors that take keys themselves (the MCP server); the auth
     * plugin's routes are counted already. Absent when no limit is set.
     */
    hitApiKeyLimit?: (keyId: string) => number | null;
  }
  interface FastifyContextConfig {
    /** Which shared limit the route counts against (plugins/rate-limit.ts). */
    rateLimit?: RateLimitName;
  }
}

/** Requests per minute per API key unless `rateLimits.apiKey` says otherwise (0: no limit). */
export const DEFAULT_API_KEY_RATE_LIMIT = 120;

/** What a request made with an API key counts as (the MCP server counts its calls the same way). */
export const apiKeyRateKey = (keyId: string): string => `apiKey:${keyId}`;

const WINDOW_MS = 60_000;
const FLUSH_MS = 200;
/** Keys kept per process: about 100 bytes each, so a few MB at most whatever a client sends. */
export const MAX_KEYS = 20_000;
/** Keys per flush statement (about 100 bytes of JSON each). */
export const FLUSH_BATCH = 1_000;
/** A database that keeps failing is reported at most this often. */
const REPORT_EVERY_MS = 60_000;

interface Counter {
  windowStart: number;
  /** The shared total as last read back. */
  shared: number;
  /** Hits taken here and not yet added to the shared row. */
  unsent: number;
}

/** What a key is stored as: a digest, fixed in size and always storable, whatever the client sent. */
export const storedKey = (key: string): string => createHash('sha256').update(key).digest('base64url');

interface ParamsSchema {
  safeParse(value: unknown): { success: boolean };
}
const isParamsSchema = (value: unknown): value is ParamsSchema =>
  !!value && typeof (value as { safeParse?: unknown }).safeParse === 'function';

/**
 * Who a request counts as, or null when it is not counted: its route parameters are invalid or
 * cannot be stored, so the route refuses it with 400 before doing anything (plugins/input.ts, the
 * route's schema). A webhook counts per source token, or per destination or bot id for a CRM's or
 * a messenger bot's webhook (they post for all their accounts from a few addresses); else per address.
 */
export function keyOf(name: RateLimitName, request: FastifyRequest): string | null {
  const params = request.params;
  if (unstorableTextAt(params) !== null) return null;
  const schema = request.routeOptions.schema?.params;
  if (isParamsSchema(schema) && !schema.safeParse(params ?? {}).success) return null;
  if (name === 'webhook' && params && typeof params === 'object') {
    const { token, integrationId, id } = params as { token?: unknown; integrationId?: unknown; id?: unknown };
    const who = token ?? integrationId ?? id;
    if (typeof who === 'string') return `${name}:${who}`;
  }
  return `${name}:${request.ip}`;
}

export interface RateLimiterOptions {
  now?: () => number;
  maxKeys?: number;
  flushBatch?: number;
}

export class SharedRateLimiter {
  /** In the order keys were last hit (a Map keeps insertion order): the first is the stalest. */
  private readonly counters = new Map<string, Counter>();
  private timer: NodeJS.Timeout | undefined;
  private flushing: Promise<void> | undefined;
  private readonly now: () => number;
  private readonly maxKeys: number;
  private readonly flushBatch: number;
  private failingSince: number | null = null;
  private reportedAt = Number.NEGATIVE_INFINITY;
  private failures = 0;

  constructor(
    private readonly db: Pick<Db, 'execute'>,
    private readonly onError: (error: unknown, failures: number) => void,
    options: RateLimiterOptions = {},
  ) {
    this.now = options.now ?? Date.now;
    this.maxKeys = options.maxKeys ?? MAX_KEYS;
    this.flushBatch = options.flushBatch ?? FLUSH_BATCH;
  }

  /** How many keys this process holds (bounded by maxKeys). */
  get size(): number {
    return this.counters.size;
  }

  /**
   * Counts one hit of `key` (any text: it is stored as a digest); the seconds until the window ends
   * when the limit is reached, else null.
   */
  hit(key: string, limit: number): number | null {
    const stored = storedKey(key);
    const now = this.now();
    const windowStart = now - (now % WINDOW_MS);
    let counter = this.counters.get(stored);
    if (counter) this.counters.delete(stored);
    if (!counter || counter.windowStart !== windowStart) counter = { windowStart, shared: 0, unsent: 0 };
    this.counters.set(stored, counter);
    // The least recently hit go first; their unsent hits (at most one flush interval's) are lost,
    // and a dropped key learns its shared total again at its next flush.
    for (const stale of this.counters.keys()) {
      if (this.counters.size <= this.maxKeys) break;
      this.counters.delete(stale);
    }
    if (counter.shared + counter.unsent >= limit) return Math.ceil((windowStart + WINDOW_MS - now) / 1000);
    counter.unsent += 1;
    this.schedule();
    return null;
  }

  private schedule(): void {
    this.timer ??= setTimeout(() => {
      this.timer = undefined;
      void this.flush();
    }, FLUSH_MS);
  }

  /**
   * Adds the unsent hits of every key, FLUSH_BATCH keys per statement, and reads back the shared
   * totals. Never throws: a failure is reported (throttled) and the batch is tried again while its
   * window lasts. One flush at a time: a flush asked for while another runs starts after it, so
   * when it resolves every hit counted before the call has been sent and its total read back.
   */
  flush(): Promise<void> {
    const run = (this.flushing ?? Promise.resolve()).then(() => this.flushNow()).catch((error) => this.report(error));
    this.flushing = run;
    return run;
  }

  private async flushNow(): Promise<void> {
    const current = this.now() - (this.now() % WINDOW_MS);
    // A window that has ended is never asked about again: its counts, sent or not, are dropped.
    for (const [key, c] of this.counters) if (c.windowStart < current) this.counters.delete(key);
    const sent = [...this.counters].filter(([, c]) => c.unsent > 0).map(([key, c]) => ({ key, c, n: c.unsent }));
    if (!sent.length) return;
    for (const s of sent) s.c.unsent -= s.n;
    let failed = false;
    for (let i = 0; i < sent.length; i += this.flushBatch) {
      const batch = sent.slice(i, i + this.flushBatch);
      try {
        await this.send(batch);
      } catch (error) {
        failed = true;
        // Kept in the counter (bounded: at most the limit per key, while the window lasts).
        for (const s of batch) s.c.unsent += s.n;
        this.report(error);
      }
    }
    if (failed) this.schedule();
    else if (this.failingSince !== null) {
      this.failingSince = null;
      this.failures = 0;
      this.reportedAt = Number.NEGATIVE_INFINITY;
    }
  }

  private async send(batch: { key: string; c: Counter; n: number }[]): Promise<void> {
    const rows = batch.map((s) => ({ key: s.key, window_start: new Date(s.c.windowStart).toISOString(), hits: s.n }));
    const result = await this.db.execute(sql`
      insert into rate_windows (key, window_start, hits)
      select key, window_start, hits from jsonb_to_recordset(${JSON.stringify(rows)}::jsonb)
        as x(key text, window_start timestamptz, hits int)
      on conflict (key, window_start) do update set hits = rate_windows.hits + excluded.hits
      returning key, hits`);
    const totals = new Map(rowsOf<{ key: string; hits: number }>(result).map((r) => [r.key, r.hits]));
    for (const s of batch) s.c.shared = Math.max(s.c.shared, totals.get(s.key) ?? 0);
  }

  /** The first failure at once, then at most once per REPORT_EVERY_MS with how many there were. */
  private report(error: unknown): void {
    const now = this.now();
    this.failingSince ??= now;
    this.failures += 1;
    if (now - this.reportedAt < REPORT_EVERY_MS) return;
    this.reportedAt = now;
    this.onError(error, this.failures);
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

export function setupRateLimits(app: FastifyInstance, db: Db, given: RateLimits): void {
  const limits: RateLimits = { ...given, apiKey: given.apiKey ?? DEFAULT_API_KEY_RATE_LIMIT };
  if (!Object.values(limits).some((n) => n && n > 0)) return;
  const limiter = new SharedRateLimiter(db, (error, failures) =>
    app.log.warn({ err: error, failures }, 'rate-limit counts not shared (reported at most once a minute)'),
  );
  app.decorate('rateLimiter', limiter);
  const { apiKey } = limits;
  app.decorate('hitApiKeyLimit', (keyId: string) => (apiKey ? limiter.hit(apiKeyRateKey(keyId), apiKey) : null));
  app.addHook('onClose', () => limiter.close());
  app.addHook('onRequest', async (request) => {
    // After the auth plugin's hook: a request made with an API key counts against its key.
    const keyId = request.auth?.apiKey?.id;
    const wait = keyId && apiKey ? limiter.hit(apiKeyRateKey(keyId), apiKey) : null;
    if (wait !== null) throw new AppError('TOO_MANY_REQUESTS', { headers: { 'Retry-After': String(wait) } });
    const name = request.routeOptions.config?.rateLimit;
    const limit = name ? limits[name] : undefined;
    if (!name || !limit) return;
    const key = keyOf(name, request);
    if (key === null) return;
    const retryAfter = limiter.hit(key, limit);
    if (retryAfter !== null)
      throw new AppError('TOO_MANY_REQUESTS', { headers: { 'Retry-After': String(retryAfter) } });
  });
}
