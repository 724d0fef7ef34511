import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, errorOf, PASSWORD, signUp, type TestApp, uniqueLogin } from '../../test/test-app';

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp({ throttle: { accountFailures: 3, ipFailures: 5, windowSeconds: 60 } });
});
afterAll(() => t.close());

const login = (body: { login: string; password: string }, ip = '10.0.0.1') =>
  t.app.inject({ method: 'POST', url: '/api/auth/login', payload: body, remoteAddress: ip });

describe('login throttling', () => {
  it('blocks an account after its failures with 429 and Retry-After, even with the right password', async () => {
    const { login: account } = await signUp(t);
    for (let i = 0; i < 3; i++) {
      const res = await login({ login: account, password: 'Wrong1234' }, `10.1.0.${i}`);
      expect(errorOf(res).code).toBe('INVALID_CREDENTIALS');
    }
    const blocked = await login({ login: account, password: PASSWORD }, '10.1.1.1');
    expect([blocked.statusCode, errorOf(blocked).code]).toEqual([429, 'TOO_MANY_REQUESTS']);
    const retryAfter = Number(blocked.headers['retry-after']);
    expect(retryAfter).toBeGreaterThan(0);
    expect(retryAfter).toBeLessThanOrEqual(60);
  });

  it('counts unknown logins too, so the throttle does not reveal which exist', async () => {
    const ghost = uniqueLogin('ghost');
    for (let i = 0; i < 3; i++) await login({ login: ghost, password: 'Wrong1234' }, `10.2.0.${i}`);
    const res = await login({ login: ghost, password: 'Wrong1234' }, '10.2.1.1');
    expect(res.statusCode).toBe(429);
  });

  it('blocks an IP address after failures across accounts', async () => {
    const ip = '10.3.0.1';
    for (let i = 0; i < 5; i++) {
      expect((await login({ login: uniqueLogin('spray'), password: 'Wrong1234' }, ip)).statusCode).toBe(401);
    }
    const { login: account } = await signUp(t);
    const blocked = await login({ login: account, password: PASSWORD }, ip);
    expect([blocked.statusCode, errorOf(blocked).code]).toEqual([429, 'TOO_MANY_REQUESTS']);
    expect(Number(blocked.headers['retry-after'])).toBeGreaterThan(0);
    expect((await login({ login: account, password: PASSWORD }, '10.3.0.2')).statusCode).toBe(200);
  });

  it('clears the account failures on a successful login', async () => {
    const { login: account } = await signUp(t);
    for (let i = 0; i < 2; i++) await login({ login: account, password: 'Wrong1234' }, '10.4.0.1');
    expect((await login({ login: account, password: PASSWORD }, '10.4.0.1')).statusCode).toBe(200);
    for (let i = 0; i < 2; i++) await login({ login: account, password: 'Wrong1234' }, '10.4.0.1');
    expect((await login({ login: account, password: PASSWORD }, '10.4.0.1')).statusCode).toBe(200);
  });
});
