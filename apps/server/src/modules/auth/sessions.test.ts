import { COOKIE } from '@leadrelay/shared';
import { eq } from 'drizzle-orm';
import { decodeJwt, SignJWT } from 'jose';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sessions } from '../../db/schema';
import {
  bearer,
  cookieHeader,
  createTestApp,
  errorOf,
  logIn,
  refreshCookieOf,
  signUp,
  type TestApp,
} from '../../test/test-app';

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(() => t.close());

const refresh = (token?: string, url = '/api/auth/refresh') =>
  t.app.inject({ method: 'GET', url, headers: token ? cookieHeader(token) : {} });
const me = (accessToken: string) => t.app.inject({ method: 'GET', url: '/api/auth/me', headers: bearer(accessToken) });
const sessionIdOf = (refreshToken: string) => refreshToken.split('.')[0]!;
const cleared = (res: Awaited<ReturnType<typeof refresh>>) =>
  res.cookies.some((c) => c.name === COOKIE.refresh && c.value === '' && (c.maxAge === 0 || c.expires! < new Date()));

describe('refresh', () => {
  it('issues an access token and rotates the cookie on both paths', async () => {
    const user = await signUp(t);
    const first = await refresh(user.refreshToken);
    expect(first.statusCode).toBe(200);
    const next = refreshCookieOf(first)!;
    expect(next).not.toBe(user.refreshToken);
    expect(sessionIdOf(next)).toBe(sessionIdOf(user.refreshToken));
    expect((await me(first.json().accessToken)).statusCode).toBe(200);
    const second = await refresh(next, '/auth/refresh');
    expect(second.statusCode).toBe(200);
    expect(refreshCookieOf(second)).not.toBe(next);
  });

  it('answers 401 REFRESH_INVALID without a cookie or with garbage, and clears it', async () => {
    for (const token of [undefined, 'garbage', `${crypto.randomUUID()}.${'x'.repeat(40)}`, 'a.b.c']) {
      const res = await refresh(token);
      expect([res.statusCode, errorOf(res).code]).toEqual([401, 'REFRESH_INVALID']);
      expect(cleared(res)).toBe(true);
    }
  });

  it('accepts the just-replaced token within the grace window without rotating again', async () => {
    const user = await signUp(t);
    const a = await refresh(user.refreshToken);
    const b = await refresh(user.refreshToken);
    expect(a.statusCode).toBe(200);
    expect(b.statusCode).toBe(200);
    expect(refreshCookieOf(b)).toBeUndefined();
    // The rotated token from the first tab still works.
    expect((await refresh(refreshCookieOf(a))).statusCode).toBe(200);
  });

  it('rotates once when two tabs refresh at the same moment', async () => {
    const user = await signUp(t);
    const answers = await Promise.all([refresh(user.refreshToken), refresh(user.refreshToken)]);
    expect(answers.map((a) => a.statusCode)).toEqual([200, 200]);
    const cookies = answers.map(refreshCookieOf).filter(Boolean);
    expect(cookies).toHaveLength(1);
    expect((await refresh(cookies[0])).statusCode).toBe(200);
  });

  it('treats a replaced token after the grace window as theft: the whole session is revoked', async () => {
    const user = await signUp(t);
    const rotated = await refresh(user.refreshToken);
    const current = refreshCookieOf(rotated)!;
    await t.app.db
      .update(sessions)
      .set({ rotatedAt: new Date(Date.now() - 11_000) })
      .where(eq(sessions.id, sessionIdOf(current)));
    const stolen = await refresh(user.refreshToken);
    expect([stolen.statusCode, errorOf(stolen).code]).toEqual([401, 'REFRESH_INVALID']);
    const legit = await refresh(current);
    expect([legit.statusCode, errorOf(legit).code]).toEqual([401, 'REFRESH_INVALID']);
    expect((await me(rotated.json().accessToken)).statusCode).toBe(401);
  });

  it('treats a token two rotations old as reuse even at once', async () => {
    const user = await signUp(t);
    const one = refreshCookieOf(await refresh(user.refreshToken))!;
    const two = refreshCookieOf(await refresh(one))!;
    expect((await refresh(user.refreshToken)).statusCode).toBe(401);
    expect((await refresh(two)).statusCode).toBe(401);
  });

  it('refuses an expired session and clears the cookie', async () => {
    const user = await signUp(t);
    await t.app.db
      .update(sessions)
      .set({ expiresAt: new Date(Date.now() - 1000) })
      .where(eq(sessions.id, sessionIdOf(user.refreshToken)));
    const res = await refresh(user.refreshToken);
    expect([res.statusCode, errorOf(res).code]).toEqual([401, 'REFRESH_INVALID']);
    expect(cleared(res)).toBe(true);
  });
});

