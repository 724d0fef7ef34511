// Connecting a Horoshop shop (POST .../horoshop/auth), registering and removing our receiver
// (.../horoshop/webhooks) and what the integration page reads (GET .../horoshop), against the
// emulated shop.
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import {
  connectedShop,
  connectShop,
  type HoroshopTest,
  rowOf,
  type ShopSetup,
  shopSource,
  startHoroshopTest,
  storedAuth,
} from '../../test/horoshop-kit';
import { watchIntegrationUpdates } from '../../test/realtime-kit';
import { callAs, createTestApp, expectError, signUp, type TestApp } from '../../test/test-app';

let h: HoroshopTest;
beforeAll(async () => {
  h = await startHoroshopTest();
});
afterAll(() => h?.close());
beforeEach(() => {
  h.shop.setFault(null);
});

const state = (s: ShopSetup) => callAs(h.t, 'GET', `/api/integrations/${s.integrationId}/horoshop`, s.user);
const register = (s: ShopSetup) =>
  callAs(h.t, 'POST', `/api/integrations/${s.integrationId}/horoshop/webhooks`, s.user);

describe('POST /api/integrations/{id}/horoshop/auth', () => {
  it('checks the login and password with the shop, stores them sealed and answers data.integration', async () => {
    const s = await shopSource(h);
    const signIns = h.shop.requests.filter((r) => r.fn === 'auth').length;
    const live = watchIntegrationUpdates(h.t);
    const res = await connectShop(h, s, { domain: `${h.shop.url}/admin/` });
    expect(res.statusCode, res.body).toBe(200);
    expect(await live.about(s.integrationId)).toMatchObject({ status: 'ok', statusReason: null });
    live.stop();
    expect(res.json().data.integration).toMatchObject({
      _id: s.integrationId,
      type: 'horoshop',
      isConnected: true,
      status: 'ok',
      settings: { shopUrl: h.shop.url },
    });
    expect(h.shop.requests.filter((r) => r.fn === 'auth')).toHaveLength(signIns + 1);
    // Write-only: neither the password nor the token is ever answered, and neither is stored in clear.
    const stored = await storedAuth(h.t, s.integrationId);
    expect(stored).toMatchObject({ login: h.shop.login, password: h.shop.password, token: expect.any(String) });
    const raw = JSON.stringify((await rowOf(h.t, s.integrationId)).auth);
    for (const secret of [h.shop.password, stored.token as string]) {
      expect(raw).not.toContain(secret);
      expect(res.body).not.toContain(secret);
      expect((await state(s)).body).not.toContain(secret);
      expect((await callAs(h.t, 'GET', `/api/integrations/${s.integrationId}`, s.user)).body).not.toContain(secret);
    }
    expect((await state(s)).json()).toMatchObject({ shopUrl: h.shop.url, authMode: 'password', login: 'api' });
  });

  it('takes a token alone (it then works until it lapses)', async () => {
    const s = await shopSource(h);
    const login = await fetch(`${h.shop.url}/api/auth/`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ login: h.shop.login, password: h.shop.password }),
    });
    const { token } = ((await login.json()) as { response: { token: string } }).response;
    const res = await connectShop(h, s, { login: undefined, password: undefined, token });
    expect(res.statusCode, res.body).toBe(200);
    expect((await state(s)).json()).toMatchObject({ authMode: 'token', login: null });
  });

  it('a password the shop refuses is HOROSHOP_AUTH_FAILED and nothing is stored', async () => {
    const s = await shopSource(h);
    const res = await connectShop(h, s, { password: 'not-the-password' });
    expectError(res, 400, 'HOROSHOP_AUTH_FAILED');
    expect(res.body).not.toContain('not-the-password');
    expect((await rowOf(h.t, s.integrationId)).auth).toBeNull();
  });

  it('says which field is wrong: a missing password, an address that is no address, unknown fields', async () => {
    const s = await shopSource(h);
    const missing = await connectShop(h, s, { password: undefined });
    expectError(missing, 400, 'REQUIRED');
    expect(missing.json().errors).toEqual([{ field: 'password', code: 'REQUIRED' }]);
    const bad = await connectShop(h, s, { domain: 'not a shop' });
    expectError(bad, 400, 'HOROSHOP_DOMAIN_INVALID');
    expect(bad.json().errors).toEqual([{ field: 'domain', code: 'HOROSHOP_DOMAIN_INVALID' }]);
    expectError(await connectShop(h, s, { isAdmin: true }), 400, 'VALIDATION_ERROR');
    expectError(await connectShop(h, s, { login: ['api'] }), 400, 'INVALID_TYPE');
    expectError(await connectShop(h, s, { password: 'x'.repeat(200_000) }), 413, 'PAYLOAD_TOO_LARGE');
    expectError(await connectShop(h, s, { password: 'x'.repeat(600) }), 400, 'MAX_LENGTH_500');
  });

  it('an address that answers but is no Horoshop API is HOROSHOP_NOT_A_SHOP; a shop that is down HOROSHOP_UNAVAILABLE (424)', async () => {
    const s = await shopSource(h);
    expectError(await connectShop(h, s, { domain: h.crm.url }), 400, 'HOROSHOP_NOT_A_SHOP');
    h.shop.setFault({ status: 503 });
    expectError(await connectShop(h, s), 424, 'HOROSHOP_UNAVAILABLE');
  });

  it('a private address is refused when private destinations are not allowed (SSRF)', async () => {
    const plain: TestApp = await createTestApp();
    try {
      const user = await signUp(plain);
      const created = await callAs(plain, 'POST', '/api/integrations', user, { type: 'horoshop', name: 'Shop' });
      const res = await callAs(plain, 'POST', `/api/integrations/${created.json()._id}/horoshop/auth`, user, {
        domain: h.shop.url,
        login: 'api',
        password: 'x',
      });
      expectError(res, 400, 'HOROSHOP_DOMAIN_INVALID');
      expect(h.shop.requests.some((r) => (r.body as { password?: string } | undefined)?.password === 'x')).toBe(false);
    } finally {
      await plain.close();
    }
  });
});

