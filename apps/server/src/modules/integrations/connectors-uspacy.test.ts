// Uspacy end to end against its emulator, through the paths its definition declares (aliases of the
// generic routes) and the generic ones: connecting by password or incoming webhook (checked and
// traded by the connector, stored sealed by the server), the account, the lists and delivery.
import { startUspacyEmulator, type UspacyEmulator } from '@leadrelay/connectors/uspacy/emulator';
import { and, eq } from 'drizzle-orm';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { deliveries, errorRecords, integrations } from '../../db/schema';
import { watchIntegrationUpdates } from '../../test/realtime-kit';
import { accountIdOf, createCollection, createSource } from '../../test/routing-fixtures';
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
let em: UspacyEmulator;
let alice: SignedInUser;
let bob: SignedInUser;

beforeAll(async () => {
  em = await startUspacyEmulator();
  t = await createTestApp({ allowPrivateDestinations: true, crm: { uspacy: { hosts: [em.host] } } });
  alice = await onUnlimitedPlan(t, await signUp(t));
  bob = await onUnlimitedPlan(t, await signUp(t));
});
afterAll(async () => {
  await t?.close();
  await em?.close();
});
beforeEach(() => em.reset());

const call = (method: 'GET' | 'POST' | 'PUT', url: string, user: SignedInUser | null, body?: unknown) =>
  callAs(t, method, url, user, body);

async function uspacyIntegration(user: SignedInUser, settings: Record<string, unknown> = {}): Promise<string> {
  const res = await call('POST', '/api/integrations', user, { type: 'uspacy', name: 'Uspacy', settings });
  expect(res.statusCode).toBe(201);
  return res.json()._id;
}

const signInBody = (id: string, over: Record<string, unknown> = {}) => ({
  mode: 'password',
  integrationId: id,
  portal: em.url,
  email: em.email,
  password: em.password,
  ...over,
});
const webhookBody = (id: string, webhookUrl = em.webhookUrl) => ({ mode: 'webhook', integrationId: id, webhookUrl });

async function rowOf(id: string) {
  const [row] = await t.app.db.select().from(integrations).where(eq(integrations.id, id));
  return row!;
}

async function connected(user: SignedInUser, settings: Record<string, unknown> = {}, mode = 'password') {
  const id = await uspacyIntegration(user, settings);
  const res = await call('POST', '/api/uspacy/connect', user, mode === 'password' ? signInBody(id) : webhookBody(id));
  expect(res.json()).toEqual({ integrationId: id, type: 'uspacy', mode });
  return id;
}

