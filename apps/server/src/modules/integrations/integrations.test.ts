import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { integrations } from '../../db/schema';
import { watchIntegrationUpdates } from '../../test/realtime-kit';
import {
  bearer,
  callAs,
  createTestApp,
  errorOf,
  expectError,
  type Method,
  onUnlimitedPlan,
  PASSWORD,
  type SignedInUser,
  signUp,
  type TestApp,
} from '../../test/test-app';

let t: TestApp;
let alice: SignedInUser;
let bob: SignedInUser;
let okServer: Server;
let okUrl: string;
let closedUrl: string;

async function listen(server: Server): Promise<number> {
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return (server.address() as AddressInfo).port;
}

beforeAll(async () => {
  t = await createTestApp({ allowPrivateDestinations: true });
  alice = await onUnlimitedPlan(t, await signUp(t));
  bob = await onUnlimitedPlan(t, await signUp(t));
  okServer = createServer((req, res) => {
    req.resume();
    // /odd: a refusal whose words hold a NUL and half a UTF-16 pair.
    if (req.url === '/odd')
      req.on('end', () =>
        res.writeHead(500, { 'content-type': 'application/json' }).end('{"error":"down\\u0000 \\udc00"}'),
      );
    else req.on('end', () => res.writeHead(200, { 'content-type': 'application/json' }).end('{"id":"r1"}'));
  });
  okUrl = `http://127.0.0.1:${await listen(okServer)}/hook`;
  // A port that was just free: nothing listens there.
  const probe = createServer();
  const port = await listen(probe);
  await new Promise((resolve) => probe.close(resolve));
  closedUrl = `http://127.0.0.1:${port}/hook`;
});
afterAll(async () => {
  await new Promise((resolve) => okServer.close(resolve));
  await t.close();
});

const call = (method: Method, url: string, user: SignedInUser | null, payload?: unknown) =>
  callAs(t, method, url, user, payload);

async function create(user: SignedInUser, body: Record<string, unknown>) {
  const res = await call('POST', '/api/integrations', user, body);
  if (res.statusCode !== 201) throw new Error(`create failed: ${res.body}`);
  return res.json();
}
const webhookSource = (user: SignedInUser, extra: Record<string, unknown> = {}) =>
  create(user, { type: 'webhook', name: 'Site form', ...extra });
const httpDestination = (user: SignedInUser, url = okUrl, extra: Record<string, unknown> = {}) =>
  create(user, { type: 'http', name: 'My endpoint', settings: { url }, ...extra });
async function collection(user: SignedInUser) {
  const res = await call('POST', '/api/legacy/api/admin/collection', user, { name: 'Managers' });
  return res.json()._id as string;
}

const MISSING = '00000000-0000-4000-8000-000000000000';

