import { COOKIE } from '@leadrelay/shared';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { users } from '../../db/schema';
import {
  callAs,
  confirmTokenOf,
  createTestApp,
  expectError,
  PASSWORD,
  sameBrowser,
  signUp,
  type TestApp,
  uniqueLogin,
} from '../../test/test-app';

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(() => t.close());

const referrals = async (user: Awaited<ReturnType<typeof signUp>>, query = '') => {
  const res = await callAs(t, 'GET', `/api/legacy/api/admin/referrals${query}`, user);
  expect(res.statusCode, res.body).toBe(200);
  return res.json();
};

/** Signs up through a referral link: the code in the body (the sign-up page) or only in the promo cookie. */
async function signUpWith(promo: { body?: string; cookie?: string }, login = uniqueLogin('friend')) {
  const created = await t.app.inject({
    method: 'POST',
    url: '/api/auth/create-account',
    payload: { login, password: PASSWORD, passwordConfirm: PASSWORD, ...(promo.body ? { promo: promo.body } : {}) },
    headers: promo.cookie ? { cookie: `${COOKIE.promo}=${promo.cookie}` } : {},
  });
  expect(created.statusCode, created.body).toBe(201);
  const confirmed = await t.app.inject({
    method: 'POST',
    url: '/api/auth/confirm-email',
    payload: { token: confirmTokenOf(t.outbox, login) },
    headers: sameBrowser(created),
  });
  expect(confirmed.statusCode).toBe(200);
  return login;
}

describe('referrals (GET /api/legacy/api/admin/referrals)', () => {
  it('gives every account one link; sign-ups through it, by the page or by the promo cookie, are listed masked', async () => {
    const alice = await signUp(t);
    const first = await referrals(alice);
    expect(first).toMatchObject({ data: [], total: 0 });
    expect(first.code).toMatch(/^[a-z2-9]{8}$/);
    expect(first.link).toBe(`http://app.test/signup?promo=${first.code}`);
    expect((await referrals(alice)).code).toBe(first.code);

    const byPage = await signUpWith({ body: first.code }, 'olena.k@gmail.com');
    const byCookie = await signUpWith({ cookie: first.code.toUpperCase() });
    await signUpWith({ body: 'nosuchcode' });
    const list = await referrals(alice);
    expect(list.total).toBe(2);
    expect(list.data.map((r: { login: string }) => r.login).sort()).toEqual(
      ['o***@gmail.com', `f***${byCookie.slice(byCookie.indexOf('@'))}`].sort(),
    );
    expect(JSON.stringify(list)).not.toContain(byPage);
    expect(list.data.every((r: { status: string }) => r.status === 'demo')).toBe(true);

    // What becomes of them: on a plan, or run out.
    await t.app.db.update(users).set({ expDate: '2020-01-01' }).where(eq(users.login, byCookie));
    expect((await referrals(alice)).data.find((r: { login: string }) => r.login.startsWith('f'))?.status).toBe(
      'expired',
    );
    // Pages: newest first, one at a time.
    const page2 = await referrals(alice, '?page=2&limit=1');
    expect(page2).toMatchObject({ total: 2 });
    expect(page2.data).toHaveLength(1);
  });

  it('shows an account only its own referrals; refuses the signed out and a bad page', async () => {
    const bob = await signUp(t);
    const carol = await signUp(t);
    await signUpWith({ body: (await referrals(bob)).code });
    expect((await referrals(carol)).total).toBe(0);
    expectError(await callAs(t, 'GET', '/api/legacy/api/admin/referrals', null), 401, 'UNAUTHORIZED');
    const bad = await callAs(t, 'GET', '/api/legacy/api/admin/referrals?limit=0', bob);
    expect(bad.statusCode).toBe(400);
  });
});