describe('the receiver at the shop', () => {
  it('is registered for new orders at our secret URL, and registering again replaces it', async () => {
    const s = await connectedShop(h, false);
    const res = await register(s);
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json().data.webhook).toMatchObject({ status: 'active', registeredAt: expect.any(String) });
    const token = (await rowOf(h.t, s.integrationId)).hookToken;
    const mine = () => h.shop.state.subscriptions.filter((x) => x.targetUrl.endsWith(`/api/horoshop/webhook/${token}`));
    expect(mine()).toEqual([
      {
        id: expect.any(Number),
        event: 'order_created',
        targetUrl: `${h.t.app.deps.config.publicUrl}/api/horoshop/webhook/${token}`,
      },
    ]);
    expect((await register(s)).statusCode).toBe(200);
    expect(mine()).toHaveLength(1);

    const removed = await callAs(h.t, 'DELETE', `/api/integrations/${s.integrationId}/horoshop/webhooks`, s.user);
    expect(removed.statusCode).toBe(200);
    expect(removed.json().data.webhook.status).toBe('none');
    expect(mine()).toHaveLength(0);
  });

  it('needs a connected shop first; a shop whose five subscriptions are taken says so (HOROSHOP_REFUSED)', async () => {
    const s = await shopSource(h);
    expectError(await register(s), 400, 'INTEGRATION_NOT_CONNECTED');
    expect((await connectShop(h, s)).statusCode).toBe(200);
    h.shop.setFault({
      kind: 'error',
      message: 'Subscriptions limit for current event has been reached',
      fn: 'hooks/subscribe',
    });
    const res = await register(s);
    expectError(res, 424, 'HOROSHOP_REFUSED');
    expect(res.json().message).toBe('Subscriptions limit for current event has been reached');
  });
});