describe('POST /api/integrations', () => {
  it('creates a source and a destination in the caller’s account, without secrets in the answer', async () => {
    const destination = await httpDestination(alice);
    expect(destination).toMatchObject({
      name: 'My endpoint',
      type: 'http',
      kind: 'destination',
      active: true,
      settings: { url: okUrl },
      destination: [],
      distributionId: null,
      status: 'ok',
      statusReason: null,
      isConnected: false,
      category: { name: 'Webhooks' },
    });
    const distributionId = await collection(alice);
    const source = await webhookSource(alice, {
      destination: [destination._id],
      distributionId,
      options: { mapping: [{ from: 'phone', to: 'phone' }] },
    });
    expect(source).toMatchObject({
      type: 'webhook',
      kind: 'source',
      destination: [{ _id: destination._id, name: 'My endpoint', type: 'http' }],
      distributionId,
      category: { name: 'Sources' },
    });
    expect(source).not.toHaveProperty('auth');
    expect(source).not.toHaveProperty('hookToken');
    expect(typeof source.createdAt).toBe('string');
  });

  it('accepts destinations given as objects with _id', async () => {
    const d = await httpDestination(alice);
    const source = await webhookSource(alice, { destination: [{ _id: d._id }, d._id] });
    expect(source.destination.map((x: { _id: string }) => x._id)).toEqual([d._id]);
  });

  it('refuses unknown and hidden types', async () => {
    expectError(
      await call('POST', '/api/integrations', alice, { type: 'nope', name: 'x' }),
      400,
      'INTEGRATION_TYPE_UNKNOWN',
    );
    // The e-mail parser is created by its own, staff-only API (/api/legacy/api/admin/parser), never here.
    expectError(
      await call('POST', '/api/integrations', alice, { type: 'parser', name: 'x' }),
      400,
      'INTEGRATION_TYPE_UNKNOWN',
    );
    expectError(
      await call('POST', '/api/integrations', alice, { type: 'Bad Type!', name: 'x' }),
      400,
      'VALIDATION_ERROR',
    );
  });

  it('refuses bad input field by field', async () => {
    const post = (body: unknown) => call('POST', '/api/integrations', alice, body);
    expectError(await post({ name: 'x' }), 400, 'REQUIRED');
    expectError(await post({ type: 'webhook' }), 400, 'REQUIRED');
    expectError(await post({ type: 'webhook', name: 42 }), 400, 'INVALID_TYPE');
    expectError(await post({ type: 'webhook', name: '   ' }), 400, 'REQUIRED');
    expectError(await post({ type: 'webhook', name: 'x'.repeat(101) }), 400, 'MAX_LENGTH_100');
    expectError(await post({ type: 'webhook', name: 'x', options: [1] }), 400, 'INVALID_TYPE');
    expectError(await post({ type: 'webhook', name: 'x', options: 'text' }), 400, 'INVALID_TYPE');
    expectError(await post({ type: 'webhook', name: 'x', destination: 'abc' }), 400, 'INVALID_TYPE');
    expectError(await post({ type: 'webhook', name: 'x', destination: ['not-a-uuid'] }), 400, 'VALIDATION_ERROR');
    expectError(await post({ type: 'webhook', name: 'x', distributionId: 'nope' }), 400, 'VALIDATION_ERROR');
    expectError(await post({ type: 'webhook', name: 'x', extra: true }), 400, 'VALIDATION_ERROR');
    expectError(await post(undefined), 400, 'REQUIRED');
    // Options are checked in the service, and answer like the route's schema: the field's own key.
    const badMapping = await post({ type: 'webhook', name: 'x', options: { mapping: 'all' } });
    expectError(badMapping, 400, 'INVALID_TYPE');
    expect(errorOf(badMapping).errors?.[0]?.field).toBe('options.mapping');
    const badUrl = await post({ type: 'http', name: 'x', settings: { url: 'not a url' } });
    expectError(badUrl, 400, 'VALIDATION_ERROR');
    expect(errorOf(badUrl).errors?.[0]?.field).toBe('settings.url');
  });

  it('refuses options over 64 KB', async () => {
    const options = { blob: 'x'.repeat(70 * 1024) };
    expectError(
      await call('POST', '/api/integrations', alice, { type: 'webhook', name: 'x', options }),
      400,
      'OPTIONS_TOO_LARGE',
    );
  });

  it('refuses destinations that are not the caller’s own allowed destination integrations', async () => {
    const otherSource = await webhookSource(alice);
    const bobs = await httpDestination(bob);
    const mine = await httpDestination(alice);
    for (const destination of [[otherSource._id], [bobs._id], [MISSING]]) {
      const res = await call('POST', '/api/integrations', alice, { type: 'webhook', name: 'x', destination });
      expectError(res, 400, 'DESTINATION_NOT_ALLOWED');
      expect(res.body).not.toContain(bobs.name === 'x' ? 'never' : bobs._id);
    }
    // A destination has no destinations of its own.
    const res = await call('POST', '/api/integrations', alice, {
      type: 'http',
      name: 'x',
      settings: { url: okUrl },
      destination: [mine._id],
    });
    expectError(res, 400, 'DESTINATION_NOT_ALLOWED');
  });

  it('refuses another account’s collection as distribution', async () => {
    const bobsCollection = await collection(bob);
    for (const distributionId of [bobsCollection, MISSING]) {
      expectError(
        await call('POST', '/api/integrations', alice, { type: 'webhook', name: 'x', distributionId }),
        400,
        'DISTRIBUTION_NOT_FOUND',
      );
    }
  });

  it('needs a signed-in user', async () => {
    expectError(await call('POST', '/api/integrations', null, { type: 'webhook', name: 'x' }), 401, 'UNAUTHORIZED');
    expectError(await call('GET', '/api/integrations', null), 401, 'UNAUTHORIZED');
  });
});

