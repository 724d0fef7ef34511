// The sign-in throttle (docs/operations.md, "Sign-in throttle"): an attacker slows the guesses on
// the logins he attacks and locks out nobody else. Addresses are unique per test, since the
// per-address ceiling counts across logins.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp } from '../../app';
import { createTestApp, errorOf, PASSWORD, signUp, type TestApp, uniqueLogin } from '../../test/test-app';

const throttle = { pairFailures: 3, loginFailures: 6, loginDelaySeconds: 20, ipFailures: 12, windowSeconds: 60 };
let t: TestApp;
/** A second API process on the same database. */
let other: Awaited<ReturnType<typeof buildApp>>;
beforeAll(async () => {
  t = await createTestApp({ throttle });
  other = await buildApp({ publicUrl: 'http://app.test', databaseUrl: t.databaseUrl, throttle });
});
afterAll(async () => {
  await other.close();
  await t.close();
});

type App = TestApp['app'];
const login = (body: { login: string; password: string }, ip: string, app: App = t.app) =>
  app.inject({ method: 'POST', url: '/api/auth/login', payload: body, remoteAddress: ip });
const wrong = (account: string, ip: string, app?: App) => login({ login: account, password: 'Wrong1234' }, ip, app);
const retryAfterOf = (res: { headers: Record<string, unknown> }) => Number(res.headers['retry-after']);