describe("another account's integration", () => {
  it('is 404 on every Horoshop path, as is an integration of another type', async () => {
    const s = await connectedShop(h, false);
    const mallory = await signUp(h.t);
    const other = await callAs(h.t, 'POST', '/api/integrations', s.user, { type: 'webhook', name: 'Form' });
    for (const id of [s.integrationId, other.json()._id, 'not-a-uuid']) {
      const who = id === s.integrationId ? mallory : s.user;
      expectError(await callAs(h.t, 'GET', `/api/integrations/${id}/horoshop`, who), 404, 'INTEGRATION_NOT_FOUND');
      expectError(
        await callAs(h.t, 'POST', `/api/integrations/${id}/horoshop/auth`, who, { domain: h.shop.url, token: 't' }),
        404,
        'INTEGRATION_NOT_FOUND',
      );
      for (const method of ['POST', 'DELETE'] as const) {
        expectError(
          await callAs(h.t, method, `/api/integrations/${id}/horoshop/webhooks`, who),
          404,
          'INTEGRATION_NOT_FOUND',
        );
      }
      expectError(
        await callAs(h.t, 'POST', `/api/integrations/${id}/horoshop/poll`, who),
        404,
        'INTEGRATION_NOT_FOUND',
      );
    }
    expectError(await callAs(h.t, 'GET', `/api/integrations/${s.integrationId}/horoshop`, null), 401, 'UNAUTHORIZED');
  });
});

describe('the generic paths the aliases stand for', () => {
  it('connect, read, register, remove and poll a shop as the spec paths do, with the same answers', async () => {
    const s = await shopSource(h);
    const generic = (method: 'GET' | 'POST' | 'DELETE', tail: string, body?: unknown) =>
      callAs(h.t, method, `/api/integrations/${s.integrationId}${tail}`, s.user, body);
    const missing = await generic('POST', '/connect', { domain: h.shop.url, login: 'api' });
    expectError(missing, 400, 'REQUIRED');
    expect(missing.json().errors).toEqual([{ field: 'password', code: 'REQUIRED' }]);
    expectError(
      await generic('POST', '/connect', { domain: h.shop.url, token: 't', isAdmin: true }),
      400,
      'VALIDATION_ERROR',
    );

    const connected = await generic('POST', '/connect', {
      domain: h.shop.url,
      login: h.shop.login,
      password: h.shop.password,
    });
    expect(connected.statusCode, connected.body).toBe(200);
    expect(connected.json().data.integration).toMatchObject({ isConnected: true, settings: { shopUrl: h.shop.url } });

    const registered = await generic('POST', '/source/subscription');
    expect(registered.statusCode, registered.body).toBe(200);
    expect(registered.json().data.webhook.status).toBe('active');
    expect((await generic('GET', '/source')).json()).toEqual((await state(s)).json());

    h.shop.createOrder({ name: 'Через загальний шлях' });
    const polled = await generic('POST', '/source/poll');
    expect(polled.statusCode, polled.body).toBe(200);
    expect(polled.json().data.poll).toMatchObject({ lastPollAt: expect.any(String), lastError: null });

    const removed = await generic('DELETE', '/source/subscription');
    expect(removed.json().data.webhook.status).toBe('none');
    expect((await state(s)).json().webhook.status).toBe('none');
  });

  it('are OPERATION_NOT_SUPPORTED for an integration that is no source of its own, and 404 for another account', async () => {
    const s = await shopSource(h);
    const form = await callAs(h.t, 'POST', '/api/integrations', s.user, { type: 'webhook', name: 'Form' });
    const id = form.json()._id;
    for (const [method, tail] of [
      ['GET', '/source'],
      ['POST', '/source/subscription'],
      ['DELETE', '/source/subscription'],
      ['POST', '/source/poll'],
      ['POST', '/connect'],
    ] as const) {
      expectError(
        await callAs(h.t, method, `/api/integrations/${id}${tail}`, s.user, method === 'POST' ? {} : undefined),
        400,
        'OPERATION_NOT_SUPPORTED',
      );
      const mallory = await signUp(h.t);
      expectError(
        await callAs(
          h.t,
          method,
          `/api/integrations/${s.integrationId}${tail}`,
          mallory,
          method === 'POST' ? {} : undefined,
        ),
        404,
        'INTEGRATION_NOT_FOUND',
      );
    }
  });
});
