import { DEFAULT_ROUTING_POLICY, type SourceOptions, ZSourceOptions } from '@leadrelay/shared';
import { and, eq } from 'drizzle-orm';
import type { FastifyBaseLogger, FastifyInstance } from 'fastify';
import type { Db } from '../../db/client';
import { integrations } from '../../db/schema';
import { type Distribution, loadDistribution } from './distribution';

/** What the webhook needs of its source integration, read once per token and second. */
export interface Source {
  id: string;
  accountId: string;
  token: string;
  options: SourceOptions;
  /** In the integration's order; which of them are active is checked by the ingest statement. */
  destinationIds: string[];
  /** JSON text of `destinationIds`, as the statement takes it. */
  destinationIdsJson: string;
  distribution?: Distribution;
}

/**
 * How long a source is reused. A stale entry can never write to a deleted, deactivated or
 * re-tokened integration nor queue a delivery to an inactive destination: the ingest statement
 * checks those rows itself. What may lag by up to this long is a change of the mapping, filters,
 * dedupe settings, destination list or distribution collection.
 */
export const SOURCE_CACHE_TTL_MS = 1_000;
const MAX_ENTRIES = 10_000;

interface Entry {
  source: Promise<Source | undefined>;
  /** The clock it was read at: an earlier `now` (a test's clock set back) reads afresh. */
  loadedAt: number;
  expiresAt: number;
}

const caches = new WeakMap<Db, Map<string, Entry>>();

function sourceOptions(raw: unknown, log: FastifyBaseLogger, integrationId: string): SourceOptions {
  const parsed = ZSourceOptions.safeParse(raw ?? {});
  if (parsed.success) return parsed.data;
  // The integrations API validates options on write; an older or hand-edited value must not lose
  // leads, so the lead is taken with the default mapping and the problem is logged.
  log.warn({ integrationId, issues: parsed.error.issues }, 'invalid integration options; default mapping used');
  return {};
}

async function loadSource(
  db: Db,
  token: string,
  log: FastifyBaseLogger,
  now: Date,
  entry: Entry,
): Promise<Source | undefined> {
  const [row] = await db
    .select()
    .from(integrations)
    .where(and(eq(integrations.hookToken, token), eq(integrations.active, true)));
  if (!row) return undefined;
  const options = sourceOptions(row.options, log, row.id);
  const { distribution, validUntil } = await loadDistribution(
    db,
    row.accountId,
    row.distributionId,
    options.routing ?? DEFAULT_ROUTING_POLICY,
    now,
  );
  // Who is on duty changes at the next shift boundary: the entry is not used past it.
  if (validUntil !== null) entry.expiresAt = Math.min(entry.expiresAt, validUntil);
  return {
    id: row.id,
    accountId: row.accountId,
    token,
    options,
    destinationIds: row.destinationIds,
    destinationIdsJson: JSON.stringify(row.destinationIds),
    distribution,
  };
}

/**
 * The active source integration of a webhook token at `at` (its distribution holds the managers
 * on duty then), or undefined; concurrent misses share one read.
 */
export function sourceByToken(
  db: Db,
  token: string,
  log: FastifyBaseLogger,
  at: Date = new Date(),
): Promise<Source | undefined> {
  let cache = caches.get(db);
  if (!cache) {
    cache = new Map();
    caches.set(db, cache);
  }
  const now = at.getTime();
  const hit = cache.get(token);
  if (hit && hit.loadedAt <= now && hit.expiresAt > now) return hit.source;
  if (cache.size >= MAX_ENTRIES) {
    for (const [key, entry] of cache) if (entry.expiresAt <= now) cache.delete(key);
    if (cache.size >= MAX_ENTRIES) cache.clear();
  }
  // Unknown tokens are not remembered: a source that has just been created or activated works at once.
  const entry: Entry = { source: Promise.resolve(undefined), loadedAt: now, expiresAt: now + SOURCE_CACHE_TTL_MS };
  const source = loadSource(db, token, log, at, entry);
  entry.source = source;
  cache.set(token, entry);
  source.then(
    (found) => {
      if (!found && cache.get(token) === entry) cache.delete(token);
    },
    () => {
      if (cache.get(token) === entry) cache.delete(token);
    },
  );
  return source;
}

/** Drops a token's entry: the ingest statement found its integration gone or changed. */
export function forgetSource(db: Db, token: string): void {
  caches.get(db)?.delete(token);
}

/**
 * After a successful write through the routes of `app` (integrations, collections), this process
 * reads sources afresh: a mapping saved and then tried with "Send a test lead" must take effect at
 * once. Other processes pick the change up within SOURCE_CACHE_TTL_MS. Writes are rare next to
 * webhooks, so the whole cache is dropped rather than tracking which tokens a change touches.
 */
export function forgetSourcesAfterWrites(app: FastifyInstance): void {
  app.addHook('onSend', async (request, reply, payload) => {
    if (request.method !== 'GET' && reply.statusCode < 400) caches.get(app.db)?.clear();
    return payload;
  });
}
