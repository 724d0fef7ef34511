// The data pool (client.ts createPool): a client whose connection is lost while it is checked out
// must not cost the pool its place, whoever held it.
import type { Socket } from 'node:net';
import { setTimeout as sleep } from 'node:timers/promises';
import { sql } from 'drizzle-orm';
import type pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestDatabase, type TestDatabase } from '../test/test-app';
import { type Database, openDatabase, rowsOf } from './client';

let testDatabase: TestDatabase;
let database: Database;
let pool: pg.Pool;
beforeAll(async () => {
  testDatabase = await createTestDatabase('lr_pool', { migrated: true });
  // One connection: a single one kept by a lost client stops every statement.
  database = await openDatabase({ databaseUrl: testDatabase.url, poolSize: 1 });
  pool = (database.db as unknown as { $client: pg.Pool }).$client;
});
afterAll(async () => {
  await database?.close();
  await testDatabase?.drop();
});

/** The connection under a client drops (PostgreSQL restarting, its backend terminated). */
const loseConnection = (client: pg.PoolClient) =>
  (client as unknown as { connection: { stream: Socket } }).connection.stream.destroy();

/** `select 1` on the pool, or 'stuck' when it found no connection within 5 s. */
const selectOne = () =>
  Promise.race([
    database.db.execute(sql`select 1 as one`).then((result) => rowsOf<{ one: number }>(result)),
    sleep(5_000, 'stuck' as const),
  ]);

describe('a connection lost while checked out', () => {
  it('gives the pool back the client of a transaction whose BEGIN failed', async () => {
    // drizzle-orm's transaction() sends BEGIN before the try/finally that releases its client.
    pool.once('acquire', loseConnection);
    await expect(database.db.transaction(async () => {})).rejects.toThrow();
    expect(await selectOne()).toEqual([{ one: 1 }]);
  });

  it('takes a holder that releases its client afterwards as done', async () => {
    const client = await pool.connect();
    loseConnection(client);
    await expect(client.query('select 1')).rejects.toThrow();
    expect(() => client.release()).not.toThrow();
    expect(await selectOne()).toEqual([{ one: 1 }]);
    expect(pool.totalCount).toBe(1);
  });
});
