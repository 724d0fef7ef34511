import { type GraphEmulator, startGraphEmulator } from '@leadrelay/connectors/testing';
import { COOKIE } from '@leadrelay/shared';
import { count, eq } from 'drizzle-orm';
import { decodeJwt } from 'jose';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { sessions, users } from '../../db/schema';
import {
  bearer,
  createTestApp,
  expectError,
  logIn,
  PASSWORD,
  signUp,
  type TestApp,
  uniqueLogin,
} from '../../test/test-app';

const PROMO_HOST = 'promo.leadrelay.test';
const PROMO_APP_ID = '555000555';
const IP_FAILURES = 3;

let emu: GraphEmulator;
let t: TestApp;
let bare: TestApp;
let ipCounter = 0;
/** Every test its own client address, so the per-IP throttle of one test does not reach another. */
let ip: string;

beforeAll(async () => {
  emu = await startGraphEmulator();
  t = await createTestApp({
    demoDays: 7,
    allowPrivateDestinations: true,
    throttle: { ipFailures: IP_FAILURES },
    crm: { facebook: { appId: emu.appId, appSecret: emu.appSecret, graphUrl: emu.graphUrl, dialogUrl: emu.dialogUrl } },
    signinAppIdsByHost: { [PROMO_HOST]: PROMO_APP_ID },
  });
  bare = await createTestApp();
});
afterAll(async () => {
  await t?.close();
  await bare?.close();
  await emu?.close();
});
beforeEach(() => {
  emu.reset();
  ip = `10.9.${Math.floor(++ipCounter / 250)}.${ipCounter % 250}`;
});

const signInFb = (payload: unknown, app: TestApp = t, headers: Record<string, string> = {}) =>
  app.app.inject({ method: 'POST', url: '/api/auth/facebook', payload: payload as object, remoteAddress: ip, headers });

const userCount = async () => Number((await t.app.db.select({ n: count() }).from(users))[0]!.n);
const userByLogin = async (login: string) => (await t.app.db.select().from(users).where(eq(users.login, login)))[0];

/** The login dialog as the browser goes through it when the SDK is blocked: a code for redirectUri. */
async function dialogCode(redirectUri: string): Promise<string> {
  const config = (await t.app.inject({ method: 'GET', url: '/api/auth/facebook/config' })).json();
  const url = new URL(config.dialogUrl);
  url.searchParams.set('redirect_uri', redirectUri);
  url.searchParams.set('state', 'st-1');
  const res = await fetch(url, { redirect: 'manual' });
  const back = new URL(res.headers.get('location') ?? '');
  expect(back.searchParams.get('state')).toBe('st-1');
  return back.searchParams.get('code') ?? '';
}

describe('GET /api/auth/facebook/config', () => {
  it('gives the app id and SDK version, another app id on its own host, and the dialog of our app', async () => {
    const res = await t.app.inject({ method: 'GET', url: '/api/auth/facebook/config' });
    expect(res.statusCode).toBe(200);
    const body = res.json();
    // The emulator's dialog is not Facebook's, so the page will not load the JS SDK for it.
    expect(body).toMatchObject({ appId: emu.appId, version: 'v20.0', sdk: false });
    const dialog = new URL(body.dialogUrl);
    expect(dialog.origin + dialog.pathname).toBe(emu.dialogUrl);
    expect(Object.fromEntries(dialog.searchParams)).toEqual({
      client_id: emu.appId,
      scope: 'email,public_profile',
      response_type: 'code',
    });
    expect(JSON.stringify(body)).not.toContain(emu.appSecret);

    const promo = await t.app.inject({
      method: 'GET',
      url: '/api/auth/facebook/config',
      headers: { host: PROMO_HOST },
    });
    expect(promo.json()).toMatchObject({ appId: PROMO_APP_ID, version: 'v20.0' });
    expect(new URL(promo.json().dialogUrl).searchParams.get('client_id')).toBe(emu.appId);
  });

  it('takes a Host named like a built-in member (constructor, toString…) as a host it does not know', async () => {
    const names = [...Object.getOwnPropertyNames(Object.prototype), ...Object.getOwnPropertyNames(Function.prototype)];
    for (const host of names.filter((n) => /^[A-Za-z0-9_]+$/.test(n))) {
      const res = await t.app.inject({ method: 'GET', url: '/api/auth/facebook/config', headers: { host } });
      expect(res.statusCode, host).toBe(200);
      expect(res.json().appId, host).toBe(emu.appId);
    }
  });

  it('answers appId null when Facebook is not set up', async () => {
    const res = await bare.app.inject({ method: 'GET', url: '/api/auth/facebook/config' });
    expect(res.json()).toEqual({ appId: null, version: 'v20.0', dialogUrl: null, sdk: false });
  });
});

