import { Writable } from 'node:stream';
import { API_KEY_PATTERN, API_KEYS_PER_ACCOUNT } from '@leadrelay/shared';
import { and, eq } from 'drizzle-orm';
import type { LightMyRequestResponse } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { apiKeys, auditLog, users } from '../../db/schema';
import { loggerOptions } from '../../logger';
import {
  callAs,
  cookieHeader,
  createTestApp,
  expectError,
  type Method,
  PASSWORD,
  type SignedInUser,
  signUp,
  signUpStaff,
  type TestApp,
} from '../../test/test-app';
import { authenticateApiKey } from '.';

// The file's app counts at most RATE requests a minute per key (tests make their own keys).
const RATE = 12;
let t: TestApp;
let alice: SignedInUser;
let bob: SignedInUser;
let admin: SignedInUser;
const logLines: string[] = [];
const madeKeys: string[] = [];

beforeAll(async () => {
  const stream = new Writable({
    write(chunk, _encoding, done) {
      logLines.push(String(chunk));
      done();
    },
  });
  const { transport: _pretty, ...options } = loggerOptions('trace') as Record<string, unknown>;
  t = await createTestApp({ logger: { ...options, stream } as never, rateLimits: { apiKey: RATE } });
  alice = await signUp(t);
  bob = await signUp(t);
  admin = await signUpStaff(t);
});
afterAll(() => t.close());

let counter = 0;
async function makeKey(user: SignedInUser, scope: 'read' | 'write', name = `key ${++counter}`) {
  const res = await callAs(t, 'POST', '/api/account/api-keys', user, { name, scope });
  expect(res.statusCode, res.body).toBe(201);
  const body = res.json() as { id: string; key: string; name: string; prefix: string; scope: string };
  madeKeys.push(body.key);
  return body;
}

/** One call with `Authorization: <header>` as given. */
const withHeader = (method: Method, url: string, authorization: string, payload?: object) =>
  t.app.inject({ method, url, headers: { authorization }, ...(payload ? { payload } : {}) });
const withKey = (method: Method, url: string, key: string, payload?: object) =>
  withHeader(method, url, `Bearer ${key}`, payload);

const listOf = async (user: SignedInUser) => (await callAs(t, 'GET', '/api/account/api-keys', user)).json();

