import { API_BODY_LIMIT_BYTES } from '@leadrelay/shared';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { AppError } from '../lib/app-error';
import { createTestApp, errorOf, PASSWORD, type TestApp } from '../test/test-app';

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp({
    register(app) {
      app.get('/api/test/boom', { config: { access: 'public' } }, async () => {
        throw new Error('secret internals at /srv/db');
      });
      app.get('/api/test/app-error', { config: { access: 'public' } }, async () => {
        throw new AppError('USER_NOT_FOUND', { message: 'No such user' });
      });
    },
  });
});
afterAll(() => t.close());

const raw = (payload: string, contentType = 'application/json') =>
  t.app.inject({ method: 'POST', url: '/api/auth/login', payload, headers: { 'content-type': contentType } });

describe('error answers', () => {
  it('answers malformed JSON with 400 INVALID_JSON', async () => {
    for (const payload of ['{"login":', '{bad json}', '']) {
      const res = await raw(payload);
      expect([res.statusCode, errorOf(res).code], payload).toEqual([400, 'INVALID_JSON']);
    }
  });

  it('answers a body over the limit with 413 PAYLOAD_TOO_LARGE', async () => {
    const big = JSON.stringify({ login: 'a@b.co', password: 'x'.repeat(API_BODY_LIMIT_BYTES) });
    const res = await raw(big);
    expect([res.statusCode, errorOf(res).code]).toEqual([413, 'PAYLOAD_TOO_LARGE']);
  });

  it('answers other content types with 415 UNSUPPORTED_MEDIA_TYPE', async () => {
    for (const type of ['text/plain', 'application/x-www-form-urlencoded', 'application/xml']) {
      const res = await raw('login=a@b.co', type);
      expect([res.statusCode, errorOf(res).code], type).toEqual([415, 'UNSUPPORTED_MEDIA_TYPE']);
    }
  });

  it('answers a missing body with REQUIRED, and a non-object body with INVALID_TYPE', async () => {
    const none = await t.app.inject({ method: 'POST', url: '/api/auth/login' });
    expect([none.statusCode, errorOf(none).code]).toEqual([400, 'REQUIRED']);
    const array = await raw('[1,2]');
    expect([array.statusCode, errorOf(array).code]).toEqual([400, 'INVALID_TYPE']);
    const nul = await raw('null');
    expect(nul.statusCode).toBe(400);
  });

  it('answers an unknown /api route with 404 NOT_FOUND JSON', async () => {
    for (const [method, url] of [
      ['GET', '/api/nope'],
      ['POST', '/api/auth/nope'],
      ['DELETE', '/api/account'],
    ] as const) {
      const res = await t.app.inject({ method, url });
      expect([res.statusCode, errorOf(res).code], url).toEqual([404, 'NOT_FOUND']);
      expect(res.headers['content-type']).toMatch(/application\/json/);
    }
  });

  it('answers a path the router refuses in our shape, without echoing it: a too-long id 404, a bad escape 400', async () => {
    const long = 'x'.repeat(3000);
    for (const [method, url] of [
      ['POST', `/api/hook/${long}/reaction`],
      ['POST', `/api/amocrm/events/${crypto.randomUUID()}/${long}`],
      ['POST', `/api/telegram/webhook/${long}`],
    ] as const) {
      const res = await t.app.inject({ method, url, payload: {} });
      expect([res.statusCode, errorOf(res).code], url.slice(0, 40)).toEqual([404, 'NOT_FOUND']);
      expect(res.body).not.toContain('xxxx');
    }
    const bad = await t.app.inject({ method: 'GET', url: '/api/hook/%E0%A4%A' });
    expect([bad.statusCode, errorOf(bad).code]).toEqual([400, 'VALIDATION_ERROR']);
  });

  it('answers an unexpected failure with 500 INTERNAL_ERROR and no internals', async () => {
    const res = await t.app.inject({ method: 'GET', url: '/api/test/boom' });
    expect(res.json()).toEqual({ statusCode: 500, code: 'INTERNAL_ERROR', message: 'Something went wrong' });
    expect(res.body).not.toMatch(/secret|srv/);
  });

  it('maps an AppError to its status and message', async () => {
    const res = await t.app.inject({ method: 'GET', url: '/api/test/app-error' });
    expect(res.json()).toEqual({ statusCode: 404, code: 'USER_NOT_FOUND', message: 'No such user' });
  });

  it('never answers bad input with a 500', async () => {
    const bodies = [
      '{"login":null,"password":null}',
      '{"login":{},"password":[]}',
      '"text"',
      '123',
      'true',
      '{"__proto__":{"x":1}}',
    ];
    for (const url of [
      '/api/auth/login',
      '/api/auth/create-account',
      '/api/auth/confirm-email',
      '/api/auth/forgot-password',
    ]) {
      for (const payload of bodies) {
        const res = await t.app.inject({
          method: 'POST',
          url,
          payload,
          headers: { 'content-type': 'application/json' },
        });
        expect(res.statusCode, `${url} ${payload}`).toBeGreaterThanOrEqual(400);
        expect(res.statusCode, `${url} ${payload}`).toBeLessThan(500);
      }
    }
    const ok = await t.app.inject({
      method: 'POST',
      url: '/api/auth/login',
      payload: { login: 'a@b.co', password: PASSWORD },
    });
    expect(ok.statusCode).toBe(401);
  });

  it('serves health and the OpenAPI UI publicly', async () => {
    expect((await t.app.inject({ method: 'GET', url: '/api/health' })).json()).toEqual({ ok: true });
    const docs = await t.app.inject({ method: 'GET', url: '/api/docs/json' });
    expect(docs.statusCode).toBe(200);
    expect(Object.keys(docs.json().paths)).toContain('/api/auth/login');
    expect((await t.app.inject({ method: 'GET', url: '/api/docs' })).statusCode).toBeLessThan(400);
  });
});
