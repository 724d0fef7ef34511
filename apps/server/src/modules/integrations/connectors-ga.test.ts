// Google Analytics 4 end to end against its emulator: connect (the API secret sealed and
// write-only), settings held to the protocol's rules, one event per website lead with the client id
// of its _ga cookie, faults retried, limits refused before sending, and "send a test lead".
import { GA_EMULATOR_STREAM, type GaEmulator, startGaEmulator } from '@leadrelay/connectors/testing';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { deliveries, integrations } from '../../db/schema';
import { accountIdOf, createSource } from '../../test/routing-fixtures';
import {
  callAs,
  createTestApp,
  expectError,
  onUnlimitedPlan,
  type SignedInUser,
  signUp,
  type TestApp,
} from '../../test/test-app';

let t: TestApp;
let emu: GaEmulator;
let alice: SignedInUser;
let bob: SignedInUser;
let ahead = 0;

beforeAll(async () => {
  emu = await startGaEmulator();
  t = await createTestApp({
    allowPrivateDestinations: true,
    crm: { ga: { apiUrl: emu.url } },
    delivery: { now: () => new Date(Date.now() + ahead) },
  });
  alice = await onUnlimitedPlan(t, await signUp(t));
  bob = await onUnlimitedPlan(t, await signUp(t));
});
afterAll(async () => {
  await t?.close();
  await emu?.close();
});
beforeEach(() => {
  emu.reset();
  ahead = 0;
});

const call = (method: 'GET' | 'POST' | 'PUT', url: string, user: SignedInUser | null, body?: unknown) =>
  callAs(t, method, url, user, body);

async function gaIntegration(user: SignedInUser, settings: Record<string, unknown> = {}) {
  const created = await call('POST', '/api/integrations', user, { type: 'ga', name: 'GA4' });
  const id: string = created.json()._id;
  const connect = await call('PUT', `/api/admin/integration/${id}/connect`, user, {
    auth: { apiSecret: GA_EMULATOR_STREAM.apiSecret },
    settings: { measurementId: GA_EMULATOR_STREAM.measurementId, ...settings },
  });
  expect(connect.statusCode).toBe(200);
  return { id, connect: connect.json() };
}

async function deliveryOf(destinationId: string) {
  const [row] = await t.app.db.select().from(deliveries).where(eq(deliveries.destinationId, destinationId));
  return row!;
}

describe('GA4 connect', () => {
  it('stores the API secret sealed and never answers it; the check uses the validation server', async () => {
    const { id, connect } = await gaIntegration(alice);
    expect(connect).toMatchObject({ ok: true, status: 'ok', integration: { isConnected: true } });
    expect(emu.requests.map((r) => r.path)).toEqual(['/debug/mp/collect']);
    const [row] = await t.app.db.select().from(integrations).where(eq(integrations.id, id));
    expect(JSON.stringify(row!.auth)).not.toContain(GA_EMULATOR_STREAM.apiSecret);
    const read = await call('GET', `/api/integrations/${id}`, alice);
    expect(JSON.stringify(read.json())).not.toContain(GA_EMULATOR_STREAM.apiSecret);
    expect(read.json().settings).toMatchObject({ eventName: 'generate_lead', currency: 'UAH', region: 'global' });
  });

  it('refuses names and ids the protocol would drop, with the field', async () => {
    const created = await call('POST', '/api/integrations', alice, { type: 'ga', name: 'GA4' });
    const id = created.json()._id;
    const fields = async (settings: Record<string, unknown>) => {
      const res = await call('PUT', `/api/admin/integration/${id}/connect`, alice, { settings });
      expect(res.statusCode).toBe(400);
      return res.json().errors.map((e: { field: string }) => e.field);
    };
    expect(await fields({ measurementId: 'UA-1234-1' })).toEqual(['settings.measurementId']);
    expect(await fields({ measurementId: 'G-ABC123', eventName: 'session_start' })).toEqual(['settings.eventName']);
    expect(await fields({ measurementId: 'G-ABC123', params: [{ name: 'ga_city', from: 'custom.city' }] })).toEqual([
      'settings.params.0.name',
    ]);
    expect(await fields({ measurementId: 'G-ABC123', params: [{ name: 'city', from: 'form.city' }] })).toEqual([
      'settings.params.0.from',
    ]);
    const secret = await call('PUT', `/api/admin/integration/${id}/connect`, alice, { auth: { apiSecret: 'x' } });
    expectError(secret, 400, 'MIN_LENGTH_8');
  });
});