describe('making, listing and revoking keys', () => {
  it('answers the key in full once; the list and the database never hold it', async () => {
    const made = await makeKey(alice, 'read', 'CRM sync');
    expect(made.key).toMatch(API_KEY_PATTERN);
    expect(made.key.startsWith(`${made.prefix}_`)).toBe(true);
    expect(made).toMatchObject({ name: 'CRM sync', scope: 'read', lastUsedAt: null });

    const list = await callAs(t, 'GET', '/api/account/api-keys', alice);
    expect(list.statusCode).toBe(200);
    expect(list.json()).toMatchObject({ max: API_KEYS_PER_ACCOUNT });
    expect(list.json().data).toContainEqual({
      id: made.id,
      name: 'CRM sync',
      scope: 'read',
      prefix: made.prefix,
      createdAt: expect.any(String),
      lastUsedAt: null,
    });
    const secret = made.key.slice(made.prefix.length + 1);
    expect(list.body).not.toContain(secret);
    const [row] = await t.app.db.select().from(apiKeys).where(eq(apiKeys.id, made.id));
    expect(JSON.stringify(row)).not.toContain(secret);
  });

  it('trims the name and refuses a bad name or scope with the field key', async () => {
    const trimmed = await makeKey(alice, 'write', '  Zapier  ');
    expect(trimmed.name).toBe('Zapier');
    const bad = async (body: object) => (await callAs(t, 'POST', '/api/account/api-keys', alice, body)).json();
    expect((await bad({ name: '   ', scope: 'read' })).errors).toEqual([{ field: 'name', code: 'REQUIRED' }]);
    expect((await bad({ name: 'x'.repeat(61), scope: 'read' })).errors).toEqual([
      { field: 'name', code: 'MAX_LENGTH_60' },
    ]);
    expect((await bad({ name: 'tab\there', scope: 'read' })).errors).toEqual([
      { field: 'name', code: 'INVALID_CHARACTERS' },
    ]);
    expect((await bad({ name: 'ok', scope: 'admin' })).errors).toEqual([{ field: 'scope', code: 'VALIDATION_ERROR' }]);
    expect((await bad({ name: 'ok' })).errors).toEqual([{ field: 'scope', code: 'REQUIRED' }]);
    expect((await bad({ name: 'ok', scope: 'read', accountId: 'x' })).code).toBe('VALIDATION_ERROR');
    expect((await listOf(alice)).data.some((k: { name: string }) => k.name === 'ok')).toBe(false);
  });

  it('keeps names unique among live keys; a revoked key frees its name', async () => {
    const first = await makeKey(alice, 'read', 'Make.com');
    expectError(
      await callAs(t, 'POST', '/api/account/api-keys', alice, { name: 'Make.com', scope: 'write' }),
      409,
      'API_KEY_NAME_TAKEN',
    );
    // Another account may use the same name.
    await makeKey(bob, 'read', 'Make.com');
    expect((await callAs(t, 'DELETE', `/api/account/api-keys/${first.id}`, alice)).statusCode).toBe(200);
    await makeKey(alice, 'write', 'Make.com');
  });

  it(`holds at most ${API_KEYS_PER_ACCOUNT} live keys`, async () => {
    const carol = await signUp(t);
    const made = [];
    for (let i = 0; i < API_KEYS_PER_ACCOUNT; i++) made.push(await makeKey(carol, 'read', `k${i}`));
    expectError(
      await callAs(t, 'POST', '/api/account/api-keys', carol, { name: 'one more', scope: 'read' }),
      409,
      'API_KEYS_LIMIT',
    );
    await callAs(t, 'DELETE', `/api/account/api-keys/${made[0]!.id}`, carol);
    await makeKey(carol, 'read', 'one more');
    expect((await listOf(carol)).total).toBe(API_KEYS_PER_ACCOUNT);
  });

  it("revokes at once; another account's key, an unknown or a malformed id is 404", async () => {
    const key = await makeKey(alice, 'read');
    expect((await withKey('GET', '/api/integrations', key.key)).statusCode).toBe(200);
    const bobs = await makeKey(bob, 'read');
    for (const id of [bobs.id, '00000000-0000-4000-8000-000000000000', 'not-an-id']) {
      expectError(await callAs(t, 'DELETE', `/api/account/api-keys/${id}`, alice), 404, 'API_KEY_NOT_FOUND');
    }
    expect((await withKey('GET', '/api/integrations', bobs.key)).statusCode).toBe(200);

    expect((await callAs(t, 'DELETE', `/api/account/api-keys/${key.id}`, alice)).json()).toEqual({ success: true });
    expectError(await withKey('GET', '/api/integrations', key.key), 401, 'UNAUTHORIZED');
    expect((await listOf(alice)).data.some((k: { id: string }) => k.id === key.id)).toBe(false);
    expectError(await callAs(t, 'DELETE', `/api/account/api-keys/${key.id}`, alice), 404, 'API_KEY_NOT_FOUND');
  });

  it('writes making and revoking a key to the audit log, without the secret', async () => {
    const key = await makeKey(alice, 'write', 'Audited');
    await callAs(t, 'DELETE', `/api/account/api-keys/${key.id}`, alice);
    const entries = await t.app.db.select().from(auditLog).where(eq(auditLog.targetId, key.id));
    expect(entries.map((e) => [e.action, e.actorLogin, e.targetLabel])).toEqual([
      ['api-key.create', alice.login, 'Audited'],
      ['api-key.revoke', alice.login, 'Audited'],
    ]);
    expect(JSON.stringify(entries)).not.toContain(key.key.slice(key.prefix.length + 1));
  });

  it('cannot be made by a staff member who entered the account', async () => {
    const target = await signUp(t);
    const [row] = await t.app.db.select().from(users).where(eq(users.login, target.login));
    const enter = await callAs(t, 'GET', `/api/super/users/enter?id=${row!.id}`, admin);
    expect(enter.statusCode, enter.body).toBe(200);
    const exchanged = await t.app.inject({
      method: 'POST',
      url: '/api/auth/enter',
      payload: { code: enter.json().code },
      headers: cookieHeader(admin.refreshToken),
    });
    const entered = { login: target.login, accessToken: exchanged.json().accessToken, refreshToken: '' };
    expect((await callAs(t, 'GET', '/api/account/api-keys', entered)).statusCode).toBe(200);
    expectError(
      await callAs(t, 'POST', '/api/account/api-keys', entered, { name: 'left behind', scope: 'write' }),
      403,
      'API_KEY_ENTERED_SESSION',
    );
    expect((await listOf(target)).total).toBe(0);
    // The account's own person can.
    await makeKey(target, 'read', 'mine');
  });

  it('is refused to anyone not signed in', async () => {
    expectError(await callAs(t, 'GET', '/api/account/api-keys', null), 401, 'UNAUTHORIZED');
    expectError(
      await callAs(t, 'POST', '/api/account/api-keys', null, { name: 'x', scope: 'read' }),
      401,
      'UNAUTHORIZED',
    );
  });
});

