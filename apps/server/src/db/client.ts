import { existsSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { drizzle as drizzleNodePg } from 'drizzle-orm/node-postgres';
import { migrate as migrateNodePg } from 'drizzle-orm/node-postgres/migrator';
import type { PgDatabase, PgQueryResultHKT, PgTransaction } from 'drizzle-orm/pg-core';
import pg from 'pg';
import { lockDataDir } from './data-dir-lock';
import { type EmbeddedPostgres, type EmbeddedPostgresLog, startEmbeddedPostgres } from './embedded-postgres';
import * as schema from './schema';
import { StartupError } from './startup-error';

export type Schema = typeof schema;
export type Db = PgDatabase<PgQueryResultHKT, Schema>;
export type Tx = PgTransaction<PgQueryResultHKT, Schema>;
/** What data functions take first: the database or the transaction they run in. */
export type Executor = Db | Tx;

/** The rows of a raw `execute(sql`…`)` answer. */
export const rowsOf = <T>(result: unknown): T[] => (result as { rows: T[] }).rows;

export interface Database {
  db: Db;
  /** The delivery worker's connections: its own pool on PostgreSQL when `workerPoolSize` was given. */
  workerDb?: Db;
  /** Where it is: DATABASE_URL, or the embedded cluster's socket. Other pools (bus, locks) open it too. */
  url: string;
  close(): Promise<void>;
}

export interface OpenDatabaseOptions {
  /** PostgreSQL connection string; when absent, the embedded cluster in `dataDir` is used. */
  databaseUrl?: string;
  /** The embedded cluster goes to DATA_DIR/postgres, started here and stopped by close(). */
  dataDir?: string;
  /** The embedded cluster reports its creation, take-over and stops here. */
  log?: EmbeddedPostgresLog;
  /** PostgreSQL: connections of the data pool (default DEFAULT_POOL_SIZE). */
  poolSize?: number;
  /** PostgreSQL: a second pool of this many connections for the delivery worker, so busy API
   *  requests cannot starve it (ROLE=all); absent or 0: the worker shares the data pool. */
  workerPoolSize?: number;
}

/** DB_POOL_SIZE's default: the data pool of a process on PostgreSQL. */
export const DEFAULT_POOL_SIZE = 10;
/** WORKER_DB_POOL_SIZE's default: the worker's own pool (ROLE=all) or a ROLE=worker's data pool. */
export const DEFAULT_WORKER_POOL_SIZE = 4;

/** apps/server/drizzle, found from this file in the sources (src/db) and in the build (dist). */
export const MIGRATIONS_FOLDER = join(serverRoot(import.meta.dirname), 'drizzle');

function serverRoot(from: string): string {
  for (let dir = from; dir !== dirname(dir); dir = dirname(dir)) {
    if (existsSync(join(dir, 'drizzle', 'meta', '_journal.json'))) return dir;
  }
  throw new Error(`no drizzle migrations folder above ${from}`);
}
// Any constant works: it only keeps two processes from migrating the same database at once.
const MIGRATION_LOCK_KEY = 7_262_001;

export async function openDatabase(options: OpenDatabaseOptions): Promise<Database> {
  const poolSize = options.poolSize ?? DEFAULT_POOL_SIZE;
  const workerPoolSize = options.workerPoolSize ?? 0;
  if (options.databaseUrl) return openPostgres(options.databaseUrl, poolSize, workerPoolSize);
  if (!options.dataDir) throw new Error('openDatabase needs databaseUrl or dataDir');
  return openEmbedded(resolve(options.dataDir), poolSize, workerPoolSize, options.log);
}

export const legacyPgliteDir = (dataDir: string) => join(dataDir, 'pglite');

/** DATA_DIR still holds the PGlite database that LeadRelay embedded before PostgreSQL. */
export class LegacyDataError extends StartupError {
  override name = 'LegacyDataError';
  constructor(dataDir: string) {
    super(
      `${legacyPgliteDir(dataDir)} holds the database of an earlier LeadRelay (PGlite), which this version no longer opens: copy it into the embedded PostgreSQL with "npm run db:import-pglite" (see the README), or move that folder away to start with an empty database`,
    );
  }
}

async function openEmbedded(
  dataDir: string,
  poolSize: number,
  workerPoolSize: number,
  log?: EmbeddedPostgresLog,
): Promise<Database> {
  // Left untouched: the import command reads it; the app only says so.
  if (existsSync(join(legacyPgliteDir(dataDir), 'PG_VERSION'))) throw new LegacyDataError(dataDir);
  // One app per folder: the lock is what tells a server left running by a killed app (taken over)
  // from one that another live app uses.
  const lock = lockDataDir(dataDir);
  let cluster: EmbeddedPostgres | undefined;
  try {
    cluster = await startEmbeddedPostgres({ dataDir, log });
    const database = await openPostgres(cluster.url, poolSize, workerPoolSize);
    const running = cluster;
    return {
      ...database,
      async close() {
        try {
          await database.close();
          await running.stop();
        } finally {
          lock.release();
        }
      },
    };
  } catch (error) {
    await cluster?.stop().catch(() => {});
    lock.release();
    throw error;
  }
}

function createPool(url: string, max: number): pg.Pool {
  const pool = new pg.Pool({ connectionString: url, max });
  // An idle client's connection can drop (server restart, failover, a dropped test database); the
  // pool replaces it at the next checkout. Without a listener that error would end the process.
  pool.on('error', () => {});
  // So can a checked-out one between two statements (a transaction awaiting its caller, the
  // migration lock): the pool listens only while a client is idle, and an 'error' event nobody
  // hears ends the process (seen: a worker gone after a PostgreSQL restart, in the chaos suite).
  // The client's next statement fails instead, and the pool drops it when it is released.
  pool.on('connect', (client) => client.on('error', () => {}));
  // A checked-out client whose connection ends goes back to the pool at once (which drops it), and
  // its holder's own release later does nothing. drizzle-orm's transaction() (0.45.4, upstream
  // issue drizzle-team/drizzle-orm#6241) sends BEGIN before the try/finally that releases its
  // client: a BEGIN that fails on a connection just lost never gives the client back, and once all
  // `max` are gone every statement of the process waits for ever (seen: a delivery worker whose 4
  // connections were lost so in a PostgreSQL restart, then stopped, in the chaos suite).
  const lost = new WeakMap<pg.PoolClient, () => void>();
  pool.on('acquire', (client) => {
    const onEnd = () => {
      const release = client.release;
      client.release = () => {};
      release(new Error('the connection was lost while the client was checked out'));
    };
    lost.set(client, onEnd);
    client.once('end', onEnd);
  });
  pool.on('release', (_error, client) => {
    const onEnd = lost.get(client);
    if (onEnd) client.removeListener('end', onEnd);
    lost.delete(client);
  });
  return pool;
}

async function openPostgres(url: string, poolSize: number, workerPoolSize: number): Promise<Database> {
  const pool = createPool(url, poolSize);
  try {
    const client = await pool.connect();
    try {
      await client.query('select pg_advisory_lock($1)', [MIGRATION_LOCK_KEY]);
      await migrateNodePg(drizzleNodePg(client, { schema }), { migrationsFolder: MIGRATIONS_FOLDER });
    } finally {
      await client.query('select pg_advisory_unlock($1)', [MIGRATION_LOCK_KEY]).catch(() => {});
      client.release();
    }
  } catch (error) {
    await pool.end().catch(() => {});
    throw error;
  }
  const db = drizzleNodePg(pool, { schema }) as unknown as Db;
  if (workerPoolSize <= 0) return { db, url, close: () => pool.end() };
  const workerPool = createPool(url, workerPoolSize);
  const workerDb = drizzleNodePg(workerPool, { schema }) as unknown as Db;
  return {
    db,
    workerDb,
    url,
    close: async () => {
      await Promise.all([pool.end(), workerPool.end()]);
    },
  };
}