describe('Uspacy connect', () => {
  it('signs in once and stores only sealed tokens; the account, lists and check answer from the portal', async () => {
    const id = await uspacyIntegration(alice);
    const live = watchIntegrationUpdates(t);
    const res = await call('POST', '/api/uspacy/connect', alice, signInBody(id));
    expect(res.statusCode).toBe(200);
    expect(em.signIns()).toBe(1);
    expect(await live.about(id)).toMatchObject({ status: 'ok', statusReason: null });
    live.stop();

    const row = await rowOf(id);
    const stored = JSON.stringify(row.auth);
    expect(stored).not.toContain(em.password);
    // No token (a JWT: base64 parts joined by dots, which the sealed envelope's base64 never has).
    expect(stored).not.toMatch(/eyJ[\w-]*\./);
    const opened = t.app.deps.secrets.open(row.auth!, id) as Record<string, unknown>;
    expect(opened).toMatchObject({ kind: 'password', portal: em.url, email: em.email, userId: 1 });
    expect(JSON.stringify(opened)).not.toContain(em.password);

    const integration = (await call('GET', `/api/integrations/${id}`, alice)).json();
    expect(integration).toMatchObject({ isConnected: true, status: 'ok' });
    expect(JSON.stringify(integration)).not.toContain(opened.jwt as string);
    expect((await call('GET', `/api/uspacy/account/${id}`, alice)).json()).toEqual({
      connected: true,
      mode: 'password',
      portal: em.host,
      email: em.email,
    });

    const funnels = (await call('GET', `/api/uspacy/leadFunnels/${id}`, alice)).json();
    expect(funnels.map((f: { title: string; stages: unknown[] }) => [f.title, f.stages.length])).toEqual([
      ['Вхідні заявки', 4],
      ['Партнери', 4],
    ]);
    const deals = (await call('GET', `/api/uspacy/dealFunnels/${id}`, alice)).json();
    expect(deals.map((f: { title: string }) => f.title)).toEqual(['Продажі', 'Опт']);
    const fields = (await call('GET', `/api/uspacy/fields/${id}`, alice)).json();
    expect(fields.contact.map((f: { code: string }) => f.code)).toEqual(['position', 'birthday', 'vip']);
    expect((await call('GET', `/api/uspacy/users/${id}`, alice)).json()).toEqual([
      { id: 1, name: 'Анна Коваль', email: 'anna@demo.test' },
      { id: 2, name: 'Богдан Мельник', email: 'bohdan@demo.test' },
    ]);
    // The generic lists answer the same.
    expect((await call('GET', `/api/integrations/${id}/uspacy/users`, alice)).json()).toEqual([
      { id: '1', name: 'Анна Коваль' },
      { id: '2', name: 'Богдан Мельник' },
    ]);
    const check = await call('POST', `/api/admin/integration/${id}/check-connection`, alice);
    expect(check.json()).toEqual({ ok: true, status: 'ok' });
    expect(em.calls().every((c) => c.auth === 'bearer')).toBe(true);
  });

  it('a wrong password, a portal outside the allowed hosts or a malformed one is refused; the password goes nowhere else', async () => {
    const id = await uspacyIntegration(alice);
    expectError(
      await call('POST', '/api/uspacy/connect', alice, signInBody(id, { password: 'wrong-password' })),
      400,
      'USPACY_SIGN_IN_FAILED',
    );
    for (const portal of ['https://acme.example.com', 'acme', 'ftp://x', 'https://user:pw@acme.uspacy.ua']) {
      const res = await call('POST', '/api/uspacy/connect', alice, signInBody(id, { portal }));
      expectError(res, 400, 'USPACY_PORTAL_INVALID');
      expect(res.json().errors).toEqual([{ field: 'portal', code: 'USPACY_PORTAL_INVALID' }]);
    }
    expect(em.signIns()).toBe(0);
    expect((await rowOf(id)).auth).toBeNull();
    expectError(
      await call('POST', '/api/uspacy/connect', alice, signInBody(id, { email: 'not-mail' })),
      400,
      'VALIDATION_ERROR',
    );
    expectError(
      await call('POST', '/api/uspacy/connect', alice, { mode: 'token', integrationId: id }),
      400,
      'VALIDATION_ERROR',
    );
  });

  it('a token naming another portal host than the one allowed is refused, and nothing is stored', async () => {
    for (const tokenDomain of ['evil.example.com', 'bad host/..']) {
      const other = await startUspacyEmulator({ tokenDomain });
      const hosts = t.app.deps.config.crm.uspacy!.hosts;
      t.app.deps.config.crm.uspacy!.hosts = [other.host];
      try {
        const id = await uspacyIntegration(alice);
        const res = await call('POST', '/api/uspacy/connect', alice, {
          ...signInBody(id),
          portal: other.url,
          email: other.email,
          password: other.password,
        });
        expectError(res, 400, 'CRM_HOST_NOT_ALLOWED');
        expect((await rowOf(id)).auth).toBeNull();
      } finally {
        t.app.deps.config.crm.uspacy!.hosts = hosts;
        await other.close();
      }
    }
  });

  it('only https portals in production: plain http is refused without private destinations', async () => {
    const strict = await createTestApp({ crm: { uspacy: { hosts: [em.host] } } });
    try {
      const user = await onUnlimitedPlan(strict, await signUp(strict));
      const created = await callAs(strict, 'POST', '/api/integrations', user, { type: 'uspacy', name: 'U' });
      const id = created.json()._id;
      expectError(
        await callAs(strict, 'POST', '/api/uspacy/connect', user, signInBody(id)),
        400,
        'USPACY_PORTAL_INVALID',
      );
      expectError(
        await callAs(strict, 'POST', '/api/uspacy/connect', user, webhookBody(id)),
        400,
        'USPACY_WEBHOOK_URL_INVALID',
      );
      expect(em.signIns()).toBe(0);
    } finally {
      await strict.close();
    }
  });

  it('connects by the incoming webhook: its URL is checked, tried, stored sealed and never answered', async () => {
    const id = await uspacyIntegration(alice);
    for (const bad of [
      'https://acme.uspacy.ua/company/v1/incoming_webhooks/run/abcdefgh1234',
      `${em.url}/company/v1/webhooks/${em.webhookKey}`,
      `${em.webhookUrl}/crm/v1/entities/leads`,
      'not a url',
    ]) {
      expectError(
        await call('POST', '/api/uspacy/connect', alice, webhookBody(id, bad)),
        400,
        'USPACY_WEBHOOK_URL_INVALID',
      );
    }
    const unknownKey = `${em.url}/company/v1/incoming_webhooks/run/notTheRealKey123`;
    expectError(
      await call('POST', '/api/uspacy/connect', alice, webhookBody(id, unknownKey)),
      400,
      'USPACY_WEBHOOK_REFUSED',
    );
    expect((await rowOf(id)).auth).toBeNull();

    const res = await call('POST', '/api/uspacy/connect', alice, webhookBody(id, `${em.webhookUrl}/`));
    expect(res.json()).toEqual({ integrationId: id, type: 'uspacy', mode: 'webhook' });
    expect(JSON.stringify((await rowOf(id)).auth)).not.toContain(em.webhookKey);
    for (const url of [`/api/integrations/${id}`, `/api/uspacy/account/${id}`, '/api/integrations']) {
      expect((await call('GET', url, alice)).body).not.toContain(em.webhookKey);
    }
    expect((await call('GET', `/api/uspacy/account/${id}`, alice)).json()).toEqual({
      connected: true,
      mode: 'webhook',
      portal: em.host,
    });
    expect(em.calls().every((c) => c.auth === 'webhook')).toBe(true);
  });

  it('credentials come only from the connect route; saved settings are checked against the portal', async () => {
    const id = await connected(alice);
    expectError(
      await call('PUT', `/api/admin/integration/${id}/connect`, alice, {
        auth: { kind: 'webhook', webhookUrl: 'https://evil.example.com/hook' },
      }),
      400,
      'OPERATION_NOT_SUPPORTED',
    );
    expectError(
      await call('PUT', `/api/admin/integration/${id}/connect`, alice, { settings: { target: 'company' } }),
      400,
      'VALIDATION_ERROR',
    );
    const moved = await call('PUT', `/api/admin/integration/${id}/connect`, alice, {
      settings: { target: 'lead', funnelId: 1, stageId: 202 },
    });
    expect(moved.json()).toMatchObject({ ok: false, reason: 'USPACY_STAGE_NOT_FOUND', status: 'broken' });
    const fixed = await call('PUT', `/api/admin/integration/${id}/connect`, alice, {
      settings: { target: 'lead', funnelId: 2, stageId: 202 },
    });
    expect(fixed.json()).toMatchObject({
      ok: true,
      integration: { status: 'ok', settings: { funnelId: 2, stageId: 202 } },
    });
  });

  it("another account's integration, another type, or no sign-in is refused", async () => {
    const bobs = await connected(bob);
    const http = await call('POST', '/api/integrations', alice, {
      type: 'http',
      name: 'Hook',
      settings: { url: 'https://example.com/hook' },
    });
    const before = em.calls().length;
    for (const id of [bobs, http.json()._id, 'not-a-uuid']) {
      for (const url of ['leadFunnels', 'dealFunnels', 'fields', 'users', 'account']) {
        expectError(await call('GET', `/api/uspacy/${url}/${id}`, alice), 404, 'INTEGRATION_NOT_FOUND');
      }
    }
    expectError(await call('POST', '/api/uspacy/connect', alice, webhookBody(bobs)), 404, 'INTEGRATION_NOT_FOUND');
    expectError(
      await call('POST', '/api/uspacy/connect', alice, webhookBody(http.json()._id)),
      404,
      'INTEGRATION_NOT_FOUND',
    );
    expect(em.calls()).toHaveLength(before);
    expect((await call('GET', `/api/uspacy/leadFunnels/${bobs}`, null)).statusCode).toBe(401);
    expect((await call('POST', '/api/uspacy/connect', null, webhookBody(bobs))).statusCode).toBe(401);
    const notYet = await uspacyIntegration(alice);
    expectError(await call('GET', `/api/uspacy/leadFunnels/${notYet}`, alice), 400, 'INTEGRATION_NOT_CONNECTED');
    expect((await call('GET', `/api/uspacy/account/${notYet}`, alice)).json()).toEqual({ connected: false });
  });
});