describe('GET /api/integrations', () => {
  it('pages, filters and echoes the filter, only over the caller’s integrations', async () => {
    const carol = await onUnlimitedPlan(t, await signUp(t));
    for (let i = 0; i < 12; i++) await webhookSource(carol, { name: `Form ${i}` });
    const d = await httpDestination(carol, okUrl, { name: 'Endpoint 100%' });
    await call('PUT', `/api/integrations/${d._id}/update`, carol, { active: false });
    await webhookSource(bob, { name: 'Form of bob' });

    const first = (await call('GET', '/api/integrations', carol)).json();
    expect(first.total).toBe(13);
    expect(first.data).toHaveLength(10);
    expect(first.filter).toEqual({ page: 1, limit: 10 });
    const second = (await call('GET', '/api/integrations?page=2&limit=10', carol)).json();
    expect(second.data).toHaveLength(3);

    const byType = (await call('GET', '/api/integrations?type=http', carol)).json();
    expect([byType.total, byType.filter]).toEqual([1, { page: 1, limit: 10, type: 'http' }]);
    const inactive = (await call('GET', '/api/integrations?active=false', carol)).json();
    expect(inactive.data.map((x: { _id: string }) => x._id)).toEqual([d._id]);
    expect(inactive.filter.active).toBe(false);
    const search = (await call('GET', '/api/integrations?search=100%25', carol)).json();
    expect([search.total, search.filter.search]).toEqual([1, '100%']);
    const none = (await call('GET', '/api/integrations?search=bob', carol)).json();
    expect(none.total).toBe(0);
  });

  it('refuses bad query values', async () => {
    for (const q of ['limit=101', 'limit=0', 'page=0', 'page=abc', 'active=maybe', 'unknown=1']) {
      expect((await call('GET', `/api/integrations?${q}`, alice)).statusCode).toBe(400);
    }
  });
});