describe('POST /api/auth/facebook', () => {
  it('signs an existing account in, like login: access token and refresh cookie', async () => {
    const { login } = await signUp(t);
    emu.user.email = login;
    const before = await userCount();
    const res = await signInFb({ accessToken: emu.userToken() });
    expect(res.statusCode).toBe(200);
    const user = await userByLogin(login);
    const payload = decodeJwt(res.json().accessToken);
    expect(payload).toMatchObject({ sub: user!.id, login, role: 'client' });
    const cookie = res.cookies.find((c) => c.name === COOKIE.refresh);
    expect(cookie).toMatchObject({ httpOnly: true, path: '/' });
    const [session] = await t.app.db
      .select()
      .from(sessions)
      .where(eq(sessions.id, String(payload.sid)));
    expect(session?.userId).toBe(user!.id);
    // Nothing new was created and the password still works.
    expect(await userCount()).toBe(before);
    await logIn(t, login);
    const me = await t.app.inject({ method: 'GET', url: '/api/auth/me', headers: bearer(res.json().accessToken) });
    expect(me.json()).toMatchObject({ login, emailConfirmed: true });
  });

  it('creates a confirmed demo account for a new e-mail and signs it in', async () => {
    const login = uniqueLogin('Fb');
    emu.user.email = login.toUpperCase();
    const res = await signInFb({ accessToken: emu.userToken(), lang: 'en' });
    expect(res.statusCode).toBe(200);
    const row = await userByLogin(login.toLowerCase());
    expect(row).toMatchObject({ role: 'client', active: true, planId: null, lang: 'en' });
    expect(row!.emailConfirmedAt).toBeInstanceOf(Date);
    const today = new Date();
    const in7 = new Date(Date.UTC(today.getUTCFullYear(), today.getUTCMonth(), today.getUTCDate() + 7));
    expect(row!.expDate).toBe(in7.toISOString().slice(0, 10));
    expect(row!.passwordHash).toMatch(/^scrypt\$/);
    expect(decodeJwt(res.json().accessToken).sub).toBe(row!.id);
    expect(res.cookies.some((c) => c.name === COOKIE.refresh)).toBe(true);

    // A second sign-in finds the same account.
    const again = await signInFb({ accessToken: emu.userToken() });
    expect(decodeJwt(again.json().accessToken).sub).toBe(row!.id);
    // They can set a password through recovery; none works until then.
    const guess = await t.app.inject({
      method: 'POST',
      url: '/api/auth/login',
      payload: { login, password: PASSWORD },
    });
    expect(guess.statusCode).toBe(401);
  });

  it('takes over an unconfirmed sign-up of the same e-mail: confirmed, the squatter password dropped', async () => {
    const login = uniqueLogin();
    const created = await t.app.inject({
      method: 'POST',
      url: '/api/auth/create-account',
      payload: { login, password: PASSWORD, passwordConfirm: PASSWORD },
    });
    expect(created.statusCode).toBe(201);
    emu.user.email = login;
    const before = await userCount();
    const res = await signInFb({ accessToken: emu.userToken() });
    expect(res.statusCode).toBe(200);
    expect(await userCount()).toBe(before);
    expect((await userByLogin(login))!.emailConfirmedAt).toBeInstanceOf(Date);
    const old = await t.app.inject({ method: 'POST', url: '/api/auth/login', payload: { login, password: PASSWORD } });
    expect(old.statusCode).toBe(401);
  });

  it('signs a deactivated account in as login does (the active gate is the admin area’s)', async () => {
    const { login } = await signUp(t);
    await t.app.db.update(users).set({ active: false }).where(eq(users.login, login));
    emu.user.email = login;
    const byPassword = await t.app.inject({
      method: 'POST',
      url: '/api/auth/login',
      payload: { login, password: PASSWORD },
    });
    const byFacebook = await signInFb({ accessToken: emu.userToken() });
    expect([byFacebook.statusCode, byPassword.statusCode]).toEqual([200, 200]);
  });

  it('signs in through the redirect flow with the dialog code', async () => {
    const login = uniqueLogin();
    emu.user.email = login;
    const redirectUri = 'http://app.test/signin';
    const code = await dialogCode(redirectUri);
    const res = await signInFb({ code, redirectUri });
    expect(res.statusCode).toBe(200);
    expect(decodeJwt(res.json().accessToken).login).toBe(login);
    // A code works once.
    expectError(await signInFb({ code, redirectUri }), 400, 'OAUTH_EXCHANGE_FAILED');
  });

  it('refuses a token Facebook issued to another app, and creates nothing', async () => {
    emu.user.email = uniqueLogin();
    const before = await userCount();
    const res = await signInFb({ accessToken: emu.userToken({ appId: '999000999' }) });
    expectError(res, 400, 'OAUTH_EXCHANGE_FAILED');
    expect(res.cookies.some((c) => c.name === COOKIE.refresh)).toBe(false);
    expect(await userCount()).toBe(before);
  });

  it('accepts the token of the app the page uses on its own host', async () => {
    emu.user.email = uniqueLogin();
    const token = emu.userToken({ appId: PROMO_APP_ID });
    // Not on another host …
    expectError(await signInFb({ accessToken: token }), 400, 'OAUTH_EXCHANGE_FAILED');
    // … but on the host whose SDK uses that app.
    const res = await signInFb({ accessToken: token }, t, { host: PROMO_HOST });
    expect(res.statusCode).toBe(200);
  });

  it('refuses an unknown or expired token', async () => {
    expectError(await signInFb({ accessToken: 'EAAforged' }), 400, 'OAUTH_EXCHANGE_FAILED');
    const token = emu.userToken();
    emu.expireUserTokens();
    expectError(await signInFb({ accessToken: token }), 400, 'OAUTH_EXCHANGE_FAILED');
  });

  it('asks for the e-mail when Facebook gives none, and creates nothing', async () => {
    const before = await userCount();
    const declined = await signInFb({ accessToken: emu.userToken({ scopes: ['public_profile'] }) });
    expectError(declined, 400, 'FACEBOOK_EMAIL_REQUIRED');
    emu.user.isEmailVerified = false;
    expectError(await signInFb({ accessToken: emu.userToken() }), 400, 'FACEBOOK_EMAIL_REQUIRED');
    expect(await userCount()).toBe(before);
  });

  it('answers OAUTH_NOT_CONFIGURED when Facebook is not set up', async () => {
    expectError(await signInFb({ accessToken: 'EAAanything' }, bare), 400, 'OAUTH_NOT_CONFIGURED');
  });

  it('throttles refused tokens per address like failed logins', async () => {
    for (let i = 0; i < IP_FAILURES; i++) {
      expectError(await signInFb({ accessToken: `EAAforged${i}` }), 400, 'OAUTH_EXCHANGE_FAILED');
    }
    emu.user.email = uniqueLogin();
    const res = await signInFb({ accessToken: emu.userToken() });
    expectError(res, 429, 'TOO_MANY_REQUESTS');
    expect(Number(res.headers['retry-after'])).toBeGreaterThan(0);
  });

  it('says Facebook is unavailable on a Graph outage, without counting it as a failure', async () => {
    emu.user.email = uniqueLogin();
    emu.setFault({ status: 503, times: IP_FAILURES + 1 });
    for (let i = 0; i <= IP_FAILURES; i++) {
      expectError(await signInFb({ accessToken: emu.userToken() }), 400, 'CONNECTION_FAILED');
    }
    emu.setFault(null);
    expect((await signInFb({ accessToken: emu.userToken() })).statusCode).toBe(200);
  });

  it('validates the body', async () => {
    expectError(await signInFb({}), 400, 'REQUIRED');
    expectError(await signInFb({ code: 'x', redirectUri: 'not a url' }), 400, 'VALIDATION_ERROR');
    expectError(await signInFb({ accessToken: 'x'.repeat(1025) }), 400, 'MAX_LENGTH_1024');
  });
});
