import { COOKIE, REFRESH_TOKEN_TTL_DAYS } from '@leadrelay/shared';
import { eq } from 'drizzle-orm';
import { decodeJwt } from 'jose';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { emailTokens, users } from '../../db/schema';
import {
  bearer,
  confirmTokenOf,
  cookieHeader,
  createTestApp,
  errorOf,
  logIn,
  PASSWORD,
  refreshCookieOf,
  resetTokenOf,
  sameBrowser,
  signUp,
  type TestApp,
  uniqueLogin,
} from '../../test/test-app';

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp({ demoDays: 7 });
});
afterAll(() => t.close());

const post = (url: string, payload: unknown, headers: Record<string, string> = {}) =>
  t.app.inject({ method: 'POST', url, payload: payload as object, headers });

describe('create-account', () => {
  it('creates a demo client that must confirm the e-mail, and mails a link', async () => {
    const login = uniqueLogin('New');
    const res = await post('/api/auth/create-account', {
      login: `  ${login.toUpperCase()} `,
      password: PASSWORD,
      passwordConfirm: PASSWORD,
    });
    expect(res.statusCode).toBe(201);
    expect(res.json()).toEqual({ success: true });
    const mail = t.outbox.at(-1)!;
    expect(mail.to).toBe(login.toLowerCase());
    expect(mail.link).toMatch(/^http:\/\/app\.test\/confirm\?token=[\w-]+$/);
    expect(mail.subject).toMatch(/Підтвердіть/);

    const [row] = await t.app.db.select().from(users).where(eq(users.login, login.toLowerCase()));
    expect(row).toMatchObject({ role: 'client', active: true, planId: null, lang: 'uk', emailConfirmedAt: null });
    const today = new Date();
    const in7 = new Date(Date.UTC(today.getUTCFullYear(), today.getUTCMonth(), today.getUTCDate() + 7));
    expect(row!.expDate).toBe(in7.toISOString().slice(0, 10));
    expect(row!.passwordHash).toMatch(/^scrypt\$/);
  });

  it('writes the link and the mail in English when asked by body or Lang header', async () => {
    const a = uniqueLogin();
    await post('/api/auth/create-account', { login: a, password: PASSWORD, passwordConfirm: PASSWORD, lang: 'en' });
    expect(t.outbox.at(-1)!.link).toMatch(/^http:\/\/app\.test\/en\/confirm\?token=/);
    expect(t.outbox.at(-1)!.subject).toMatch(/Confirm your e-mail/);
    const b = uniqueLogin();
    await post('/api/auth/create-account', { login: b, password: PASSWORD, passwordConfirm: PASSWORD }, { lang: 'en' });
    expect(t.outbox.at(-1)!.link).toMatch(/\/en\/confirm/);
  });

  it('refuses a login taken by a confirmed account with 409 LOGIN_TAKEN', async () => {
    const { login } = await signUp(t);
    const res = await post('/api/auth/create-account', { login, password: PASSWORD, passwordConfirm: PASSWORD });
    expect(res.statusCode).toBe(409);
    expect(errorOf(res).code).toBe('LOGIN_TAKEN');
  });

  it('signs an unconfirmed login up again: new link, the newest password wins, old link dies', async () => {
    const login = uniqueLogin();
    await post('/api/auth/create-account', { login, password: 'Other123x', passwordConfirm: 'Other123x' });
    const first = confirmTokenOf(t.outbox, login);
    const again = await post('/api/auth/create-account', { login, password: PASSWORD, passwordConfirm: PASSWORD });
    expect(again.statusCode).toBe(201);
    const second = confirmTokenOf(t.outbox, login);
    expect(second).not.toBe(first);
    expect((await post('/api/auth/confirm-email', { token: first })).statusCode).toBe(400);
    expect((await post('/api/auth/confirm-email', { token: second })).statusCode).toBe(200);
    expect((await post('/api/auth/login', { login, password: 'Other123x' })).statusCode).toBe(401);
    await logIn(t, login);
  });

  it.each([
    [
      {},
      'REQUIRED',
      [
        { field: 'login', code: 'REQUIRED' },
        { field: 'password', code: 'REQUIRED' },
        { field: 'passwordConfirm', code: 'REQUIRED' },
      ],
    ],
    [{ login: 'nope', password: PASSWORD, passwordConfirm: PASSWORD }, 'EMAIL', [{ field: 'login', code: 'EMAIL' }]],
    [
      { login: 42, password: PASSWORD, passwordConfirm: PASSWORD },
      'INVALID_TYPE',
      [{ field: 'login', code: 'INVALID_TYPE' }],
    ],
    [
      { login: 'a@b.co', password: 'weakpass', passwordConfirm: 'weakpass' },
      'MINIMUM_8_ONE_UPPERCASE_LETTER_ONE_LOWERCASE_ONE_NUMBER',
      [{ field: 'password', code: 'MINIMUM_8_ONE_UPPERCASE_LETTER_ONE_LOWERCASE_ONE_NUMBER' }],
    ],
    [
      { login: 'a@b.co', password: PASSWORD, passwordConfirm: 'Abcdefg2' },
      'PASSWORDS_NOT_EQUAL',
      [{ field: 'passwordConfirm', code: 'PASSWORDS_NOT_EQUAL' }],
    ],
    [
      { login: 'a@b.co', password: `Aa1${'x'.repeat(130)}`, passwordConfirm: `Aa1${'x'.repeat(130)}` },
      'MAX_LENGTH_128',
      [{ field: 'password', code: 'MAX_LENGTH_128' }],
    ],
    [
      { login: 'a@b.co', password: PASSWORD, passwordConfirm: PASSWORD, promo: 'p'.repeat(65) },
      'MAX_LENGTH_64',
      [{ field: 'promo', code: 'MAX_LENGTH_64' }],
    ],
    [
      { login: 'a@b.co', password: PASSWORD, passwordConfirm: PASSWORD, lang: 'de' },
      'VALIDATION_ERROR',
      [{ field: 'lang', code: 'VALIDATION_ERROR' }],
    ],
  ])('rejects %j with 400 %s', async (payload, code, errors) => {
    const res = await post('/api/auth/create-account', payload);
    expect(res.statusCode).toBe(400);
    expect(errorOf(res)).toMatchObject({ statusCode: 400, code, errors });
  });
});

