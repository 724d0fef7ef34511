// A connection that drops while a client is checked out (PostgreSQL restarted, pg_terminate_backend)
// must fail that client's statement, never end the process: the chaos suite (bench chaos) found a
// worker gone after a restart, from an 'error' event no one listened to. Vitest fails a file on an
// unhandled error, so these tests fail if the event is unheard again.
import { sql } from 'drizzle-orm';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { rowsOf } from '../db/client';
import { createTestApp, type TestApp } from '../test/test-app';
import { createLockService } from './locks';

let t: TestApp;
let admin: pg.Client;
beforeAll(async () => {
  t = await createTestApp();
  admin = new pg.Client({ connectionString: t.databaseUrl });
  await admin.connect();
});
afterAll(async () => {
  await admin.end();
  await t.close();
});

const terminate = (pid: number) => admin.query('select pg_terminate_backend($1)', [pid]);
/** Long enough for the FATAL message to reach the client while it sits between statements. */
const settle = () => new Promise((r) => setTimeout(r, 300));

describe('a connection lost while its client is checked out', () => {
  it('a transaction of the data pool fails; the next statement runs on a new connection', async () => {
    const failed = await t.app.db
      .transaction(async (tx) => {
        const [me] = rowsOf<{ pid: number }>(await tx.execute(sql`select pg_backend_pid() as pid`));
        await terminate(me!.pid);
        await settle();
        await tx.execute(sql`select 1`);
      })
      .then(
        () => false,
        () => true,
      );
    expect(failed).toBe(true);
    const [row] = rowsOf<{ ok: number }>(await t.app.db.execute(sql`select 1 as ok`));
    expect(row?.ok).toBe(1);
  });

  it('a lock held across a call whose connection drops gives way; the next lock works', async () => {
    const locks = createLockService(t.databaseUrl, 1);
    try {
      const held = await locks.withLock('chaos:key', async () => {
        const { rows } = await admin.query<{ pid: number }>(
          `select pid from pg_locks where locktype = 'advisory' and granted
             and database = (select oid from pg_database where datname = current_database())`,
        );
        expect(rows).toHaveLength(1);
        await terminate(rows[0]!.pid);
        await settle();
        return 'done';
      });
      expect(held).toBe('done');
      expect(await locks.withLock('chaos:key', async () => 'again')).toBe('again');
    } finally {
      await locks.close();
    }
  });
});
