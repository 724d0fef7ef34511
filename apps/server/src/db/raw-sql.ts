// The hot paths (ingest, the delivery worker) talk to the driver directly: its statements are constant text (a named
// prepared statement), so no query is built per request. Every parameter is sent as text and cast
// in the statement.
import pg from 'pg';
import type { Db } from './client';

export type Row = Record<string, unknown>;
export type Param = string | null;

export interface Statement {
  /** Unique per text: PostgreSQL prepares it once per connection under this name. */
  name: string;
  text: string;
}

export interface RawExecutor {
  query<T extends Row>(statement: Statement, params: Param[]): Promise<T[]>;
}

export interface RawDb extends RawExecutor {
  /** Runs `fn` in one transaction; it commits when `fn` says so, and rolls back otherwise or on an error. */
  transaction<T>(fn: (tx: RawExecutor) => Promise<{ commit: boolean; value: T }>): Promise<T>;
}

function fromPool(pool: pg.Pool): RawDb {
  const on = (client: pg.Pool | pg.PoolClient): RawExecutor => ({
    async query<T extends Row>(statement: Statement, params: Param[]) {
      const result = await client.query<T>({ name: statement.name, text: statement.text, values: params });
      return result.rows;
    },
  });
  return {
    ...on(pool),
    async transaction(fn) {
      const client = await pool.connect();
      try {
        await client.query('begin');
        const { commit, value } = await fn(on(client));
        await client.query(commit ? 'commit' : 'rollback');
        client.release();
        return value;
      } catch (error) {
        // A connection that cannot even roll back is dropped, not returned to the pool.
        await client.query('rollback').then(
          () => client.release(),
          (rollbackError: Error) => client.release(rollbackError),
        );
        throw error;
      }
    },
  };
}

const adapters = new WeakMap<Db, RawDb>();

/** The node-postgres pool under a Drizzle database. */
export function rawDb(db: Db): RawDb {
  let adapter = adapters.get(db);
  if (!adapter) {
    const client = (db as unknown as { $client: unknown }).$client;
    if (!(client instanceof pg.Pool)) throw new Error('rawDb needs a database opened on a pg.Pool');
    adapter = fromPool(client);
    adapters.set(db, adapter);
  }
  return adapter;
}

/** PostgreSQL's SQLSTATE of a driver error (node-postgres puts it on `code`). */
export const sqlStateOf = (error: unknown): string | undefined =>
  typeof error === 'object' && error !== null && 'code' in error && typeof error.code === 'string'
    ? error.code
    : undefined;