describe('logout', () => {
  it('revokes the session from the cookie and clears it', async () => {
    const user = await signUp(t);
    const res = await t.app.inject({
      method: 'POST',
      url: '/api/auth/logout',
      headers: cookieHeader(user.refreshToken),
    });
    expect([res.statusCode, res.json()]).toEqual([200, { success: true }]);
    expect(cleared(res)).toBe(true);
    expect((await refresh(user.refreshToken)).statusCode).toBe(401);
    expect((await me(user.accessToken)).statusCode).toBe(401);
  });

  it('revokes the session of an expired access token when there is no cookie', async () => {
    const user = await signUp(t);
    const claims = decodeJwt(user.accessToken);
    const expired = await new SignJWT({ login: claims.login, role: claims.role, sid: claims.sid })
      .setProtectedHeader({ alg: 'HS256' })
      .setSubject(claims.sub!)
      .setExpirationTime(Math.floor(Date.now() / 1000) - 3600)
      .sign(new TextEncoder().encode(t.app.deps.config.jwtSecret));
    const res = await t.app.inject({ method: 'POST', url: '/api/auth/logout', headers: bearer(expired) });
    expect(res.statusCode).toBe(200);
    expect((await refresh(user.refreshToken)).statusCode).toBe(401);
  });

  it('succeeds without any credentials', async () => {
    const res = await t.app.inject({ method: 'POST', url: '/api/auth/logout' });
    expect([res.statusCode, res.json()]).toEqual([200, { success: true }]);
  });
});

describe('access token checks', () => {
  const secretOf = () => new TextEncoder().encode(t.app.deps.config.jwtSecret);
  const b64 = (o: object) => Buffer.from(JSON.stringify(o)).toString('base64url');

  it('rejects forged, expired, alg-none, malformed and session-less tokens with 401 UNAUTHORIZED', async () => {
    const user = await signUp(t);
    const c = decodeJwt(user.accessToken);
    const claims = { login: c.login, role: c.role, sid: c.sid };
    const forged = await new SignJWT(claims)
      .setProtectedHeader({ alg: 'HS256' })
      .setSubject(c.sub!)
      .setExpirationTime('1h')
      .sign(new TextEncoder().encode('another-secret-another-secret-another-secret'));
    const expired = await new SignJWT(claims)
      .setProtectedHeader({ alg: 'HS256' })
      .setSubject(c.sub!)
      .setExpirationTime(Math.floor(Date.now() / 1000) - 10)
      .sign(secretOf());
    const none = `${b64({ alg: 'none', typ: 'JWT' })}.${b64({ ...claims, sub: c.sub, exp: c.exp })}.`;
    const admin = `${b64({ alg: 'HS256' })}.${b64({ ...claims, role: 'owner', sub: c.sub, exp: c.exp })}.${user.accessToken.split('.')[2]}`;
    const hs512 = await new SignJWT(claims)
      .setProtectedHeader({ alg: 'HS512' })
      .setSubject(c.sub!)
      .setExpirationTime('1h')
      .sign(secretOf());
    const noSession = await new SignJWT({ ...claims, sid: crypto.randomUUID() })
      .setProtectedHeader({ alg: 'HS256' })
      .setSubject(c.sub!)
      .setExpirationTime('1h')
      .sign(secretOf());
    for (const token of [forged, expired, none, admin, hs512, noSession, 'garbage', 'a.b.c', '']) {
      const res = await me(token);
      expect([res.statusCode, errorOf(res).code], token).toEqual([401, 'UNAUTHORIZED']);
    }
    const basic = await t.app.inject({ method: 'GET', url: '/api/auth/me', headers: { authorization: 'Basic abc' } });
    expect(basic.statusCode).toBe(401);
    expect((await me(user.accessToken)).statusCode).toBe(200);
  });
});