describe('confirm-email', () => {
  const createAccount = (login: string, headers: Record<string, string> = {}) =>
    post('/api/auth/create-account', { login, password: PASSWORD, passwordConfirm: PASSWORD }, headers);
  const signedInAs = async (accessToken: string) =>
    (await t.app.inject({ method: 'GET', url: '/api/auth/me', headers: bearer(accessToken) })).json().login;
  const confirmedAt = async (login: string) =>
    (await t.app.db.select().from(users).where(eq(users.login, login)))[0]!.emailConfirmedAt;

  it("binds the sign-up to its browser with an httpOnly, SameSite=Lax cookie for the link's 48 h", async () => {
    const res = await createAccount(uniqueLogin());
    expect(res.cookies).toEqual([
      expect.objectContaining({ name: 'confirm_browser', httpOnly: true, sameSite: 'Lax', path: '/', maxAge: 172_800 }),
    ]);
    expect(res.cookies[0]!.value).toMatch(/^[\w-]{43}$/);
    expect(res.cookies[0]!.secure).toBeFalsy();
  });

  it('in the browser that signed up: signs in with an access token and the refresh cookie, once', async () => {
    const login = uniqueLogin();
    const created = await createAccount(login);
    const token = confirmTokenOf(t.outbox, login);
    const res = await post('/api/auth/confirm-email', { token }, sameBrowser(created));
    expect(res.statusCode).toBe(200);
    const payload = decodeJwt(res.json().accessToken);
    expect(payload).toMatchObject({ login, role: 'client' });
    const cookie = res.cookies.find((c) => c.name === COOKIE.refresh)!;
    expect(cookie).toMatchObject({
      httpOnly: true,
      sameSite: 'Lax',
      path: '/',
      maxAge: REFRESH_TOKEN_TTL_DAYS * 86_400,
    });
    expect(cookie.secure).toBeFalsy();
    const again = await post('/api/auth/confirm-email', { token }, sameBrowser(created));
    expect(again.statusCode).toBe(400);
    expect(errorOf(again).code).toBe('TOKEN_INVALID');
  });

  it('in another browser: confirms the address but signs nobody in (no token, no cookie)', async () => {
    const login = uniqueLogin();
    await createAccount(login);
    const token = confirmTokenOf(t.outbox, login);
    const res = await post('/api/auth/confirm-email', { token });
    expect([res.statusCode, res.json()]).toEqual([200, { confirmed: true, login }]);
    expect(res.cookies).toEqual([]);
    expect(await confirmedAt(login)).toBeInstanceOf(Date);
    await logIn(t, login); // the password now works
    const again = await post('/api/auth/confirm-email', { token });
    expect([again.statusCode, errorOf(again).code]).toEqual([400, 'TOKEN_INVALID']);
  });

  it('a victim opening the link an attacker signed up for is not signed into his account', async () => {
    // The victim has her own binding from signing up earlier in her browser.
    const victim = await createAccount(uniqueLogin('victim'));
    const attackerLogin = uniqueLogin('attacker');
    const attacker = await createAccount(attackerLogin);
    const link = confirmTokenOf(t.outbox, attackerLogin);
    const opened = await post('/api/auth/confirm-email', { token: link }, sameBrowser(victim));
    expect([opened.statusCode, opened.json()]).toEqual([200, { confirmed: true, login: attackerLogin }]);
    expect(refreshCookieOf(opened)).toBeUndefined();
    // Nor can the attacker keep the link for later: it is used.
    const later = await post('/api/auth/confirm-email', { token: link }, sameBrowser(attacker));
    expect([later.statusCode, errorOf(later).code]).toEqual([400, 'TOKEN_INVALID']);
  });

  it('a link resent to the browser that asks signs that browser in, and a second sign-up keeps the binding', async () => {
    const login = uniqueLogin();
    const created = await createAccount(login);
    const other = await createAccount(uniqueLogin(), sameBrowser(created));
    expect(other.cookies[0]!.value).toBe(created.cookies[0]!.value);
    const resent = await post('/api/auth/resend-confirmation', { login }, sameBrowser(created));
    expect(resent.cookies[0]!.value).toBe(created.cookies[0]!.value);
    const res = await post('/api/auth/confirm-email', { token: confirmTokenOf(t.outbox, login) }, sameBrowser(created));
    expect(await signedInAs(res.json().accessToken)).toBe(login);

    // resend from a fresh browser binds the new link to that browser, not to the first one.
    const pending = uniqueLogin();
    const first = await createAccount(pending);
    const fresh = await post('/api/auth/resend-confirmation', { login: pending });
    const token = confirmTokenOf(t.outbox, pending);
    const elsewhere = await post('/api/auth/confirm-email', { token }, sameBrowser(first));
    expect(elsewhere.json()).toEqual({ confirmed: true, login: pending });
    expect(fresh.cookies[0]!.value).not.toBe(first.cookies[0]!.value);
  });

  it.each([
    ['a forged value', 'A'.repeat(43)],
    ['the stored hash itself', 'hash'],
    ['an empty value', ''],
    ['an overlong value', 'x'.repeat(5000)],
    ['control characters', '%00%0a'],
    ['a member name', '__proto__'],
  ])('treats %s in the cookie as another browser (never a sign-in, never a 5xx)', async (_, value) => {
    const login = uniqueLogin();
    await createAccount(login);
    const [row] = await t.app.db
      .select({ hash: emailTokens.browserHash })
      .from(emailTokens)
      .innerJoin(users, eq(users.id, emailTokens.userId))
      .where(eq(users.login, login));
    const cookie = value === 'hash' ? row!.hash! : value;
    const res = await post(
      '/api/auth/confirm-email',
      { token: confirmTokenOf(t.outbox, login) },
      { cookie: `confirm_browser=${cookie}` },
    );
    expect([res.statusCode, res.json()]).toEqual([200, { confirmed: true, login }]);
    expect(res.cookies).toEqual([]);
  });

  it('a hostile cookie on create-account is replaced by a fresh value, not stored', async () => {
    const res = await createAccount(uniqueLogin(), { cookie: 'confirm_browser=short' });
    expect(res.cookies[0]!.value).toMatch(/^[\w-]{43}$/);
  });

  it('refuses an expired link', async () => {
    const login = uniqueLogin();
    await post('/api/auth/create-account', { login, password: PASSWORD, passwordConfirm: PASSWORD });
    const [row] = await t.app.db.select().from(users).where(eq(users.login, login));
    await t.app.db
      .update(emailTokens)
      .set({ expiresAt: new Date(Date.now() - 1000) })
      .where(eq(emailTokens.userId, row!.id));
    const res = await post('/api/auth/confirm-email', { token: confirmTokenOf(t.outbox, login) });
    expect([res.statusCode, errorOf(res).code]).toEqual([400, 'TOKEN_INVALID']);
  });

  it('answers 400 TOKEN_INVALID for an unknown token and REQUIRED for none', async () => {
    const res = await post('/api/auth/confirm-email', { token: 'not-a-token' });
    expect([res.statusCode, errorOf(res).code]).toEqual([400, 'TOKEN_INVALID']);
    const none = await post('/api/auth/confirm-email', { token: '  ' });
    expect([none.statusCode, errorOf(none).code]).toEqual([400, 'REQUIRED']);
  });
});

