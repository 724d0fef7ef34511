// Shared rate limits: two app instances on one database stand for two API processes.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp } from '../app';
import { accountIdOf, createSource } from '../test/routing-fixtures';
import { createTestApp, expectError, signUp, type TestApp } from '../test/test-app';

const limits = { webhook: 5, auth: 3, signin: 3, widget: 100 };
let a: TestApp;
let b: Awaited<ReturnType<typeof buildApp>>;
let url: string;
beforeAll(async () => {
  a = await createTestApp({ rateLimits: limits });
  b = await buildApp({ publicUrl: 'http://app.test', databaseUrl: a.databaseUrl, rateLimits: limits });
  const user = await signUp(a);
  url = (await createSource(a.app.db, await accountIdOf(a.app.db, user.login))).url;
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
