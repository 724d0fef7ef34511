import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { users } from '../db/schema';
import { bearer, createTestApp, errorOf, signUp, type TestApp } from '../test/test-app';

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp({
    register(app) {
      app.get('/api/test/privileged', { config: { access: 'privileged' } }, async () => ({ ok: true }));
      app.get('/api/test/owner', { config: { access: 'owner' } }, async () => ({ ok: true }));
      app.get('/api/test/active', { config: { access: 'client', requireActive: true } }, async () => ({ ok: true }));
    },
  });
});
afterAll(() => t.close());

const get = (url: string, token: string) => t.app.inject({ method: 'GET', url, headers: bearer(token) });
const setRole = (login: string, values: Partial<typeof users.$inferInsert>) =>
  t.app.db.update(users).set(values).where(eq(users.login, login));

describe('access levels', () => {
  it('lets a client reach client routes only', async () => {
    const user = await signUp(t);
    for (const url of ['/api/test/privileged', '/api/test/owner']) {
      const res = await get(url, user.accessToken);
      expect([res.statusCode, errorOf(res).code]).toEqual([403, 'FORBIDDEN']);
    }
    expect((await get('/api/test/active', user.accessToken)).statusCode).toBe(200);
  });

  it('lets admin and support pass privileged checks but not owner ones', async () => {
    for (const role of ['admin', 'support'] as const) {
      const user = await signUp(t);
      await setRole(user.login, { role });
      expect((await get('/api/test/privileged', user.accessToken)).statusCode).toBe(200);
      expect((await get('/api/test/owner', user.accessToken)).statusCode).toBe(403);
    }
  });

  it('lets the owner pass every check, whatever the token says', async () => {
    const user = await signUp(t);
    await setRole(user.login, { role: 'owner', expDate: null });
    for (const url of ['/api/test/privileged', '/api/test/owner', '/api/test/active']) {
      expect((await get(url, user.accessToken)).statusCode).toBe(200);
    }
  });

  it('takes the role from the database, not the token', async () => {
    const user = await signUp(t);
    await setRole(user.login, { role: 'owner' });
    expect((await get('/api/test/owner', user.accessToken)).statusCode).toBe(200);
    await setRole(user.login, { role: 'client' });
    expect((await get('/api/test/owner', user.accessToken)).statusCode).toBe(403);
  });

  it('answers ACCOUNT_NOT_ACTIVE on routes that need an active account', async () => {
    const expired = await signUp(t);
    await setRole(expired.login, { expDate: '2020-01-01' });
    const res = await get('/api/test/active', expired.accessToken);
    expect([res.statusCode, errorOf(res).code]).toEqual([403, 'ACCOUNT_NOT_ACTIVE']);
    const off = await signUp(t);
    await setRole(off.login, { active: false });
    expect(errorOf(await get('/api/test/active', off.accessToken)).code).toBe('ACCOUNT_NOT_ACTIVE');
    expect((await get('/api/account', off.accessToken)).statusCode).toBe(200);
  });

  it('refuses a deleted user', async () => {
    const user = await signUp(t);
    await setRole(user.login, { deletedAt: new Date() });
    expect(errorOf(await get('/api/account', user.accessToken)).code).toBe('UNAUTHORIZED');
  });
});

describe('default deny', () => {
  it('refuses to start when a route does not declare config.access', async () => {
    await expect(
      createTestApp({
        register(app) {
          app.get('/api/test/forgotten', async () => ({ leaked: true }));
        },
      }),
    ).rejects.toThrow(/GET \/api\/test\/forgotten has no config\.access/);
  });

  it('refuses an unknown access level', async () => {
    await expect(
      createTestApp({
        register(app) {
          app.get('/api/test/typo', { config: { access: 'pubic' as 'public' } }, async () => ({}));
        },
      }),
    ).rejects.toThrow(/no config\.access/);
  });
});