describe('one integration', () => {
  it('answers 404 for another account’s id, a missing id and a malformed id', async () => {
    const bobs = await webhookSource(bob);
    for (const id of [bobs._id, MISSING, 'not-a-uuid', '1']) {
      expectError(await call('GET', `/api/integrations/${id}`, alice), 404, 'INTEGRATION_NOT_FOUND');
      expectError(
        await call('PUT', `/api/integrations/${id}/update`, alice, { name: 'y' }),
        404,
        'INTEGRATION_NOT_FOUND',
      );
      expectError(await call('GET', `/api/integrations/${id}/destinations`, alice), 404, 'INTEGRATION_NOT_FOUND');
      expectError(await call('GET', `/api/integrations/${id}/generateHook`, alice), 404, 'INTEGRATION_NOT_FOUND');
      expectError(await call('GET', `/api/integrations/${id}/http/users`, alice), 404, 'INTEGRATION_NOT_FOUND');
      expectError(
        await call('POST', `/api/admin/integration/${id}/check-connection`, alice),
        404,
        'INTEGRATION_NOT_FOUND',
      );
      expectError(await call('PUT', `/api/admin/integration/${id}/connect`, alice, {}), 404, 'INTEGRATION_NOT_FOUND');
      const legacy = `/api/legacy/api/admin/integration/${id}`;
      expectError(await call('DELETE', legacy, alice), 404, 'INTEGRATION_NOT_FOUND');
      expectError(await call('PUT', `${legacy}/update`, alice, {}), 404, 'INTEGRATION_NOT_FOUND');
      expectError(await call('PUT', `${legacy}/updateOptions`, alice, { options: {} }), 404, 'INTEGRATION_NOT_FOUND');
      expectError(
        await call('PUT', `${legacy}/addDestination`, alice, { destination: MISSING }),
        404,
        'INTEGRATION_NOT_FOUND',
      );
      expectError(
        await call('PUT', `${legacy}/removeDestination`, alice, { destination: MISSING }),
        404,
        'INTEGRATION_NOT_FOUND',
      );
      expectError(await call('GET', `${legacy}/webhooks`, alice), 404, 'INTEGRATION_NOT_FOUND');
    }
    expect((await call('GET', `/api/integrations/${bobs._id}`, bob)).json().name).toBe('Site form');
  });

  it('updates name, active, options, destinations and distribution', async () => {
    const d1 = await httpDestination(alice);
    const d2 = await httpDestination(alice, okUrl, { name: 'Second' });
    const source = await webhookSource(alice, { destination: [d1._id] });
    const distributionId = await collection(alice);
    const res = await call('PUT', `/api/integrations/${source._id}/update`, alice, {
      name: ' Renamed ',
      active: false,
      options: { dedupe: { bodyWindowHours: 2 } },
      destination: [{ _id: d2._id }, d1._id],
      distributionId,
    });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toMatchObject({
      name: 'Renamed',
      active: false,
      options: { dedupe: { bodyWindowHours: 2 } },
      destination: [{ _id: d2._id }, { _id: d1._id }],
      distributionId,
    });
    const cleared = await call('PUT', `/api/integrations/${source._id}/update`, alice, {
      distributionId: null,
      destination: [],
    });
    expect(cleared.json()).toMatchObject({ distributionId: null, destination: [] });
    const dests = await call('GET', `/api/integrations/${source._id}/destinations`, alice);
    expect(dests.json()).toEqual([]);
  });

  it('refuses bad update bodies', async () => {
    const source = await webhookSource(alice);
    const put = (body: unknown) => call('PUT', `/api/integrations/${source._id}/update`, alice, body);
    expectError(await put({ active: 'yes' }), 400, 'INVALID_TYPE');
    expectError(await put({ name: '' }), 400, 'REQUIRED');
    expectError(await put({ options: { blob: 'x'.repeat(70_000) } }), 400, 'OPTIONS_TOO_LARGE');
    expectError(await put({ destination: [source._id] }), 400, 'DESTINATION_NOT_ALLOWED');
    expectError(await put({ distributionId: await collection(bob) }), 400, 'DISTRIBUTION_NOT_FOUND');
    expectError(await put({ type: 'http' }), 400, 'VALIDATION_ERROR');
  });

  it('lists the destinations as integration objects, in order', async () => {
    const d1 = await httpDestination(alice, okUrl, { name: 'A' });
    const d2 = await httpDestination(alice, okUrl, { name: 'B' });
    const source = await webhookSource(alice, { destination: [d2._id, d1._id] });
    const res = await call('GET', `/api/integrations/${source._id}/destinations`, alice);
    expect(res.json().map((d: { name: string; settings: unknown }) => [d.name, d.settings])).toEqual([
      ['B', { url: okUrl }],
      ['A', { url: okUrl }],
    ]);
  });

  it('generates the webhook URL once and answers the same one after', async () => {
    const source = await webhookSource(alice);
    const first = await call('GET', `/api/integrations/${source._id}/generateHook`, alice);
    expect(first.statusCode).toBe(200);
    const { url, token } = first.json();
    expect(token).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect(url).toBe(`http://app.test/api/hooks/in/${token}`);
    expect((await call('GET', `/api/integrations/${source._id}/generateHook`, alice)).json()).toEqual({ url, token });
    expect((await call('GET', `/api/integrations/${source._id}`, alice)).body).not.toContain(token);
    const destination = await httpDestination(alice);
    expectError(
      await call('GET', `/api/integrations/${destination._id}/generateHook`, alice),
      400,
      'OPERATION_NOT_SUPPORTED',
    );
  });

  it('answers loaders and webhook registration with 400 when the connector has none', async () => {
    const d = await httpDestination(alice);
    expectError(await call('GET', `/api/integrations/${d._id}/http/users`, alice), 400, 'OPERATION_NOT_SUPPORTED');
    expectError(await call('GET', `/api/integrations/${d._id}/http/fields`, alice), 400, 'OPERATION_NOT_SUPPORTED');
    // http has no webhooks at the destination: 400 with or without a body.
    expectError(await call('POST', `/api/integrations/${d._id}/http/webhooks`, alice), 400, 'OPERATION_NOT_SUPPORTED');
    expectError(
      await call('POST', `/api/integrations/${d._id}/http/webhooks`, alice, { url: 'https://example.com/in' }),
      400,
      'OPERATION_NOT_SUPPORTED',
    );
    // The type in the path must be the integration's own.
    expectError(await call('GET', `/api/integrations/${d._id}/amocrm/users`, alice), 404, 'INTEGRATION_NOT_FOUND');
    const s = await webhookSource(alice);
    expectError(await call('GET', `/api/integrations/${s._id}/webhook/fields`, alice), 400, 'OPERATION_NOT_SUPPORTED');
  });
});