describe('resend-confirmation', () => {
  it('answers the same for a pending, a confirmed and an unknown login; mails only the pending one', async () => {
    const pending = uniqueLogin();
    await post('/api/auth/create-account', { login: pending, password: PASSWORD, passwordConfirm: PASSWORD });
    const { login: confirmed } = await signUp(t);
    const before = t.outbox.length;
    const answers = [];
    for (const login of [pending, confirmed, uniqueLogin('ghost')]) {
      const res = await post('/api/auth/resend-confirmation', { login });
      answers.push([res.statusCode, res.body]);
    }
    expect(new Set(answers.map((a) => JSON.stringify(a))).size).toBe(1);
    expect(answers[0]).toEqual([200, '{"success":true}']);
    expect(t.outbox.slice(before).map((m) => m.to)).toEqual([pending]);
  });
});

describe('confirmation mail limit', () => {
  it('mails at most 5 confirmation links an hour, however the sign-up is repeated', async () => {
    const login = uniqueLogin();
    const body = { login, password: PASSWORD, passwordConfirm: PASSWORD };
    for (let i = 0; i < 4; i++) expect((await post('/api/auth/create-account', body)).statusCode).toBe(201);
    for (let i = 0; i < 3; i++) expect((await post('/api/auth/resend-confirmation', { login })).statusCode).toBe(200);
    expect(t.outbox.filter((m) => m.to === login)).toHaveLength(5);
  });
});

