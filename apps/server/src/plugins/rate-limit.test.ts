// Shared rate limits: two app instances on one database stand for two API processes.
import type { SQL } from 'drizzle-orm';
import { PgDialect } from 'drizzle-orm/pg-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp } from '../app';
import { accountIdOf, createSource } from '../test/routing-fixtures';
import { createTestApp, expectError, signUp, type TestApp } from '../test/test-app';
import { type RateLimiterOptions, SharedRateLimiter } from './rate-limit';

const limits = { webhook: 5, auth: 3, signin: 3, widget: 100 };
let a: TestApp;
let b: Awaited<ReturnType<typeof buildApp>>;
let url: string;
let accountId: string;
beforeAll(async () => {
  a = await createTestApp({ rateLimits: limits });
  b = await buildApp({ publicUrl: 'http://app.test', databaseUrl: a.databaseUrl, rateLimits: limits });
  const user = await signUp(a);
  accountId = await accountIdOf(a.app.db, user.login);
  url = (await createSource(a.app.db, accountId)).url;
});
afterAll(async () => {
  await b.close();
  await a.close();
});

/** Both processes send their counts and read back the shared totals (what their timers do every 200 ms). */
const flushed = async () => {
  await a.app.rateLimiter!.flush();
  await b.rateLimiter!.flush();
};

/** Windows are whole minutes: a test that started in the last seconds of one would count in two. */
async function inOneWindow(): Promise<void> {
  const left = 60_000 - (Date.now() % 60_000);
  if (left < 10_000) await new Promise((r) => setTimeout(r, left + 50));
}
const post = (app: typeof b, n: number) =>
  app.inject({ method: 'POST', url, payload: { name: 'Olena', phone: `050000000${n}` } });

describe('shared rate limits', () => {
  it('count a source’s leads across processes and refuse past the limit with Retry-After', async () => {
    await inOneWindow();
    for (const n of [1, 2, 3]) expect((await post(a.app, n)).statusCode).toBe(202);
    await flushed();
    expect((await post(b, 4)).statusCode).toBe(202);
    expect((await post(b, 5)).statusCode).toBe(202);
    // b learns the shared total (3 + 2) when it sends its own hits, within one flush interval.
    await flushed();
    const refused = await post(b, 6);
    expectError(refused, 429, 'TOO_MANY_REQUESTS');
    expect(Number(refused.headers['retry-after'])).toBeGreaterThan(0);
    expect(Number(refused.headers['retry-after'])).toBeLessThanOrEqual(60);
    // a, last told 3, takes one more (the documented overshoot) and then knows.
    await post(a.app, 7);
    await flushed();
    expectError(await post(a.app, 8), 429, 'TOO_MANY_REQUESTS');
  });

  it('count sign-in attempts per address, and leave other calls alone', async () => {
    await inOneWindow();
    const login = (app: typeof b) =>
      app.inject({
        method: 'POST',
        url: '/api/auth/login',
        payload: { login: 'nobody@example.com', password: 'Wrong1234' },
        remoteAddress: '198.51.100.9',
      });
    for (let i = 0; i < 2; i++) expect((await login(a.app)).statusCode).not.toBe(429);
    await flushed();
    expect((await login(b)).statusCode).not.toBe(429);
    await flushed();
    expectError(await login(b), 429, 'TOO_MANY_REQUESTS');
    await login(a.app);
    await flushed();
    expectError(await login(a.app), 429, 'TOO_MANY_REQUESTS');
    const other = await b.inject({
      method: 'POST',
      url: '/api/auth/login',
      payload: { login: 'x@example.com', password: 'Wrong1234' },
      remoteAddress: '198.51.100.10',
    });
    expect(other.statusCode).not.toBe(429);
    for (let i = 0; i < 5; i++)
      expect((await a.app.inject({ method: 'GET', url: '/api/health' })).statusCode).toBe(200);
  });
});

