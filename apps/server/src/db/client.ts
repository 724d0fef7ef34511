import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { PGlite } from '@electric-sql/pglite';
import { drizzle as drizzleNodePg } from 'drizzle-orm/node-postgres';
import { migrate as migrateNodePg } from 'drizzle-orm/node-postgres/migrator';
import type { PgDatabase, PgQueryResultHKT, PgTransaction } from 'drizzle-orm/pg-core';
import { drizzle as drizzlePglite } from 'drizzle-orm/pglite';
import { migrate as migratePglite } from 'drizzle-orm/pglite/migrator';
import pg from 'pg';
import { type DataDirLock, lockDataDir } from '../lib/data-dir-lock';
import * as schema from './schema';

export type Schema = typeof schema;
export type Db = PgDatabase<PgQueryResultHKT, Schema>;
export type Tx = PgTransaction<PgQueryResultHKT, Schema>;
/** What data functions take first: the database or the transaction they run in. */
export type Executor = Db | Tx;

export interface Database {
  db: Db;
  /** The delivery worker's connections: its own pool on PostgreSQL when `workerPoolSize` was given. */
  workerDb?: Db;
  engine: 'pglite' | 'postgres';
  close(): Promise<void>;
}

export interface OpenDatabaseOptions {
  /** PostgreSQL connection string; when absent, embedded PGlite is used. */
  databaseUrl?: string;
  /** PGlite files go to DATA_DIR/pglite; without a folder PGlite runs in memory (tests). */
  dataDir?: string;
  /** Hold the data-folder lock (default true when PGlite stores its files in dataDir). */
  lock?: boolean;
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

export const MIGRATIONS_FOLDER = join(import.meta.dirname, '../../drizzle');
// Any constant works: it only keeps two processes from migrating the same database at once.
const MIGRATION_LOCK_KEY = 7_262_001;

export async function openDatabase(options: OpenDatabaseOptions): Promise<Database> {
  if (options.databaseUrl) {
    return openPostgres(options.databaseUrl, options.poolSize ?? DEFAULT_POOL_SIZE, options.workerPoolSize ?? 0);
  }
  return openPglite(options.dataDir, options.lock ?? true);
}

function createPool(url: string, max: number): pg.Pool {
  const pool = new pg.Pool({ connectionString: url, max });
  // An idle client's connection can drop (server restart, failover, a dropped test database); the
  // pool replaces it at the next checkout. Without a listener that error would end the process.
  pool.on('error', () => {});
  return pool;
}

async function openPostgres(url: string, poolSize: number, workerPoolSize: number): Promise<Database> {
  const pool = createPool(url, poolSize);
  const client = await pool.connect();
  try {
    await client.query('select pg_advisory_lock($1)', [MIGRATION_LOCK_KEY]);
    await migrateNodePg(drizzleNodePg(client, { schema }), { migrationsFolder: MIGRATIONS_FOLDER });
  } finally {
    await client.query('select pg_advisory_unlock($1)', [MIGRATION_LOCK_KEY]).catch(() => {});
    client.release();
  }
  const db = drizzleNodePg(pool, { schema }) as unknown as Db;
  if (workerPoolSize <= 0) return { db, engine: 'postgres', close: () => pool.end() };
  const workerPool = createPool(url, workerPoolSize);
  const workerDb = drizzleNodePg(workerPool, { schema }) as unknown as Db;
  return {
    db,
    workerDb,
    engine: 'postgres',
    close: async () => {
      await Promise.all([pool.end(), workerPool.end()]);
    },
  };
}

async function openPglite(dataDir: string | undefined, lock: boolean): Promise<Database> {
  let held: DataDirLock | undefined;
  let client: PGlite;
  if (dataDir) {
    if (lock) held = lockDataDir(dataDir);
    mkdirSync(dataDir, { recursive: true });
    try {
      client = await PGlite.create(join(dataDir, 'pglite'));
    } catch (error) {
      held?.release();
      throw error;
    }
  } else {
    client = await PGlite.create();
  }
  const pgliteDb = drizzlePglite(client, { schema });
  try {
    await migratePglite(pgliteDb, { migrationsFolder: MIGRATIONS_FOLDER });
  } catch (error) {
    await client.close();
    held?.release();
    throw error;
  }
  return {
    db: pgliteDb as unknown as Db,
    engine: 'pglite',
    async close() {
      await client.close();
      held?.release();
    },
  };
}