describe('login', () => {
  it('signs a confirmed user in', async () => {
    const { login } = await signUp(t);
    const res = await post('/api/auth/login', { login: login.toUpperCase(), password: PASSWORD });
    expect(res.statusCode).toBe(200);
    expect(decodeJwt(res.json().accessToken).login).toBe(login);
    expect(refreshCookieOf(res)).toMatch(/^[0-9a-f-]{36}\.[\w-]+$/);
  });

  it('answers 401 INVALID_CREDENTIALS alike for a wrong password and an unknown login', async () => {
    const { login } = await signUp(t);
    const wrong = await post('/api/auth/login', { login, password: 'Wrong1234' });
    const unknown = await post('/api/auth/login', { login: uniqueLogin('ghost'), password: 'Wrong1234' });
    expect(wrong.statusCode).toBe(401);
    expect(unknown.statusCode).toBe(401);
    expect(wrong.body).toBe(unknown.body);
    expect(errorOf(wrong).code).toBe('INVALID_CREDENTIALS');
  });

  it('tells an unconfirmed account EMAIL_NOT_CONFIRMED only after the password matched', async () => {
    const login = uniqueLogin();
    await post('/api/auth/create-account', { login, password: PASSWORD, passwordConfirm: PASSWORD });
    const bad = await post('/api/auth/login', { login, password: 'Wrong1234' });
    expect(errorOf(bad).code).toBe('INVALID_CREDENTIALS');
    const good = await post('/api/auth/login', { login, password: PASSWORD });
    expect([good.statusCode, errorOf(good).code]).toEqual([403, 'EMAIL_NOT_CONFIRMED']);
  });

  it('validates its body', async () => {
    const res = await post('/api/auth/login', { login: 1, password: true });
    expect(errorOf(res)).toMatchObject({
      statusCode: 400,
      code: 'INVALID_TYPE',
      errors: [
        { field: 'login', code: 'INVALID_TYPE' },
        { field: 'password', code: 'INVALID_TYPE' },
      ],
    });
    const long = await post('/api/auth/login', { login: 'a@b.co', password: 'x'.repeat(129) });
    expect(errorOf(long).code).toBe('MAX_LENGTH_128');
  });
});