describe('a request made with a key', () => {
  it('reads the account with a read key and notes when the key was last used', async () => {
    const key = await makeKey(alice, 'read');
    const me = await withKey('GET', '/api/account', key.key);
    expect(me.statusCode).toBe(200);
    expect(me.json().login).toBe(alice.login);
    expect((await withKey('GET', '/api/integrations', key.key)).statusCode).toBe(200);
    const listed = (await listOf(alice)).data.find((k: { id: string }) => k.id === key.id);
    expect(Date.now() - Date.parse(listed.lastUsedAt)).toBeLessThan(60_000);
  });

  it('refuses a write with a read key (403) and changes nothing', async () => {
    const key = await makeKey(alice, 'read');
    expectError(await withKey('PATCH', '/api/account', key.key, { company: 'Read only Ltd' }), 403, 'API_KEY_SCOPE');
    expectError(
      await withKey('POST', '/api/integrations', key.key, { type: 'alfasms', name: 'SMS' }),
      403,
      'API_KEY_SCOPE',
    );
    expect((await callAs(t, 'GET', '/api/account', alice)).json().company).not.toBe('Read only Ltd');
  });

  it("writes with a write key, and the audit log names the key; staff see it as the actor's", async () => {
    const key = await makeKey(alice, 'write', 'Website backend');
    const patched = await withKey('PATCH', '/api/account', key.key, { company: 'Keyed Ltd' });
    expect(patched.statusCode).toBe(200);
    expect(patched.json().company).toBe('Keyed Ltd');
    const [entry] = await t.app.db
      .select()
      .from(auditLog)
      .where(and(eq(auditLog.action, 'api-key.write'), eq(auditLog.targetId, 'PATCH /api/account')));
    expect(entry).toMatchObject({
      actorLogin: alice.login,
      targetLabel: '/api/account',
      details: { status: 200, apiKey: 'Website backend', apiKeyId: key.id },
    });
    const shown = await callAs(t, 'GET', '/api/super/audit?page=1&limit=5&action=api-key.write', admin);
    expect(shown.json().data[0].actor).toMatchObject({
      login: alice.login,
      apiKey: { id: key.id, name: 'Website backend' },
    });
    // A refused write is not an action taken.
    await withKey('PATCH', '/api/account', key.key, { company: 'x'.repeat(101) });
    const writes = await t.app.db.select().from(auditLog).where(eq(auditLog.action, 'api-key.write'));
    expect(writes.filter((e) => e.details.apiKeyId === key.id)).toHaveLength(1);
  });

  it("never reaches another account's data", async () => {
    const made = await callAs(t, 'POST', '/api/integrations', bob, { type: 'alfasms', name: "Bob's SMS" });
    expect(made.statusCode, made.body).toBe(201);
    const bobsId = made.json()._id ?? made.json().id;
    const key = await makeKey(alice, 'write');
    expectError(await withKey('GET', `/api/integrations/${bobsId}`, key.key), 404, 'INTEGRATION_NOT_FOUND');
    expectError(
      await withKey('PUT', `/api/integrations/${bobsId}/update`, key.key, { name: 'taken' }),
      404,
      'INTEGRATION_NOT_FOUND',
    );
    const list = await withKey('GET', '/api/integrations', key.key);
    expect(list.body).not.toContain(bobsId);
  });

  it('is refused on staff routes, even when the key is a staff member’s', async () => {
    const key = await makeKey(admin, 'write');
    expect((await callAs(t, 'GET', '/api/super/audit?page=1&limit=5', admin)).statusCode).toBe(200);
    expectError(await withKey('GET', '/api/super/audit?page=1&limit=5', key.key), 403, 'API_KEY_NOT_ALLOWED');
    expectError(await withKey('POST', '/api/super/users/return', key.key), 403, 'API_KEY_NOT_ALLOWED');
  });

  it('cannot make, list or revoke keys, nor touch sessions, the password or the account itself', async () => {
    const key = await makeKey(alice, 'write');
    const refused: [Method, string, object?][] = [
      ['GET', '/api/account/api-keys'],
      ['POST', '/api/account/api-keys', { name: 'from a key', scope: 'write' }],
      ['DELETE', `/api/account/api-keys/${key.id}`],
      ['GET', '/api/auth/sessions'],
      ['POST', '/api/auth/sessions/revoke-all'],
      ['POST', '/api/account/update-password', { oldPassword: 'x', password: 'Abcdefg2', passwordConfirm: 'Abcdefg2' }],
      ['POST', '/api/account/clear-all-data', { password: 'x' }],
      ['POST', '/api/account/remove-account', { password: 'x' }],
      ['POST', '/api/payment/subscribe', { planId: 'x' }],
      ['GET', '/api/payment/renew?lang=en'],
    ];
    for (const [method, url, body] of refused) {
      expectError(await withKey(method, url, key.key, body), 403, 'API_KEY_NOT_ALLOWED');
    }
    expect((await withKey('GET', '/api/auth/me', key.key)).json().login).toBe(alice.login);
    expect((await listOf(alice)).data.some((k: { id: string }) => k.id === key.id)).toBe(true);
  });

  it('answers 429 with Retry-After past the per-key limit, and other keys go on', async () => {
    const key = await makeKey(alice, 'read');
    const other = await makeKey(alice, 'read');
    // Limits count in fixed one-minute windows: start the burst well inside one, so the count is
    // not reset halfway through it.
    const left = 60_000 - (Date.now() % 60_000);
    if (left < 10_000) await new Promise((resolve) => setTimeout(resolve, left + 100));
    const codes: number[] = [];
    for (let i = 0; i < RATE + 1; i++) codes.push((await withKey('GET', '/api/auth/me', key.key)).statusCode);
    expect(codes.slice(0, RATE).every((c) => c === 200)).toBe(true);
    const limited = await withKey('GET', '/api/auth/me', key.key);
    expectError(limited, 429, 'TOO_MANY_REQUESTS');
    expect(Number(limited.headers['retry-after'])).toBeGreaterThan(0);
    expect((await withKey('GET', '/api/auth/me', other.key)).statusCode).toBe(200);
    // A door that takes keys itself (the MCP server) shares the key's count.
    expect(t.app.hitApiKeyLimit?.(key.id)).toBeGreaterThan(0);
    // The person signed in is not limited by the key.
    expect((await callAs(t, 'GET', '/api/auth/me', alice)).statusCode).toBe(200);
  });

  it('refuses hostile or malformed headers with 401, never a 500', async () => {
    const key = await makeKey(alice, 'write');
    const [, id = '', secret = ''] = API_KEY_PATTERN.exec(key.key) ?? [];
    const flipped = `${secret.slice(0, -1)}${secret.endsWith('A') ? 'B' : 'A'}`;
    const headers = [
      '',
      'Bearer',
      'Bearer ',
      'Bearer lr_',
      `Bearer lr_${'a'.repeat(100_000)}`,
      `Bearer ${key.key}${'x'.repeat(10_000)}`,
      `Bearer xx_${id}_${secret}`,
      `Bearer lr_${id}_${flipped}`,
      `Bearer lr_ZZZZZZZZ_${secret}`,
      `Bearer ${key.key.toUpperCase()}`,
      `Basic ${Buffer.from(`${alice.login}:${key.key}`).toString('base64')}`,
      `Bearer ${key.key} ${key.key}`,
      `Bearer lr_${id}_${secret.slice(0, 20)}\u0000${secret.slice(21)}`,
    ];
    const results: [string, number, string][] = [];
    for (const header of headers) {
      const res: LightMyRequestResponse = await withHeader('GET', '/api/integrations', header);
      results.push([header.slice(0, 40), res.statusCode, res.json().code]);
    }
    expect(results.filter(([, status, code]) => status !== 401 || code !== 'UNAUTHORIZED')).toEqual([]);
    expect((await withKey('GET', '/api/integrations', key.key)).statusCode).toBe(200);
  });
});