describe('Uspacy through the generic routes', () => {
  it('connects at …/credentials with what the connector checks, the integration from the path', async () => {
    const id = await uspacyIntegration(alice);
    const credentials = `/api/integrations/${id}/credentials`;
    const portal = await call('POST', credentials, alice, {
      mode: 'password',
      portal: 'https://acme.example.com',
      email: em.email,
      password: em.password,
    });
    expectError(portal, 400, 'USPACY_PORTAL_INVALID');
    expect(portal.json().errors).toEqual([{ field: 'portal', code: 'USPACY_PORTAL_INVALID' }]);
    expectError(await call('POST', credentials, alice, { mode: 'token' }), 400, 'VALIDATION_ERROR');
    expectError(
      await call('POST', credentials, alice, {
        mode: 'webhook',
        webhookUrl: `${em.url}/company/v1/incoming_webhooks/run/notTheRealKey123`,
      }),
      400,
      'USPACY_WEBHOOK_REFUSED',
    );
    expectError(
      await call('POST', credentials, bob, { mode: 'webhook', webhookUrl: em.webhookUrl }),
      404,
      'INTEGRATION_NOT_FOUND',
    );
    expect((await rowOf(id)).auth).toBeNull();
    const res = await call('POST', credentials, alice, { mode: 'webhook', webhookUrl: em.webhookUrl });
    expect(res.json()).toEqual({ integrationId: id, type: 'uspacy', mode: 'webhook' });
    const account = await call('GET', `/api/integrations/${id}/account`, alice);
    expect(account.json()).toEqual({ connected: true, mode: 'webhook', portal: em.host });
    expect(account.body).not.toContain(em.webhookKey);
    expect((await call('GET', `/api/uspacy/account/${id}`, alice)).json()).toEqual(account.json());
    expectError(await call('GET', `/api/integrations/${id}/account`, bob), 404, 'INTEGRATION_NOT_FOUND');
  });

  it('an integration of a connector that takes no typed-in credentials refuses them', async () => {
    const http = await call('POST', '/api/integrations', alice, {
      type: 'http',
      name: 'Hook',
      settings: { url: 'https://example.com/hook' },
    });
    const id = http.json()._id;
    expectError(
      await call('POST', `/api/integrations/${id}/credentials`, alice, { mode: 'webhook' }),
      400,
      'OPERATION_NOT_SUPPORTED',
    );
    expectError(await call('GET', `/api/integrations/${id}/account`, alice), 400, 'OPERATION_NOT_SUPPORTED');
    expectError(await call('POST', '/api/integrations/not-an-id/credentials', alice, {}), 404, 'INTEGRATION_NOT_FOUND');
  });
});