describe('session list', () => {
  it('lists the user sessions newest first and marks the current one', async () => {
    const user = await signUp(t);
    const second = await logIn(t, user.login);
    const res = await t.app.inject({ method: 'GET', url: '/api/auth/sessions', headers: bearer(second.accessToken) });
    expect(res.statusCode).toBe(200);
    const { data, total } = res.json();
    expect(total).toBe(2);
    expect(data.map((s: { id: string }) => s.id)).toEqual([
      sessionIdOf(second.refreshToken),
      sessionIdOf(user.refreshToken),
    ]);
    expect(data[0]).toMatchObject({ isCurrent: true, isRevoked: false, userAgent: 'lightMyRequest', ip: '127.0.0.1' });
    expect(data[1].isCurrent).toBe(false);
  });

  it('revokes one own session; another user, unknown and malformed ids are 404 SESSION_NOT_FOUND', async () => {
    const alice = await signUp(t);
    const aliceOther = await logIn(t, alice.login);
    const bob = await signUp(t);
    for (const id of [sessionIdOf(bob.refreshToken), crypto.randomUUID(), 'not-a-uuid']) {
      const res = await t.app.inject({
        method: 'DELETE',
        url: `/api/auth/sessions/${id}`,
        headers: bearer(alice.accessToken),
      });
      expect([res.statusCode, errorOf(res).code]).toEqual([404, 'SESSION_NOT_FOUND']);
    }
    expect((await me(bob.accessToken)).statusCode).toBe(200);
    const res = await t.app.inject({
      method: 'DELETE',
      url: `/api/auth/sessions/${sessionIdOf(aliceOther.refreshToken)}`,
      headers: bearer(alice.accessToken),
    });
    expect([res.statusCode, res.json()]).toEqual([200, { success: true }]);
    expect((await me(aliceOther.accessToken)).statusCode).toBe(401);
    expect((await refresh(aliceOther.refreshToken)).statusCode).toBe(401);
    expect((await me(alice.accessToken)).statusCode).toBe(200);
  });

  it('revoke-all keeps only the current session', async () => {
    const user = await signUp(t);
    const b = await logIn(t, user.login);
    const c = await logIn(t, user.login);
    const res = await t.app.inject({
      method: 'POST',
      url: '/api/auth/sessions/revoke-all',
      headers: bearer(b.accessToken),
    });
    expect([res.statusCode, res.json()]).toEqual([200, { success: true }]);
    expect((await me(b.accessToken)).statusCode).toBe(200);
    expect((await me(user.accessToken)).statusCode).toBe(401);
    expect((await refresh(c.refreshToken)).statusCode).toBe(401);
    const list = await t.app.inject({ method: 'GET', url: '/api/auth/sessions', headers: bearer(b.accessToken) });
    const live = list.json().data.filter((s: { isRevoked: boolean }) => !s.isRevoked);
    expect(live.map((s: { id: string }) => s.id)).toEqual([sessionIdOf(b.refreshToken)]);
  });

  it('needs a signed-in user', async () => {
    for (const [method, url] of [
      ['GET', '/api/auth/sessions'],
      ['DELETE', `/api/auth/sessions/${crypto.randomUUID()}`],
      ['POST', '/api/auth/sessions/revoke-all'],
    ] as const) {
      const res = await t.app.inject({ method, url });
      expect([res.statusCode, errorOf(res).code]).toEqual([401, 'UNAUTHORIZED']);
    }
  });
});