describe('connection', () => {
  it('marks a destination that cannot be reached as broken, answering 200 with the reason', async () => {
    const d = await httpDestination(alice, closedUrl);
    const res = await call('POST', `/api/admin/integration/${d._id}/check-connection`, alice);
    expect(res.statusCode).toBe(200);
    const body = res.json();
    expect(body).toMatchObject({ ok: false, status: 'broken' });
    expect(body.reason).toEqual(expect.any(String));
    const after = (await call('GET', `/api/integrations/${d._id}`, alice)).json();
    expect(after).toMatchObject({ status: 'broken', statusReason: body.reason });
  });

  it('keeps a reason quoting an answer with a NUL or half a UTF-16 pair, cleaned, not a 400', async () => {
    const d = await httpDestination(alice, okUrl.replace('/hook', '/odd'));
    const res = await call('POST', `/api/admin/integration/${d._id}/check-connection`, alice);
    expect([res.statusCode, res.json()]).toMatchObject([
      200,
      { ok: false, status: 'broken', reason: 'HTTP 500: down \ufffd' },
    ]);
    const after = (await call('GET', `/api/integrations/${d._id}`, alice)).json();
    expect(after).toMatchObject({ status: 'broken', statusReason: 'HTTP 500: down \ufffd' });
  });

  it('refuses private addresses unless the server allows them', async () => {
    const strict = await createTestApp();
    try {
      const user = await signUp(strict);
      const created = await strict.app.inject({
        method: 'POST',
        url: '/api/integrations',
        headers: bearer(user.accessToken),
        payload: { type: 'http', name: 'x', settings: { url: okUrl } },
      });
      const res = await strict.app.inject({
        method: 'POST',
        url: `/api/admin/integration/${created.json()._id}/check-connection`,
        headers: bearer(user.accessToken),
      });
      expect(res.json()).toMatchObject({ ok: false, status: 'broken' });
      expect(res.json().reason).toMatch(/URL_NOT_ALLOWED/);
    } finally {
      await strict.close();
    }
  });

  it('connects: stores settings and auth checked by the connector, then checks', async () => {
    const d = await httpDestination(alice, closedUrl);
    await call('POST', `/api/admin/integration/${d._id}/check-connection`, alice);
    const live = watchIntegrationUpdates(t);
    const res = await call('PUT', `/api/admin/integration/${d._id}/connect`, alice, {
      auth: { secret: 'hmac-key' },
      settings: { url: okUrl },
    });
    expect(res.statusCode).toBe(200);
    // The account's other tabs hear of it (UPDATE_INTEGRATION), with the state after the check.
    expect(await live.about(d._id)).toMatchObject({ status: 'ok', statusReason: null, state: { code: 'working' } });
    live.stop();
    expect(res.json()).toMatchObject({
      ok: true,
      status: 'ok',
      integration: { status: 'ok', statusReason: null, isConnected: true, settings: { url: okUrl } },
    });
    expect(res.body).not.toContain('hmac-key');
    const [row] = await t.app.db.select().from(integrations).where(eq(integrations.id, d._id));
    // Sealed at rest (stored-auth.test.ts covers the envelope); it opens to what was sent.
    expect(JSON.stringify(row?.auth)).not.toContain('hmac-key');
    expect(t.app.deps.secrets.open(row?.auth, d._id)).toEqual({ secret: 'hmac-key' });
    expect((await call('POST', `/api/admin/integration/${d._id}/check-connection`, alice)).json()).toEqual({
      ok: true,
      status: 'ok',
    });
  });

  it('answers a short key with MIN_LENGTH_n and a blank one with REQUIRED, as the field’s and the answer’s code (spec 5)', async () => {
    const sms = await create(alice, { type: 'alfasms', name: 'SMS' });
    const short = await call('PUT', `/api/admin/integration/${sms._id}/connect`, alice, {
      auth: { apiKey: '  abc1234  ' },
    });
    expectError(short, 400, 'MIN_LENGTH_8');
    expect(errorOf(short).errors).toEqual([{ field: 'auth.apiKey', code: 'MIN_LENGTH_8' }]);
    const d = await httpDestination(alice);
    const blank = await call('PUT', `/api/admin/integration/${d._id}/connect`, alice, { auth: { secret: '   ' } });
    expectError(blank, 400, 'REQUIRED');
    expect(errorOf(blank).errors).toEqual([{ field: 'auth.secret', code: 'REQUIRED' }]);
    const [row] = await t.app.db.select().from(integrations).where(eq(integrations.id, sms._id));
    expect(row?.auth).toBeNull();
  });

  it('refuses connect bodies the connector’s schemas reject, and types without a connector', async () => {
    const d = await httpDestination(alice);
    const bad = await call('PUT', `/api/admin/integration/${d._id}/connect`, alice, { settings: { url: 'ftp://x' } });
    expectError(bad, 400, 'VALIDATION_ERROR');
    expect(errorOf(bad).errors?.[0]?.field).toBe('settings.url');
    const badAuth = await call('PUT', `/api/admin/integration/${d._id}/connect`, alice, { auth: { secret: 5 } });
    expect(errorOf(badAuth).errors?.[0]?.field).toBe('auth.secret');
    expectError(
      await call('PUT', `/api/admin/integration/${d._id}/connect`, alice, { auth: 'x' }),
      400,
      'INVALID_TYPE',
    );
    const s = await webhookSource(alice);
    expectError(
      await call('PUT', `/api/admin/integration/${s._id}/connect`, alice, {}),
      400,
      'OPERATION_NOT_SUPPORTED',
    );
    expectError(
      await call('POST', `/api/admin/integration/${s._id}/check-connection`, alice),
      400,
      'OPERATION_NOT_SUPPORTED',
    );
  });
});