describe('what a client sends cannot poison or grow the shared counts', () => {
  it('a NUL token is refused uncounted, and a real token stays limited across processes after it', async () => {
    await inOneWindow();
    const token = url.split('/').pop()!;
    const before = a.app.rateLimiter!.size;
    for (const path of [`/api/hooks/in/%00${token}`, `/api/hooks/in/a%00b`, `/api/horoshop/webhook/x%00y`]) {
      const poisoned = await a.app.inject({ method: 'POST', url: path, payload: { name: 'x' } });
      expect(poisoned.statusCode).toBe(400);
    }
    expect(a.app.rateLimiter!.size).toBe(before);
    // The flood on the real token (a fresh source: the first test spent the other one's minute).
    const fresh = (await createSource(a.app.db, accountId)).url;
    const flood = (app: typeof b, n: number) =>
      app.inject({ method: 'POST', url: fresh, payload: { name: 'Olena', phone: `050000001${n}` } });
    for (const n of [1, 2, 3]) expect((await flood(a.app, n)).statusCode).toBe(202);
    await flushed();
    for (const n of [4, 5]) expect((await flood(b, n)).statusCode).toBe(202);
    await flushed();
    expectError(await flood(b, 6), 429, 'TOO_MANY_REQUESTS');
    await flood(a.app, 7);
    await flushed();
    expectError(await flood(a.app, 8), 429, 'TOO_MANY_REQUESTS');
  });

  /** A limiter on the test database that records each flush statement's rows and size. */
  function recordingLimiter(options: RateLimiterOptions) {
    const statements: { rows: number; bytes: number }[] = [];
    const errors: unknown[] = [];
    const dialect = new PgDialect();
    const db = {
      execute: (query: SQL) => {
        const { sql, params } = dialect.sqlToQuery(query);
        const json = params.find((p): p is string => typeof p === 'string' && p.startsWith('[')) ?? '[]';
        statements.push({ rows: (JSON.parse(json) as unknown[]).length, bytes: sql.length + json.length });
        return a.app.db.execute(query);
      },
    };
    const limiter = new SharedRateLimiter(db as never, (error) => errors.push(error), options);
    return { limiter, statements, errors };
  }

  it('a flood of distinct garbage tokens keeps the keys and each flush statement bounded', async () => {
    await inOneWindow();
    const { limiter, statements, errors } = recordingLimiter({ maxKeys: 300, flushBatch: 100 });
    const other = recordingLimiter({});
    const real = `webhook:real-${Date.now()}`;
    const garbage = (i: number) =>
      [`webhook:\u0000${i}`, `webhook:\ud800${i}`, `webhook:${'x'.repeat(5000)}${i}`, `webhook:\udc00\u0000${i}`][
        i % 4
      ]!;
    for (let i = 0; i < 5000; i++) {
      expect(limiter.hit(garbage(i), 3)).toBeNull();
      expect(limiter.size).toBeLessThanOrEqual(300);
    }
    expect(limiter.hit(real, 2)).toBeNull();
    await limiter.flush();
    expect(errors).toEqual([]);
    expect(statements.length).toBeGreaterThan(0);
    for (const s of statements) {
      expect(s.rows).toBeLessThanOrEqual(100);
      expect(s.bytes).toBeLessThan(100 * 200);
    }
    // The real token's hit reached the shared row: another process refuses its second one.
    expect(other.limiter.hit(real, 2)).toBeNull();
    await other.limiter.flush();
    expect(other.limiter.hit(real, 2)).toBeGreaterThan(0);
    expect(other.errors).toEqual([]);
  });

  it('a failing database keeps no counts past their window and is reported once a minute', async () => {
    let now = 10 * 60_000 + 1_000;
    const errors: number[] = [];
    const db = { execute: () => Promise.reject(new Error('database away')) };
    const limiter = new SharedRateLimiter(db as never, (_error, failures) => errors.push(failures), {
      now: () => now,
      maxKeys: 1_000,
    });
    for (let i = 0; i < 500; i++) limiter.hit(`webhook:${i}`, 10);
    // Four times a second for 50 seconds: the first failure is reported, not the 199 after it.
    for (let i = 0; i < 200; i++) {
      await limiter.flush();
      now += 250;
    }
    expect(errors).toEqual([1]);
    // Local counting still holds while the database is away.
    for (let i = 0; i < 10; i++) expect(limiter.hit('webhook:local', 10)).toBeNull();
    expect(limiter.hit('webhook:local', 10)).toBeGreaterThan(0);
    expect(limiter.size).toBe(501);
    // The window ends: nothing of it is kept or sent again.
    now += 60_000;
    await limiter.flush();
    expect(limiter.size).toBe(0);
    expect(errors).toEqual([1]);
    // Still failing a minute after the last report: reported again, with how many failures there were.
    limiter.hit('webhook:later', 10);
    await limiter.flush();
    expect(errors).toEqual([1, 201]);
    await limiter.close();
  });
});