describe('a removed account', () => {
  it('takes its keys with it at once', async () => {
    const dave = await signUp(t);
    const key = await makeKey(dave, 'write');
    expect((await withKey('GET', '/api/account', key.key)).statusCode).toBe(200);
    const removed = await callAs(t, 'POST', '/api/account/remove-account', dave, { password: PASSWORD });
    expect(removed.statusCode, removed.body).toBe(200);
    expectError(await withKey('GET', '/api/account', key.key), 401, 'UNAUTHORIZED');
  });
});

describe('authenticateApiKey (for the MCP server)', () => {
  it("names the key, its scope and its account, with the account's row as the actor", async () => {
    const key = await makeKey(bob, 'read', 'Assistant');
    const principal = await authenticateApiKey(t.app.db, key.key);
    expect(principal).toMatchObject({ keyId: key.id, keyName: 'Assistant', scope: 'read' });
    expect(principal?.actor.login).toBe(bob.login);
    expect(principal?.accountId).toBe(principal?.actor.id);
    await callAs(t, 'DELETE', `/api/account/api-keys/${key.id}`, bob);
    expect(await authenticateApiKey(t.app.db, key.key)).toBeNull();
    expect(await authenticateApiKey(t.app.db, '')).toBeNull();
  });
});

describe('logs', () => {
  it('never hold a key', () => {
    expect(madeKeys.length).toBeGreaterThan(10);
    const log = logLines.join('');
    expect(log).toContain('/api/account/api-keys');
    for (const key of madeKeys) expect(log).not.toContain(key.slice(12));
  });
});
