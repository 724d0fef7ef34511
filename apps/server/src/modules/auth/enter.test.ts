// "Enter as a user" through /enter (issue 27, login CSRF): the link carries a one-time code that
// lives a minute and signs in only the staff member who asked for it, in their own browser.
import { eq } from 'drizzle-orm';
import { decodeJwt } from 'jose';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sessions, users } from '../../db/schema';
import { accountIdOf } from '../../test/routing-fixtures';
import {
  bearer,
  callAs,
  cookieHeader,
  createTestApp,
  expectError,
  type SignedInUser,
  signUp,
  type TestApp,
} from '../../test/test-app';

let t: TestApp;
let operator: SignedInUser;
let otherOperator: SignedInUser;
/** Someone who got hold of a link: signed in to their own account in their own browser. */
let bystander: SignedInUser;
beforeAll(async () => {
  t = await createTestApp();
  operator = await signUp(t);
  otherOperator = await signUp(t);
  for (const u of [operator, otherOperator]) {
    await t.app.db.update(users).set({ role: 'support' }).where(eq(users.login, u.login));
  }
  bystander = await signUp(t);
});
afterAll(() => t.close());

/** The code of a fresh /enter link the operator asked for, into a new client account. */
async function codeFor(asker: SignedInUser = operator): Promise<{ code: string; target: SignedInUser }> {
  const target = await signUp(t);
  const res = await callAs(t, 'GET', `/api/super/users/enter?id=${await accountIdOf(t.app.db, target.login)}`, asker);
  expect(res.statusCode).toBe(200);
  return { code: res.json().code, target };
}

const exchange = (code: unknown, headers: Record<string, string> = {}) =>
  t.app.inject({ method: 'POST', url: '/api/auth/enter', payload: { code }, headers });

describe('/enter codes', () => {
  it('sign the operator into the account, in the browser that asked, once', async () => {
    const { code, target } = await codeFor();
    expect(code).not.toMatch(/^eyJ/); // not a token that signs in by itself
    const entered = await exchange(code, cookieHeader(operator.refreshToken));
    expect(entered.statusCode).toBe(200);
    expect(entered.cookies).toHaveLength(0);
    const token = entered.json().accessToken;
    expect(decodeJwt(token)).toMatchObject({ login: target.login, imp: operator.login });
    expect((await t.app.inject({ method: 'GET', url: '/api/auth/me', headers: bearer(token) })).json().login).toBe(
      target.login,
    );
    // Used: the same link again, even in the same browser, signs nobody in.
    expectError(await exchange(code, cookieHeader(operator.refreshToken)), 400, 'TOKEN_INVALID');
  });

  it('also take the operator’s own access token as proof (an API client without cookies)', async () => {
    const { code, target } = await codeFor();
    const entered = await exchange(code, bearer(operator.accessToken));
    expect(entered.statusCode).toBe(200);
    expect(decodeJwt(entered.json().accessToken).login).toBe(target.login);
  });

  it('refuse a forwarded or planted link: another browser, another person, another operator', async () => {
    const { code } = await codeFor();
    expectError(await exchange(code), 403, 'ENTER_OTHER_BROWSER');
    expectError(await exchange(code, cookieHeader(bystander.refreshToken)), 403, 'ENTER_OTHER_BROWSER');
    expectError(await exchange(code, bearer(bystander.accessToken)), 403, 'ENTER_OTHER_BROWSER');
    expectError(await exchange(code, cookieHeader(otherOperator.refreshToken)), 403, 'ENTER_OTHER_BROWSER');
    // A cookie that only names the operator's session (a wrong secret) is no proof either.
    const [sessionId] = operator.refreshToken.split('.');
    expectError(await exchange(code, cookieHeader(`${sessionId}.${'x'.repeat(43)}`)), 403, 'ENTER_OTHER_BROWSER');
    // None of that used the code up: the operator still enters with it.
    expect((await exchange(code, cookieHeader(operator.refreshToken))).statusCode).toBe(200);
  });

  it('expire after a minute, and stop working when the operator signs out', async () => {
    const { code } = await codeFor();
    const [sessionId] = code.split('.');
    await t.app.db
      .update(sessions)
      .set({ expiresAt: new Date(Date.now() - 1000) })
      .where(eq(sessions.id, sessionId!));
    expectError(await exchange(code, cookieHeader(operator.refreshToken)), 400, 'TOKEN_INVALID');

    const signedOut = await signUp(t);
    await t.app.db.update(users).set({ role: 'admin' }).where(eq(users.login, signedOut.login));
    const fresh = await codeFor(signedOut);
    await t.app.inject({ method: 'POST', url: '/api/auth/logout', headers: cookieHeader(signedOut.refreshToken) });
    expectError(await exchange(fresh.code, cookieHeader(signedOut.refreshToken)), 403, 'ENTER_OTHER_BROWSER');
  });

  it('answer hostile codes with a clear 4xx, never a session', async () => {
    const { code } = await codeFor();
    const [sessionId, secret] = code.split('.');
    const proof = cookieHeader(operator.refreshToken);
    for (const hostile of [
      'nope',
      `${sessionId}.${'A'.repeat(43)}`, // the right session, a guessed secret
      `${sessionId}.${secret}x`,
      `${crypto.randomUUID()}.${secret}`,
      operator.refreshToken, // a refresh token is no code
      `../${sessionId}.${secret}`,
    ]) {
      expectError(await exchange(hostile, proof), 400, 'TOKEN_INVALID');
    }
    // An access token, what old links carried, is refused as well (too long to be a code).
    for (const bad of [
      '',
      'x'.repeat(5000),
      `${sessionId}.${secret}\u0000`,
      operator.accessToken,
      42,
      null,
      { code },
    ]) {
      const res = await exchange(bad, proof);
      expect(res.statusCode).toBe(400);
    }
    const raw = await t.app.inject({ method: 'POST', url: '/api/auth/enter', payload: 'code', headers: proof });
    expect(raw.statusCode).toBeGreaterThanOrEqual(400);
    expect(raw.statusCode).toBeLessThan(500);
    // Presented as a refresh cookie, the code gives nothing either (entered sessions never refresh).
    expectError(
      await t.app.inject({ method: 'GET', url: '/api/auth/refresh', headers: cookieHeader(code) }),
      401,
      'REFRESH_INVALID',
    );
    // And the real one still works after all that.
    expect((await exchange(code, proof)).statusCode).toBe(200);
  });

  it('are only made for staff, and only into client accounts', async () => {
    const target = await signUp(t);
    const id = await accountIdOf(t.app.db, target.login);
    expectError(await callAs(t, 'GET', `/api/super/users/enter?id=${id}`, bystander), 403, 'FORBIDDEN');
    expectError(await callAs(t, 'GET', `/api/super/users/enter?id=${id}`, null), 401, 'UNAUTHORIZED');
  });
});