describe('password recovery', () => {
  it('answers the same for a known and an unknown login, and mails only the known one', async () => {
    const { login } = await signUp(t);
    const before = t.outbox.length;
    const known = await post('/api/auth/forgot-password', { login });
    const unknown = await post('/api/auth/forgot-password', { login: uniqueLogin('ghost') });
    expect([known.statusCode, known.body]).toEqual([unknown.statusCode, unknown.body]);
    expect(known.json()).toEqual({ success: true });
    expect(t.outbox.slice(before).map((m) => m.to)).toEqual([login]);
    expect(t.outbox.at(-1)!.link).toMatch(/^http:\/\/app\.test\/password\/[\w-]+$/);
  });

  it('mails at most 5 reset links an hour to one account, answering the same every time', async () => {
    const { login } = await signUp(t);
    const before = t.outbox.length;
    const answers = new Set<string>();
    for (let i = 0; i < 8; i++) {
      const res = await post('/api/auth/forgot-password', { login });
      answers.add(`${res.statusCode} ${res.body}`);
    }
    expect([...answers]).toEqual(['200 {"success":true}']);
    expect(t.outbox.slice(before).filter((m) => m.to === login)).toHaveLength(5);
  });

  it('mails the reset link in the account language', async () => {
    const login = uniqueLogin();
    await post('/api/auth/create-account', { login, password: PASSWORD, passwordConfirm: PASSWORD, lang: 'en' });
    await post('/api/auth/forgot-password', { login });
    expect(t.outbox.at(-1)!.link).toMatch(/^http:\/\/app\.test\/en\/password\//);
    expect(t.outbox.at(-1)!.subject).toMatch(/Reset your LeadRelay password/);
  });

  it('checks a reset token', async () => {
    const { login } = await signUp(t);
    await post('/api/auth/forgot-password', { login });
    const token = resetTokenOf(t.outbox, login);
    const ok = await t.app.inject({ method: 'GET', url: `/api/auth/forgot-password/${token}` });
    expect([ok.statusCode, ok.json()]).toEqual([200, { valid: true, login }]);
    const bad = await t.app.inject({ method: 'GET', url: '/api/auth/forgot-password/nope' });
    expect([bad.statusCode, errorOf(bad).code]).toEqual([400, 'TOKEN_INVALID']);
  });

  it('sets the new password, confirms the e-mail, revokes every session and retires the link', async () => {
    const login = uniqueLogin();
    const created = await post('/api/auth/create-account', { login, password: PASSWORD, passwordConfirm: PASSWORD });
    const signedIn = await post(
      '/api/auth/confirm-email',
      { token: confirmTokenOf(t.outbox, login) },
      sameBrowser(created),
    );
    const refreshToken = refreshCookieOf(signedIn)!;
    await post('/api/auth/forgot-password', { login });
    const token = resetTokenOf(t.outbox, login);
    const res = await post('/api/auth/confirm-password', {
      token,
      password: 'NewPass99',
      passwordConfirm: 'NewPass99',
    });
    expect([res.statusCode, res.json()]).toEqual([200, { success: true }]);

    const me = await t.app.inject({ method: 'GET', url: '/api/auth/me', headers: bearer(signedIn.json().accessToken) });
    expect(me.statusCode).toBe(401);
    const refresh = await t.app.inject({
      method: 'GET',
      url: '/api/auth/refresh',
      headers: cookieHeader(refreshToken),
    });
    expect([refresh.statusCode, errorOf(refresh).code]).toEqual([401, 'REFRESH_INVALID']);
    expect((await post('/api/auth/login', { login, password: PASSWORD })).statusCode).toBe(401);
    await logIn(t, login, 'NewPass99');
    const reuse = await post('/api/auth/confirm-password', {
      token,
      password: 'NewPass98',
      passwordConfirm: 'NewPass98',
    });
    expect([reuse.statusCode, errorOf(reuse).code]).toEqual([400, 'TOKEN_INVALID']);
  });

  it('confirms a never-confirmed e-mail', async () => {
    const login = uniqueLogin();
    await post('/api/auth/create-account', { login, password: PASSWORD, passwordConfirm: PASSWORD });
    await post('/api/auth/forgot-password', { login });
    const token = resetTokenOf(t.outbox, login);
    await post('/api/auth/confirm-password', { token, password: 'NewPass99', passwordConfirm: 'NewPass99' });
    await logIn(t, login, 'NewPass99');
  });

  it('validates the new password', async () => {
    const weak = await post('/api/auth/confirm-password', { token: 't', password: 'short', passwordConfirm: 'short' });
    expect(errorOf(weak).code).toBe('MINIMUM_8_ONE_UPPERCASE_LETTER_ONE_LOWERCASE_ONE_NUMBER');
    const differ = await post('/api/auth/confirm-password', { token: 't', password: PASSWORD, passwordConfirm: 'x' });
    expect(errorOf(differ).code).toBe('PASSWORDS_NOT_EQUAL');
    const badToken = await post('/api/auth/confirm-password', {
      token: 't',
      password: PASSWORD,
      passwordConfirm: PASSWORD,
    });
    expect([badToken.statusCode, errorOf(badToken).code]).toEqual([400, 'TOKEN_INVALID']);
    const email = await post('/api/auth/forgot-password', { login: 'not-an-email' });
    expect([email.statusCode, errorOf(email).code]).toEqual([400, 'EMAIL']);
  });
});

describe('me', () => {
  it('returns the user in the ZUser shape', async () => {
    const { login, accessToken } = await signUp(t);
    const res = await t.app.inject({ method: 'GET', url: '/api/auth/me', headers: bearer(accessToken) });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toMatchObject({
      login,
      role: 'client',
      active: true,
      credit: 0,
      planId: null,
      subscription: null,
      paymentInfo: null,
      lang: 'uk',
      emailConfirmed: true,
    });
    expect(res.json()._id).toMatch(/^[0-9a-f-]{36}$/);
    expect(res.json().expDate).toMatch(/^\d{4}-\d{2}-\d{2}$/);
  });

  it('needs a token', async () => {
    const res = await t.app.inject({ method: 'GET', url: '/api/auth/me' });
    expect([res.statusCode, errorOf(res).code]).toEqual([401, 'UNAUTHORIZED']);
  });
});

describe('on https', () => {
  it('marks the refresh cookie Secure, and the sign-up binding Secure and __Host- (no subdomain can plant it)', async () => {
    const secure = await createTestApp({ publicUrl: 'https://leadrelay.example' });
    try {
      const created = await secure.app.inject({
        method: 'POST',
        url: '/api/auth/create-account',
        payload: { login: uniqueLogin(), password: PASSWORD, passwordConfirm: PASSWORD },
      });
      expect(created.cookies).toEqual([
        expect.objectContaining({ name: '__Host-confirm_browser', secure: true, path: '/', httpOnly: true }),
      ]);
      const user = await signUp(secure); // carries the __Host- cookie back, so it signs in
      const res = await secure.app.inject({
        method: 'POST',
        url: '/api/auth/login',
        payload: { login: user.login, password: PASSWORD },
      });
      expect(res.cookies.find((c) => c.name === COOKIE.refresh)?.secure).toBe(true);
      expect(secure.outbox[0]!.link).toMatch(/^https:\/\/leadrelay\.example\/confirm\?token=/);
    } finally {
      await secure.close();
    }
  });
});
