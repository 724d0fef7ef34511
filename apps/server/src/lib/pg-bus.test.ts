import pg from 'pg';
import { afterEach, describe, expect, inject, it } from 'vitest';
import { adapterPool } from './pg-bus';

// The socket.io adapter takes its listening client from the bus pool asynchronously. An app closed
// while that was under way used to keep the client, and closing the bus pool then never returned.
describe('the bus pool as the socket.io adapter sees it', () => {
  let pool: pg.Pool;
  afterEach(async () => {
    if (!pool.ending) await Promise.race([pool.end(), new Promise((r) => setTimeout(r, 100))]);
  });
  const ends = (p: pg.Pool) =>
    Promise.race([p.end().then(() => 'ended'), new Promise((r) => setTimeout(() => r('still waiting'), 5_000))]);

  it('a client being connected when the app closes does not keep the pool open', async () => {
    pool = new pg.Pool({ connectionString: inject('testDatabaseUrl'), max: 2 });
    const view = adapterPool(pool);
    let handed = false;
    void view.pool.connect().then(() => {
      handed = true;
    });
    view.close();
    expect(await ends(pool)).toBe('ended');
    expect(handed).toBe(false);
  });

  it('a client it holds but never released (its LISTEN was under way at its close) is destroyed on close', async () => {
    pool = new pg.Pool({ connectionString: inject('testDatabaseUrl'), max: 2 });
    const view = adapterPool(pool);
    const client = await view.pool.connect();
    await client.query('LISTEN "socket.io#/"');
    view.close();
    expect(await ends(pool)).toBe('ended');
  });

  it('a client the adapter released itself is not released twice, and queries go through', async () => {
    pool = new pg.Pool({ connectionString: inject('testDatabaseUrl'), max: 2 });
    const view = adapterPool(pool);
    expect((await view.pool.query('select 1 as one')).rows).toEqual([{ one: 1 }]);
    const client = await view.pool.connect();
    client.release();
    expect(() => view.close()).not.toThrow();
    expect(await ends(pool)).toBe('ended');
  });
});