describe('Uspacy delivery through the worker', () => {
  async function pipeline(
    settings: Record<string, unknown> = {},
    options: { mode?: string; distribution?: string } = {},
  ) {
    const crm = await connected(alice, settings, options.mode);
    const accountId = await accountIdOf(t.app.db, alice.login);
    const distributionId = options.distribution
      ? await createCollection(t.app.db, accountId, [{ id: '1', name: 'Bohdan', value: options.distribution }])
      : null;
    const source = await createSource(t.app.db, accountId, { destinationIds: [crm], distributionId });
    return { crm, source };
  }
  const ingest = async (url: string, body: object) => {
    const res = await t.app.inject({ method: 'POST', url, payload: body });
    expect(res.statusCode).toBe(202);
    return res.json().hookId as string;
  };
  const deliveryOf = async (crm: string) =>
    (await t.app.db.select().from(deliveries).where(eq(deliveries.destinationId, crm)))[0]!;
  /** The delivery is due again now (as if its backoff had passed), and the worker runs. */
  const retryNow = async (crm: string) => {
    await t.app.db
      .update(deliveries)
      .set({ nextAttemptAt: new Date() })
      .where(and(eq(deliveries.destinationId, crm), eq(deliveries.status, 'pending')));
    await t.app.deliveryWorker.drain();
  };

  it('a lead arrives once, in the funnel and stage chosen, with its contact, the owner from distribution, a field and a comment', async () => {
    const { crm, source } = await pipeline(
      { funnelId: 2, stageId: 201, fields: [{ from: 'custom.city', entity: 'lead', code: 'city' }] },
      { distribution: '2' },
    );
    await ingest(source.url, {
      name: 'Olena Kovalenko',
      phone: '0501234567',
      email: 'olena@example.com',
      city: 'Lviv',
    });
    await t.app.deliveryWorker.drain();
    expect(em.contacts).toHaveLength(1);
    expect(em.leads).toHaveLength(1);
    expect(em.leads[0]).toMatchObject({
      title: 'Заявка: Olena Kovalenko',
      funnel_id: 2,
      kanban_stage_id: 201,
      owner: 2,
      city: 'Lviv',
      phone: [{ value: '+380501234567', type: 'work' }],
      contacts: [em.contacts[0]!.id],
    });
    expect(em.comments).toHaveLength(1);
    expect(await deliveryOf(crm)).toMatchObject({ status: 'delivered', externalId: String(em.leads[0]!.id) });
  });

  it('a retried delivery after a lost answer does not make a second lead', async () => {
    const { crm, source } = await pipeline({}, { mode: 'webhook' });
    em.setFault({ isAnswerLost: true, match: 'POST /crm/v1/entities/leads', times: 1 });
    await ingest(source.url, { name: 'Taras', phone: '+380671112233' });
    await t.app.deliveryWorker.drain();
    expect(em.leads).toHaveLength(1);
    expect(await deliveryOf(crm)).toMatchObject({ status: 'pending', attempts: 1 });

    await retryNow(crm);
    expect(em.leads).toHaveLength(1);
    expect(em.comments).toHaveLength(1);
    expect(await deliveryOf(crm)).toMatchObject({ status: 'delivered', externalId: String(em.leads[0]!.id) });
  });

  it('429 and 5xx wait and retry; the lead then lands once', async () => {
    const { crm, source } = await pipeline({ note: false });
    em.setFault({ status: 429, retryAfter: 60, times: 1 });
    await ingest(source.url, { name: 'Iryna', phone: '+380931112233' });
    await t.app.deliveryWorker.drain();
    const limited = await deliveryOf(crm);
    expect(limited).toMatchObject({ status: 'pending' });
    expect(limited.nextAttemptAt!.getTime()).toBeGreaterThanOrEqual(Date.now() + 55_000);
    expect(limited.lastError).toBe('RATE_LIMITED: HTTP 429: Too Many Attempts.');

    em.setFault({ status: 503, times: 1 });
    await retryNow(crm);
    expect(await deliveryOf(crm)).toMatchObject({ status: 'pending', attempts: 2 });
    await retryNow(crm);
    expect(await deliveryOf(crm)).toMatchObject({ status: 'delivered', attempts: 3 });
    expect(em.leads).toHaveLength(1);
  });

  it('an expired token is refreshed once for two deliveries; the new pair is stored sealed', async () => {
    const { crm, source } = await pipeline({ note: false });
    const before = t.app.deps.secrets.open((await rowOf(crm)).auth!, crm) as { refreshToken: string };
    em.expireTokens();
    await Promise.all([
      ingest(source.url, { name: 'A', phone: '+380501111111' }),
      ingest(source.url, { name: 'B', phone: '+380502222222' }),
    ]);
    await t.app.deliveryWorker.drain();
    expect(em.leads).toHaveLength(2);
    expect(em.refreshes()).toBe(1);
    const row = await rowOf(crm);
    const after = t.app.deps.secrets.open(row.auth!, crm) as { refreshToken: string };
    expect(after.refreshToken).not.toBe(before.refreshToken);
    expect(JSON.stringify(row.auth)).not.toContain(after.refreshToken);
    // The stored pair is the live one: the screens keep working without another refresh.
    expect((await call('GET', `/api/uspacy/users/${crm}`, alice)).statusCode).toBe(200);
    expect(em.refreshes()).toBe(1);
  });

  it('a session Uspacy ended fails the delivery and marks the integration broken with a code the web translates', async () => {
    const { crm, source } = await pipeline();
    em.revokeTokens();
    await ingest(source.url, { name: 'Petro', phone: '+380503334455' });
    await t.app.deliveryWorker.drain();
    expect(await deliveryOf(crm)).toMatchObject({ status: 'failed', lastError: 'USPACY_REFRESH_FAILED: HTTP 401' });
    await expect.poll(async () => (await rowOf(crm)).status).toBe('broken');
    // The code alone, no English words after it: the web translates it and says what to do.
    expect((await rowOf(crm)).statusReason).toBe('USPACY_REFRESH_FAILED: HTTP 401');
    // Signing in again heals it.
    await call('POST', '/api/uspacy/connect', alice, signInBody(crm));
    expect(await rowOf(crm)).toMatchObject({ status: 'ok', statusReason: null });
  });

  it("Uspacy's validation refusal becomes an error record carrying its words", async () => {
    const { crm, source } = await pipeline({ fields: [{ from: 'custom.budget', entity: 'lead', code: 'budget' }] });
    await t.app.db
      .update(integrations)
      .set({ settings: { target: 'lead', note: true, funnelId: 1, stageId: 301 } })
      .where(eq(integrations.id, crm));
    await ingest(source.url, { name: 'Olena', phone: '+380501234567' });
    await t.app.deliveryWorker.drain();
    const d = await deliveryOf(crm);
    expect(d).toMatchObject({
      status: 'failed',
      lastError: 'USPACY_VALIDATION: kanban_stage_id: The selected kanban stage id is invalid.',
    });
    const [record] = await t.app.db.select().from(errorRecords).where(eq(errorRecords.deliveryId, d.id));
    expect(record!.message).toContain('kanban_stage_id: The selected kanban stage id is invalid.');
  });
});
