import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { plans, users } from '../../db/schema';
import {
  bearer,
  cookieHeader,
  createTestApp,
  errorOf,
  logIn,
  PASSWORD,
  refreshCookieOf,
  signUp,
  type TestApp,
} from '../../test/test-app';

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(() => t.close());

const call = (method: 'GET' | 'POST' | 'PATCH', url: string, accessToken?: string, payload?: object) =>
  t.app.inject({ method, url, payload, headers: accessToken ? bearer(accessToken) : {} });
const refresh = (token: string) =>
  t.app.inject({ method: 'GET', url: '/api/auth/refresh', headers: cookieHeader(token) });

describe('account profile', () => {
  it('returns the signed-in user', async () => {
    const user = await signUp(t);
    const res = await call('GET', '/api/account', user.accessToken);
    expect(res.statusCode).toBe(200);
    expect(res.json()).toMatchObject({ login: user.login, name: '', phone: '', company: '', lang: 'uk' });
  });

  it('names the paid plan in both languages, whatever language the account paid in', async () => {
    const user = await signUp(t);
    const business = (await t.app.db.select().from(plans)).find((p) => p.title.en === 'Business')!;
    // Paid while the account was Ukrainian: the stored title is the Ukrainian one.
    await t.app.db
      .update(users)
      .set({ planId: business.id, subscription: { title: 'Бізнес', planId: business.id, period: 'month' } })
      .where(eq(users.login, user.login));
    const res = await call('GET', '/api/account', user.accessToken);
    expect(res.json().subscription).toEqual({
      title: 'Бізнес',
      planId: business.id,
      period: 'month',
      titles: { uk: 'Бізнес', en: 'Business' },
    });
    // A plan removed since: the stored title alone, no invented translation.
    await t.app.db
      .update(users)
      .set({ subscription: { title: 'Бізнес', planId: '00000000-0000-4000-8000-000000000000' } })
      .where(eq(users.login, user.login));
    expect((await call('GET', '/api/account', user.accessToken)).json().subscription).toEqual({
      title: 'Бізнес',
      planId: '00000000-0000-4000-8000-000000000000',
    });
  });

  it('updates name, phone, company and language', async () => {
    const user = await signUp(t);
    const patch = { name: 'Олена', phone: '+380501234567', company: 'Acme', lang: 'en' };
    const res = await call('PATCH', '/api/account', user.accessToken, patch);
    expect(res.statusCode).toBe(200);
    expect(res.json()).toMatchObject(patch);
    expect((await call('GET', '/api/account', user.accessToken)).json()).toMatchObject(patch);
    expect((await call('PATCH', '/api/account', user.accessToken, {})).json()).toMatchObject(patch);
  });

  it('refuses unknown keys, too-long and wrong-typed fields', async () => {
    const user = await signUp(t);
    const unknown = await call('PATCH', '/api/account', user.accessToken, { role: 'owner' });
    expect(errorOf(unknown)).toMatchObject({ statusCode: 400, code: 'VALIDATION_ERROR', errors: [{ field: 'role' }] });
    const long = await call('PATCH', '/api/account', user.accessToken, { name: 'x'.repeat(101) });
    expect(errorOf(long)).toMatchObject({ statusCode: 400, code: 'MAX_LENGTH_100' });
    const typed = await call('PATCH', '/api/account', user.accessToken, { phone: 5 });
    expect(errorOf(typed)).toMatchObject({ statusCode: 400, code: 'INVALID_TYPE' });
    expect((await call('GET', '/api/account', user.accessToken)).json().role).toBe('client');
  });

  it('needs a signed-in user on every account call', async () => {
    for (const [method, url] of [
      ['GET', '/api/account'],
      ['PATCH', '/api/account'],
      ['POST', '/api/account/update-password'],
      ['POST', '/api/account/clear-all-data'],
      ['POST', '/api/account/remove-account'],
    ] as const) {
      const res = await call(method, url, undefined, {});
      expect([res.statusCode, errorOf(res).code], url).toEqual([401, 'UNAUTHORIZED']);
    }
  });
});