describe('GA4 delivery', () => {
  it('a website lead becomes one generate_lead with the client id of its _ga cookie, value, currency and UTM', async () => {
    const { id } = await gaIntegration(alice, {
      valueField: 'custom.price',
      userIdField: 'email',
      params: [{ name: 'city', from: 'custom.city' }],
    });
    const source = await createSource(t.app.db, await accountIdOf(t.app.db, alice.login), { destinationIds: [id] });
    const res = await t.app.inject({
      method: 'POST',
      url: source.url,
      payload: {
        name: 'Олена',
        email: 'olena@example.com',
        utm_source: 'facebook',
        utm_campaign: 'spring',
        _ga: 'GA1.1.1234567890.1700000000',
        price: '1 500',
        city: 'Київ',
      },
    });
    expect(res.statusCode).toBe(202);
    expect(await t.app.deliveryWorker.drain()).toBe(1);
    expect(emu.events()).toEqual([
      {
        name: 'generate_lead',
        params: {
          currency: 'UAH',
          value: 1500,
          utm_source: 'facebook',
          utm_campaign: 'spring',
          lead_source: 'facebook',
          city: 'Київ',
        },
        clientId: '1234567890.1700000000',
        userId: 'olena@example.com',
        measurementId: GA_EMULATOR_STREAM.measurementId,
      },
    ]);
    expect(await deliveryOf(id)).toMatchObject({ status: 'delivered' });
  });

  it('a 429 waits for Retry-After and a 5xx is retried; the event is recorded once', async () => {
    const { id } = await gaIntegration(alice, { eventName: 'lead_form' });
    const source = await createSource(t.app.db, await accountIdOf(t.app.db, alice.login), { destinationIds: [id] });
    await t.app.inject({ method: 'POST', url: source.url, payload: { name: 'Ivan', phone: '0671234567' } });
    emu.setFault({ status: 429, retryAfter: 120, times: 1 });
    await t.app.deliveryWorker.drain();
    const waiting = await deliveryOf(id);
    expect(waiting).toMatchObject({ status: 'pending', attempts: 1 });
    expect(waiting.nextAttemptAt.getTime() - Date.now()).toBeGreaterThan(110_000);
    emu.setFault({ status: 502, times: 1 });
    ahead = waiting.nextAttemptAt.getTime() - Date.now() + 1000;
    await t.app.deliveryWorker.drain();
    const again = await deliveryOf(id);
    expect(again).toMatchObject({ status: 'pending', attempts: 2 });
    ahead = again.nextAttemptAt.getTime() - Date.now() + 1000;
    await t.app.deliveryWorker.drain();
    expect(await deliveryOf(id)).toMatchObject({ status: 'delivered', attempts: 3 });
    expect(emu.events().map((e) => e.name)).toEqual(['lead_form']);
  });

  it('a lead over the limits is refused before sending, with a code the web translates', async () => {
    const { id } = await gaIntegration(alice, { userIdField: 'custom.crm_id' });
    const source = await createSource(t.app.db, await accountIdOf(t.app.db, alice.login), { destinationIds: [id] });
    emu.requests.length = 0;
    await t.app.inject({ method: 'POST', url: source.url, payload: { name: 'Ivan', crm_id: 'x'.repeat(300) } });
    await t.app.deliveryWorker.drain();
    expect(await deliveryOf(id)).toMatchObject({ status: 'failed', lastError: 'GA_USER_ID_TOO_LONG: user_id' });
    expect(emu.requests).toHaveLength(0);
    // A lead's own data, not the settings: the integration stays ok.
    const [row] = await t.app.db.select().from(integrations).where(eq(integrations.id, id));
    expect(row!.status).toBe('ok');
  });
});

// The screen calls the connector's action through the generic route; the old path stays for API users.
const DEBUG_PATHS = [
  ['the generic action route', (id: string) => `/api/integrations/${id}/actions/debug`],
  ['the path kept for API users', (id: string) => `/api/ga/debug/${id}`],
] as const;

describe.each(DEBUG_PATHS)('GA4 send a test lead, through %s', (name, debugPath) => {
  it("answers Google's validation messages for the saved settings, for the owner only", async () => {
    const { id } = await gaIntegration(alice);
    emu.requests.length = 0;
    const ok = await call('POST', debugPath(id), alice, {
      lead: { name: 'Test', custom: { _ga: 'GA1.1.5.6' } },
    });
    expect(ok.statusCode).toBe(200);
    expect(ok.json()).toMatchObject({
      valid: true,
      issues: [],
      validationMessages: [],
      payload: { client_id: '5.6', events: [{ name: 'generate_lead' }] },
    });
    expect(JSON.stringify(ok.json())).not.toContain(GA_EMULATOR_STREAM.apiSecret);
    expect(emu.hits).toHaveLength(0);
    expect(emu.requests.map((r) => r.path)).toEqual(['/debug/mp/collect']);

    expectError(await call('POST', debugPath(id), bob, {}), 404, 'INTEGRATION_NOT_FOUND');
    // The alias is GA4's: another type's integration is not found there (docs/api.md); the generic
    // route finds it, and its connector has no such action.
    const http = await call('POST', '/api/integrations', alice, {
      type: 'http',
      name: 'Hook',
      settings: { url: 'https://example.com/hook' },
    });
    const other = await call('POST', debugPath(http.json()._id), alice, {});
    if (name === 'the generic action route') expectError(other, 400, 'OPERATION_NOT_SUPPORTED');
    else expectError(other, 404, 'INTEGRATION_NOT_FOUND');
    expectError(await call('POST', debugPath(id), alice, { lead: { name: 5 } }), 400, 'INVALID_TYPE');
    expectError(await call('POST', debugPath(id), alice, { extra: true }), 400, 'VALIDATION_ERROR');
    expect((await call('POST', debugPath(id), null, {})).statusCode).toBe(401);
  });

  it('an integration with no secret yet answers INTEGRATION_NOT_CONNECTED', async () => {
    const created = await call('POST', '/api/integrations', alice, { type: 'ga', name: 'GA4' });
    expectError(await call('POST', debugPath(created.json()._id), alice, {}), 400, 'INTEGRATION_NOT_CONNECTED');
  });
});

describe('the generic action route', () => {
  it("answers an action the integration's connector does not declare as not supported, names from the URL as data", async () => {
    const { id } = await gaIntegration(alice);
    for (const name of ['nothing', 'constructor', '__proto__', 'toString']) {
      expectError(
        await call('POST', `/api/integrations/${id}/actions/${name}`, alice, {}),
        400,
        'OPERATION_NOT_SUPPORTED',
      );
    }
    expectError(
      await call('POST', '/api/integrations/not-an-id/actions/debug', alice, {}),
      404,
      'INTEGRATION_NOT_FOUND',
    );
    expect(emu.requests).toHaveLength(1);
  });
});
