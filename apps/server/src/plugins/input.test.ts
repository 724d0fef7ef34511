// The input boundary (plugins/input.ts): hostile bodies, parameters and queries get a 4xx with a
// key, never a 500; a lead with text PostgreSQL cannot store is cleaned, not lost.
import { MAX_BODY_DEPTH } from '@leadrelay/shared';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { storableText, unstorableTextAt } from '../lib/storable-text';
import { accountIdOf, createSource } from '../test/routing-fixtures';
import { callAs, createTestApp, expectError, type SignedInUser, signUp, type TestApp } from '../test/test-app';
import { nestsDeeperThan } from './input';

let t: TestApp;
let user: SignedInUser;
let hookUrl: string;
beforeAll(async () => {
  t = await createTestApp();
  user = await signUp(t);
  hookUrl = (await createSource(t.app.db, await accountIdOf(t.app.db, user.login))).url;
});
afterAll(() => t.close());

const post = (url: string, payload: string, contentType: string) =>
  t.app.inject({ method: 'POST', url, payload, headers: { 'content-type': contentType } });
/** The body as stored and shown in the lead log (GET /api/hook/:id). */
const storedBody = async (hookId: string) => {
  const res = await t.app.inject({
    method: 'GET',
    url: `/api/hook/${hookId}`,
    headers: { authorization: `Bearer ${user.accessToken}` },
  });
  return res.json().request.body as Record<string, unknown>;
};

describe('nesting depth', () => {
  it('refuses a JSON body nested deeper than the limit, on the public webhook and the API', async () => {
    const deep = `${'['.repeat(100_000)}${']'.repeat(100_000)}`;
    expectError(await post(hookUrl, deep, 'application/json'), 400, 'BODY_TOO_DEEP');
    const deepObject = `${'{"a":'.repeat(5_000)}1${'}'.repeat(5_000)}`;
    expectError(
      await t.app.inject({
        method: 'POST',
        url: '/api/integrations',
        payload: deepObject,
        headers: { 'content-type': 'application/json', authorization: `Bearer ${user.accessToken}` },
      }),
      400,
      'BODY_TOO_DEEP',
    );
  });

  it('accepts a lead nested up to the limit', async () => {
    let body: unknown = 'x';
    for (let i = 0; i < MAX_BODY_DEPTH; i++) body = { a: body };
    const res = await post(hookUrl, JSON.stringify(body), 'application/json');
    expect(res.statusCode).toBe(202);
  });

  it('measures depth without recursion', () => {
    let value: unknown = 1;
    for (let i = 0; i < 200_000; i++) value = [value];
    expect(nestsDeeperThan(value)).toBe(true);
    expect(nestsDeeperThan({ a: [{ b: 1 }] }, 3)).toBe(false);
    expect(nestsDeeperThan({ a: [{ b: {} }] }, 3)).toBe(true);
  });
});

describe('multipart', () => {
  it.each([
    ['no boundary', 'multipart/form-data', 'x'],
    [
      'a truncated part',
      'multipart/form-data; boundary=zz',
      '--zz\r\nContent-Disposition: form-data; name="a"\r\n\r\nb',
    ],
    ['no part at all', 'multipart/form-data; boundary=zz', 'garbage'],
  ])('answers a malformed body (%s) with INVALID_MULTIPART', async (_name, contentType, payload) => {
    expectError(await post(hookUrl, payload, contentType), 400, 'INVALID_MULTIPART');
  });
});

describe('text PostgreSQL cannot store', () => {
  it('rejects NUL in a path parameter, a query and an API body, naming the field', async () => {
    const inParam = await t.app.inject({ method: 'POST', url: '/api/hooks/in/a%00b', payload: {} });
    expectError(inParam, 400, 'INVALID_CHARACTERS');
    expect(inParam.json().errors).toEqual([{ field: 'token', code: 'INVALID_CHARACTERS' }]);
    expectError(await callAs(t, 'GET', '/api/hook?page=1&limit=10&search=a%00b', user), 400, 'INVALID_CHARACTERS');
    const inBody = await callAs(t, 'POST', '/api/integrations', user, { name: 'Form\u0000', type: 'webhook' });
    expectError(inBody, 400, 'INVALID_CHARACTERS');
    expect(inBody.json().errors).toEqual([{ field: 'name', code: 'INVALID_CHARACTERS' }]);
  });

  it('rejects a lone surrogate in an API body and writes nothing', async () => {
    const before = (await callAs(t, 'GET', '/api/integrations', user)).json();
    expectError(
      await callAs(t, 'POST', '/api/integrations', user, { name: 'Form \ud800', type: 'webhook' }),
      400,
      'INVALID_CHARACTERS',
    );
    expect((await callAs(t, 'GET', '/api/integrations', user)).json()).toEqual(before);
  });

  it('keeps a webhook lead with a NUL or a lone surrogate, cleaned', async () => {
    const json = await post(
      hookUrl,
      '{"name":"Ol\\u0000ena \\ud800","\\udc00phone":"+380501234567"}',
      'application/json',
    );
    expect(json.statusCode).toBe(202);
    expect(await storedBody(json.json().hookId)).toEqual({ name: 'Olena \ufffd', '\ufffdphone': '+380501234567' });

    const form = await post(hookUrl, 'name=Iv%00an', 'application/x-www-form-urlencoded');
    expect(form.statusCode).toBe(202);
    expect((await storedBody(form.json().hookId)).name).toBe('Ivan');

    const boundary = 'b0undary';
    const multipart = await post(
      hookUrl,
      `--${boundary}\r\nContent-Disposition: form-data; name="name"\r\n\r\nPetro\u0000\r\n--${boundary}--\r\n`,
      `multipart/form-data; boundary=${boundary}`,
    );
    expect(multipart.statusCode).toBe(202);
    expect((await storedBody(multipart.json().hookId)).name).toBe('Petro');
  });

  it('finds and cleans keys and values at any depth', () => {
    expect(unstorableTextAt({ a: [{ b: 'ok' }, { c: 'x\u0000' }] })).toBe('a.1.c');
    expect(unstorableTextAt({ a: { '\ud83d': 1 } })).toBe('a.\ufffd');
    expect(unstorableTextAt({ a: '😀 ok' })).toBeNull();
    const clean = { a: ['😀'] };
    expect(storableText(clean)).toBe(clean);
  });
});