describe('update-password', () => {
  it('changes the password and signs out the other sessions only', async () => {
    const user = await signUp(t);
    const other = await logIn(t, user.login);
    const res = await call('POST', '/api/account/update-password', user.accessToken, {
      oldPassword: PASSWORD,
      password: 'Changed11',
      passwordConfirm: 'Changed11',
    });
    expect([res.statusCode, res.json()]).toEqual([200, { success: true }]);
    expect((await call('GET', '/api/account', user.accessToken)).statusCode).toBe(200);
    expect((await refresh(user.refreshToken)).statusCode).toBe(200);
    expect((await call('GET', '/api/account', other.accessToken)).statusCode).toBe(401);
    expect((await refresh(other.refreshToken)).statusCode).toBe(401);
    await logIn(t, user.login, 'Changed11');
  });

  it('refuses a wrong old password with 400 WRONG_PASSWORD and a weak or unequal new one', async () => {
    const user = await signUp(t);
    const wrong = await call('POST', '/api/account/update-password', user.accessToken, {
      oldPassword: 'Nope12345',
      password: 'Changed11',
      passwordConfirm: 'Changed11',
    });
    expect([wrong.statusCode, errorOf(wrong).code]).toEqual([400, 'WRONG_PASSWORD']);
    const weak = await call('POST', '/api/account/update-password', user.accessToken, {
      oldPassword: PASSWORD,
      password: 'abc',
      passwordConfirm: 'abc',
    });
    expect(errorOf(weak).code).toBe('MINIMUM_8_ONE_UPPERCASE_LETTER_ONE_LOWERCASE_ONE_NUMBER');
    const unequal = await call('POST', '/api/account/update-password', user.accessToken, {
      oldPassword: PASSWORD,
      password: 'Changed11',
      passwordConfirm: 'Changed12',
    });
    expect(errorOf(unequal).code).toBe('PASSWORDS_NOT_EQUAL');
    const missing = await call('POST', '/api/account/update-password', user.accessToken, {});
    expect(errorOf(missing).code).toBe('REQUIRED');
    expect(errorOf(missing).errors?.map((e) => e.field)).toEqual(['oldPassword', 'password', 'passwordConfirm']);
    await logIn(t, user.login);
  });
});

describe('clear-all-data', () => {
  it('asks for the password and keeps profile and login', async () => {
    const user = await signUp(t);
    await call('PATCH', '/api/account', user.accessToken, { name: 'Kept' });
    const wrong = await call('POST', '/api/account/clear-all-data', user.accessToken, { password: 'Wrong1234' });
    expect([wrong.statusCode, errorOf(wrong).code]).toEqual([400, 'WRONG_PASSWORD']);
    const res = await call('POST', '/api/account/clear-all-data', user.accessToken, { password: PASSWORD });
    expect([res.statusCode, res.json()]).toEqual([200, { success: true }]);
    expect((await call('GET', '/api/account', user.accessToken)).json()).toMatchObject({
      login: user.login,
      name: 'Kept',
    });
    const missing = await call('POST', '/api/account/clear-all-data', user.accessToken, {});
    expect([missing.statusCode, errorOf(missing).code]).toEqual([400, 'REQUIRED']);
  });
});

describe('remove-account', () => {
  it('soft-deletes the account, ends every session and frees the login', async () => {
    const user = await signUp(t);
    const other = await logIn(t, user.login);
    const wrong = await call('POST', '/api/account/remove-account', user.accessToken, { password: 'Wrong1234' });
    expect([wrong.statusCode, errorOf(wrong).code]).toEqual([400, 'WRONG_PASSWORD']);

    const res = await call('POST', '/api/account/remove-account', user.accessToken, { password: PASSWORD });
    expect([res.statusCode, res.json()]).toEqual([200, { success: true }]);
    expect(refreshCookieOf(res)).toBe('');
    for (const token of [user.accessToken, other.accessToken]) {
      expect((await call('GET', '/api/account', token)).statusCode).toBe(401);
    }
    expect((await refresh(other.refreshToken)).statusCode).toBe(401);
    const login = await t.app.inject({
      method: 'POST',
      url: '/api/auth/login',
      payload: { login: user.login, password: PASSWORD },
    });
    expect([login.statusCode, errorOf(login).code]).toEqual([401, 'INVALID_CREDENTIALS']);

    const again = await signUp(t, user.login, 'Fresh1234');
    const fresh = await call('GET', '/api/account', again.accessToken);
    expect(fresh.json().login).toBe(user.login);
  });
});