describe('legacy admin paths', () => {
  const legacy = (id: string) => `/api/legacy/api/admin/integration/${id}`;

  it('updates options, adds and removes destinations', async () => {
    const d = await httpDestination(alice);
    const s = await webhookSource(alice);
    const opts = await call('PUT', `${legacy(s._id)}/updateOptions`, alice, { options: { filters: [] } });
    expect(opts.json().options).toEqual({ filters: [] });
    expectError(await call('PUT', `${legacy(s._id)}/updateOptions`, alice, {}), 400, 'REQUIRED');

    const added = await call('PUT', `${legacy(s._id)}/addDestination`, alice, { destination: d._id });
    expect(added.json().destination).toEqual([{ _id: d._id, name: d.name, type: 'http' }]);
    const again = await call('PUT', `${legacy(s._id)}/addDestination`, alice, { destination: { _id: d._id } });
    expect(again.json().destination).toHaveLength(1);
    const bobs = await httpDestination(bob);
    expectError(
      await call('PUT', `${legacy(s._id)}/addDestination`, alice, { destination: bobs._id }),
      400,
      'DESTINATION_NOT_ALLOWED',
    );
    expectError(
      await call('PUT', `${legacy(s._id)}/addDestination`, alice, { destination: 'x' }),
      400,
      'VALIDATION_ERROR',
    );
    const removed = await call('PUT', `${legacy(s._id)}/removeDestination`, alice, { destination: d._id });
    expect(removed.json().destination).toEqual([]);

    const updated = await call('PUT', `${legacy(s._id)}/update`, alice, { name: 'Legacy name' });
    expect(updated.json().name).toBe('Legacy name');
  });

  it('deletes an integration and drops it from its sources', async () => {
    const d = await httpDestination(alice);
    const s = await webhookSource(alice, { destination: [d._id] });
    expect((await call('DELETE', legacy(d._id), alice)).json()).toEqual({ success: true });
    expectError(await call('GET', `/api/integrations/${d._id}`, alice), 404, 'INTEGRATION_NOT_FOUND');
    const [row] = await t.app.db.select().from(integrations).where(eq(integrations.id, s._id));
    expect(row?.destinationIds).toEqual([]);
  });

  it('lists the integration’s hooks', async () => {
    const s = await webhookSource(alice);
    const res = await call('GET', `${legacy(s._id)}/webhooks?page=1&limit=5`, alice);
    expect(res.json()).toEqual({ data: [], total: 0 });
    expect((await call('GET', `${legacy(s._id)}/webhooks?limit=500`, alice)).statusCode).toBe(400);
  });
});

describe('clear all data', () => {
  it('deletes the account’s integrations and collections, and no one else’s', async () => {
    const dave = await signUp(t);
    await webhookSource(dave);
    await collection(dave);
    const bobsBefore = (await call('GET', '/api/integrations', bob)).json().total;
    const res = await call('POST', '/api/account/clear-all-data', dave, { password: PASSWORD });
    expect(res.statusCode).toBe(200);
    expect((await call('GET', '/api/integrations', dave)).json().total).toBe(0);
    expect((await call('GET', '/api/legacy/api/admin/collection', dave)).json().total).toBe(0);
    expect((await call('GET', '/api/integrations', bob)).json().total).toBe(bobsBefore);
  });
});