describe('sign-in throttle', () => {
  it('lets a teammate behind the same address sign in while an attacker hammers other logins from it', async () => {
    const office = '10.10.0.1';
    const [victim, victim2, teammate] = [await signUp(t), await signUp(t), await signUp(t)];
    // Two logins hammered well past their limit: the attacker is slowed on each...
    for (const target of [victim.login, victim2.login]) {
      for (let i = 0; i < 3; i++) expect(errorOf(await wrong(target, office)).code).toBe('INVALID_CREDENTIALS');
      for (let i = 0; i < 5; i++) expect((await wrong(target, office)).statusCode).toBe(429);
    }
    // ...even when his next guess is right: the answer must not tell him.
    const lucky = await login({ login: victim.login, password: PASSWORD }, office);
    expect([lucky.statusCode, errorOf(lucky).code]).toEqual([429, 'TOO_MANY_REQUESTS']);
    // The teammate at the same address is not.
    expect((await login({ login: teammate.login, password: PASSWORD }, office)).statusCode).toBe(200);
    // Nor is the person attacked, from their own address.
    expect((await login({ login: victim.login, password: PASSWORD }, '10.10.9.9')).statusCode).toBe(200);
  });

  it('slows the attacked login for the attacker’s address, and more softly from everywhere that failed on it', async () => {
    const victim = await signUp(t);
    // The attacker's address: three failures, then 429 with a wait of up to the window.
    for (let i = 0; i < 3; i++) await wrong(victim.login, '10.20.0.1');
    const held = await wrong(victim.login, '10.20.0.1');
    expect([held.statusCode, errorOf(held).code]).toEqual([429, 'TOO_MANY_REQUESTS']);
    expect(retryAfterOf(held)).toBeGreaterThan(throttle.loginDelaySeconds);
    expect(retryAfterOf(held)).toBeLessThanOrEqual(throttle.windowSeconds);

    // Three more addresses, one failure each: the login has six failures in all, none of these
    // addresses is at its own limit, and each now waits the short delay after its failure.
    for (const ip of ['10.20.1.1', '10.20.1.2', '10.20.1.3']) await wrong(victim.login, ip);
    const slowed = await wrong(victim.login, '10.20.1.1');
    expect([slowed.statusCode, errorOf(slowed).code]).toEqual([429, 'TOO_MANY_REQUESTS']);
    expect(retryAfterOf(slowed)).toBeGreaterThan(0);
    expect(retryAfterOf(slowed)).toBeLessThanOrEqual(throttle.loginDelaySeconds);
    // ...also with the right password, which it must not reveal.
    expect((await login({ login: victim.login, password: PASSWORD }, '10.20.1.2')).statusCode).toBe(429);

    // An address that has not failed on this login still gets in with the right password.
    expect((await login({ login: victim.login, password: PASSWORD }, '10.20.2.1')).statusCode).toBe(200);
  });

  it('stops a spray across many logins at the per-address ceiling, which is far above one login’s limit', async () => {
    const ip = '10.30.0.1';
    const teammate = await signUp(t);
    // One short of the ceiling: four logins' worth of failures, and the address still works.
    for (let i = 0; i < 11; i++) expect((await wrong(uniqueLogin('spray'), ip)).statusCode).toBe(401);
    expect((await login({ login: teammate.login, password: PASSWORD }, ip)).statusCode).toBe(200);
    await wrong(uniqueLogin('spray'), ip);
    // At the ceiling, every login from that address waits, the right password too.
    const blocked = await login({ login: teammate.login, password: PASSWORD }, ip);
    expect([blocked.statusCode, errorOf(blocked).code]).toEqual([429, 'TOO_MANY_REQUESTS']);
    expect(retryAfterOf(blocked)).toBeGreaterThan(0);
    expect((await wrong(uniqueLogin('spray'), ip)).statusCode).toBe(429);
    // Another address is not touched.
    expect((await login({ login: teammate.login, password: PASSWORD }, '10.30.0.2')).statusCode).toBe(200);
  });

  it('counts simultaneous guesses in full: a burst gets no more tries than the limit', async () => {
    const victim = await signUp(t);
    const burst = await Promise.all(Array.from({ length: 10 }, () => wrong(victim.login, '10.40.0.1')));
    const codes = burst.map((r) => errorOf(r).code).sort();
    expect(codes.filter((c) => c === 'INVALID_CREDENTIALS')).toHaveLength(throttle.pairFailures);
    expect(codes.filter((c) => c === 'TOO_MANY_REQUESTS')).toHaveLength(10 - throttle.pairFailures);
  });

  it('holds across API processes and counts unknown logins the same', async () => {
    const ghost = uniqueLogin('ghost');
    for (let i = 0; i < 2; i++) expect((await wrong(ghost, '10.50.0.1')).statusCode).toBe(401);
    expect((await wrong(ghost, '10.50.0.1', other)).statusCode).toBe(401);
    expect((await wrong(ghost, '10.50.0.1', other)).statusCode).toBe(429);
    expect((await wrong(ghost, '10.50.0.1')).statusCode).toBe(429);
  });

  it('forgets an address’s failures on a login once it signs in there', async () => {
    const { login: account } = await signUp(t);
    for (let i = 0; i < 2; i++) await wrong(account, '10.60.0.1');
    expect((await login({ login: account, password: PASSWORD }, '10.60.0.1')).statusCode).toBe(200);
    for (let i = 0; i < 2; i++) expect((await wrong(account, '10.60.0.1')).statusCode).toBe(401);
    expect((await login({ login: account, password: PASSWORD }, '10.60.0.1')).statusCode).toBe(200);
  });
});

describe('the per-minute request limit of sign-in', () => {
  it('is its own, higher one: other calls from an office do not use up its sign-ins', async () => {
    const limited = await createTestApp({ throttle, rateLimits: { auth: 3, signin: 20 } });
    try {
      const user = await signUp(limited); // two 'auth' calls, from another address
      const office = '10.70.0.1';
      // Windows are whole minutes: keep the calls in one.
      const left = 60_000 - (Date.now() % 60_000);
      if (left < 15_000) await new Promise((r) => setTimeout(r, left + 50));
      const forgot = () =>
        limited.app.inject({
          method: 'POST',
          url: '/api/auth/forgot-password',
          payload: { login: uniqueLogin('spam') },
          remoteAddress: office,
        });
      for (let i = 0; i < 3; i++) expect((await forgot()).statusCode).toBe(200);
      await limited.app.rateLimiter!.flush();
      expect((await forgot()).statusCode).toBe(429);
      expect((await login({ login: user.login, password: PASSWORD }, office, limited.app)).statusCode).toBe(200);
    } finally {
      await limited.close();
    }
  });
});
