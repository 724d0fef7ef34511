// Locks that hold across every process on one database: connectors take one around "find the
// contact, create it if missing" and around spending a single-use refresh token. In-process callers
// queue on a keyed lock first; the holder then takes a session advisory lock on a
// connection of a small pool of its own, so a lock holder never waits for a data-pool connection
// that other lock holders keep (the data pools stay free for what the locked work itself does).
import { createHash } from 'node:crypto';
import { createKeyedLock, type LockKeys, lockAll, sortedKeys } from '@leadrelay/connectors';
import pg from 'pg';

export interface LockService {
  /** Several keys are taken in sorted order, on one connection. */
  withLock<T>(keys: LockKeys, fn: () => Promise<T>): Promise<T>;
  close(): Promise<void>;
}

/** Advisory locks held at once per process and service; more wait their turn. */
export const LOCK_POOL_SIZE = 4;

/**
 * The app's two lock services. Connector locks (a contact while it is found or created) may take an
 * auth lock inside (a token refresh), never the other way round; each has its own connections, so a
 * process whose connector locks are all taken can still refresh a token.
 */
export interface AppLocks {
  connector: LockService;
  auth: LockService;
}

export function createAppLocks(databaseUrl: string): AppLocks {
  return { connector: createLockService(databaseUrl), auth: createLockService(databaseUrl, 2) };
}

/** A signed 64-bit advisory lock id from the key. */
export function advisoryKey(key: string): string {
  return createHash('sha256').update(key).digest().readBigInt64BE(0).toString();
}

export function createLockService(databaseUrl: string, size = LOCK_POOL_SIZE): LockService {
  const local = createKeyedLock();
  const pool = new pg.Pool({ connectionString: databaseUrl, max: size });
  pool.on('error', () => {});
  // A lock's client is checked out while `fn` runs: if its connection drops then (a PostgreSQL
  // restart, pg_terminate_backend), the 'error' event must not end the process. The unlock then
  // fails, the client is released broken and closed; the lock died with its session.
  pool.on('connect', (client) => client.on('error', () => {}));
  return {
    withLock: (keys, fn) =>
      lockAll(local, keys, async () => {
        const client = await pool.connect();
        let broken: Error | undefined;
        try {
          for (const key of sortedKeys(keys))
            await client.query('SELECT pg_advisory_lock($1::bigint)', [advisoryKey(key)]);
          return await fn();
        } finally {
          try {
            await client.query('SELECT pg_advisory_unlock_all()');
          } catch (error) {
            // A connection that could not unlock is closed, which releases its locks.
            broken = error as Error;
          }
          client.release(broken);
        }
      }),
    close: () => pool.end(),
  };
}
