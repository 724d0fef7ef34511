// Bitrix24 end to end against its emulator, through the paths its definition declares (aliases of
// the generic routes) and the generic ones: connecting by the inbound webhook address (checked and
// tried by the connector, stored sealed by the server), the account, the lists and delivery.
import { type Bitrix24Emulator, startBitrix24Emulator } from '@leadrelay/connectors/bitrix24/emulator';
import { and, eq } from 'drizzle-orm';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { deliveries, integrations } from '../../db/schema';
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
let em: Bitrix24Emulator;
let alice: SignedInUser;
let bob: SignedInUser;

beforeAll(async () => {
  em = await startBitrix24Emulator();
  t = await createTestApp({ allowPrivateDestinations: true, crm: { bitrix24: { hosts: [em.host] } } });
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

async function b24Integration(user: SignedInUser, settings: Record<string, unknown> = {}): Promise<string> {
  const res = await call('POST', '/api/integrations', user, { type: 'bitrix24', name: 'Bitrix24', settings });
  expect(res.statusCode).toBe(201);
  return res.json()._id;
}
const body = (integrationId: string, webhookUrl = em.webhookUrl) => ({ integrationId, webhookUrl });

async function rowOf(id: string) {
  const [row] = await t.app.db.select().from(integrations).where(eq(integrations.id, id));
  return row!;
}

async function connected(user: SignedInUser, settings: Record<string, unknown> = {}) {
  const id = await b24Integration(user, settings);
  const res = await call('POST', '/api/bitrix24/connect', user, body(id));
  expect(res.json()).toEqual({ integrationId: id, type: 'bitrix24' });
  return id;
}

describe('Bitrix24 connect', () => {
  it('checks the inbound webhook with the portal, stores it sealed and never answers its code', async () => {
    const id = await b24Integration(alice);
    const res = await call('POST', '/api/bitrix24/connect', alice, body(id, `${em.webhookUrl}profile.json`));
    expect(res.json()).toEqual({ integrationId: id, type: 'bitrix24' });
    expect(em.calls('profile')).toHaveLength(1);
    const row = await rowOf(id);
    expect(JSON.stringify(row.auth)).not.toContain(em.webhookCode);
    expect(t.app.deps.secrets.open(row.auth!, id)).toEqual({ kind: 'webhook', webhookUrl: em.webhookUrl });
    for (const url of [`/api/integrations/${id}`, `/api/bitrix24/account/${id}`, '/api/integrations']) {
      expect((await call('GET', url, alice)).body).not.toContain(em.webhookCode);
    }
    expect((await call('GET', `/api/bitrix24/account/${id}`, alice)).json()).toEqual({
      connected: true,
      portal: em.host,
      userId: 1,
      webhook: `${em.url}/rest/1/••••/`,
    });
    const pipelines = (await call('GET', `/api/bitrix24/pipelines/${id}`, alice)).json();
    expect(pipelines.map((p: { name: string; stages: unknown[] }) => [p.name, p.stages.length])).toEqual([
      ['Загальна', 5],
      ['Опт', 4],
    ]);
    expect((await call('GET', `/api/integrations/${id}/bitrix24/users`, alice)).json()).toEqual([
      { id: '1', name: 'Анна Коваль' },
      { id: '2', name: 'Богдан Мельник' },
    ]);
    expect((await call('POST', `/api/admin/integration/${id}/check-connection`, alice)).json()).toEqual({
      ok: true,
      status: 'ok',
    });
  });

  it('an address that is not an inbound webhook, on another host, refused by the portal or without CRM says so; nothing is stored', async () => {
    const id = await b24Integration(alice);
    for (const bad of [`${em.url}/rest/1/`, `${em.url}/rest/api/${em.webhookCode}/`, 'not a url']) {
      const res = await call('POST', '/api/bitrix24/connect', alice, body(id, bad));
      expectError(res, 400, 'BITRIX24_WEBHOOK_URL_INVALID');
      expect(res.json().errors).toEqual([{ field: 'webhookUrl', code: 'BITRIX24_WEBHOOK_URL_INVALID' }]);
    }
    expectError(
      await call(
        'POST',
        '/api/bitrix24/connect',
        alice,
        body(id, `https://evil.example.com/rest/1/${em.webhookCode}/`),
      ),
      400,
      'BITRIX24_HOST_NOT_ALLOWED',
    );
    expect(em.calls()).toHaveLength(0);
    expectError(
      await call('POST', '/api/bitrix24/connect', alice, body(id, `${em.url}/rest/1/wrongcode12345/`)),
      400,
      'BITRIX24_WEBHOOK_REFUSED',
    );
    em.setScopes(['user']);
    expectError(await call('POST', '/api/bitrix24/connect', alice, body(id)), 400, 'BITRIX24_NO_CRM_SCOPE');
    em.reset();
    em.setFault({ status: 503 });
    expectError(await call('POST', '/api/bitrix24/connect', alice, body(id)), 424, 'BITRIX24_UNAVAILABLE');
    expect((await rowOf(id)).auth).toBeNull();
    expectError(await call('POST', '/api/bitrix24/connect', alice, { integrationId: id }), 400, 'REQUIRED');
  });

  it('only https portals without private destinations', async () => {
    const strict = await createTestApp({ crm: { bitrix24: { hosts: [em.host] } } });
    try {
      const user = await onUnlimitedPlan(strict, await signUp(strict));
      const created = await callAs(strict, 'POST', '/api/integrations', user, { type: 'bitrix24', name: 'B' });
      const id = created.json()._id;
      expectError(
        await callAs(strict, 'POST', '/api/bitrix24/connect', user, body(id)),
        400,
        'BITRIX24_HOST_NOT_ALLOWED',
      );
      expect(em.calls()).toHaveLength(0);
    } finally {
      await strict.close();
    }
  });

  it('credentials come only from the connect route; a stage gone is a broken connection', async () => {
    const id = await connected(alice);
    expectError(
      await call('PUT', `/api/admin/integration/${id}/connect`, alice, {
        auth: { kind: 'webhook', webhookUrl: 'https://evil.example.com/rest/1/abcdefgh1234/' },
      }),
      400,
      'OPERATION_NOT_SUPPORTED',
    );
    const moved = await call('PUT', `/api/admin/integration/${id}/connect`, alice, {
      settings: { target: 'deal', categoryId: 0, stageId: 203 },
    });
    expect(moved.json()).toMatchObject({ ok: false, reason: 'BITRIX24_STAGE_NOT_FOUND', status: 'broken' });
    const fixed = await call('PUT', `/api/admin/integration/${id}/connect`, alice, {
      settings: { target: 'deal', categoryId: 1, stageId: 203 },
    });
    expect(fixed.json()).toMatchObject({
      ok: true,
      integration: { status: 'ok', settings: { categoryId: 1, stageId: 203 } },
    });
  });

  it("another account's integration, another type, or no sign-in is refused", async () => {
    const bobs = await connected(bob);
    const before = em.calls().length;
    for (const id of [bobs, 'not-a-uuid']) {
      for (const url of ['pipelines', 'users', 'account']) {
        expectError(await call('GET', `/api/bitrix24/${url}/${id}`, alice), 404, 'INTEGRATION_NOT_FOUND');
      }
    }
    expectError(await call('POST', '/api/bitrix24/connect', alice, body(bobs)), 404, 'INTEGRATION_NOT_FOUND');
    expect(em.calls()).toHaveLength(before);
    expect((await call('GET', `/api/bitrix24/pipelines/${bobs}`, null)).statusCode).toBe(401);
    const notYet = await b24Integration(alice);
    expectError(await call('GET', `/api/bitrix24/pipelines/${notYet}`, alice), 400, 'INTEGRATION_NOT_CONNECTED');
    expect((await call('GET', `/api/bitrix24/account/${notYet}`, alice)).json()).toEqual({ connected: false });
  });
});

describe('Bitrix24 delivery through the worker', () => {
  async function pipeline(settings: Record<string, unknown> = {}, distribution?: string) {
    const crm = await connected(alice, settings);
    const accountId = await accountIdOf(t.app.db, alice.login);
    const distributionId = distribution
      ? await createCollection(t.app.db, accountId, [{ id: '1', name: 'Bohdan', value: distribution }])
      : null;
    const source = await createSource(t.app.db, accountId, { destinationIds: [crm], distributionId });
    return { crm, source };
  }
  const ingest = async (url: string, lead: object) => {
    const res = await t.app.inject({ method: 'POST', url, payload: lead });
    expect(res.statusCode).toBe(202);
  };
  const deliveryOf = async (crm: string) =>
    (await t.app.db.select().from(deliveries).where(eq(deliveries.destinationId, crm)))[0]!;
  const retryNow = async (crm: string) => {
    await t.app.db
      .update(deliveries)
      .set({ nextAttemptAt: new Date() })
      .where(and(eq(deliveries.destinationId, crm), eq(deliveries.status, 'pending')));
    await t.app.deliveryWorker.drain();
  };

  it('a lead arrives once as a deal in the pipeline and stage chosen, with its contact and the assignee from distribution', async () => {
    const { crm, source } = await pipeline({ target: 'deal', categoryId: 1, stageId: 203 }, '2');
    await ingest(source.url, {
      name: 'Olena Kovalenko',
      phone: '0501234567',
      email: 'olena@example.com',
      utm_source: 'google',
    });
    await t.app.deliveryWorker.drain();
    expect(em.deals).toHaveLength(1);
    const contact = em.contacts.at(-1)!;
    expect(em.deals[0]).toMatchObject({
      TITLE: 'Заявка: Olena Kovalenko',
      CATEGORY_ID: 1,
      STAGE_ID: 'C1:PREPARATION',
      ASSIGNED_BY_ID: 2,
      CONTACT_IDS: [Number(contact.ID)],
    });
    expect(contact).toMatchObject({ NAME: 'Olena', PHONE: [expect.objectContaining({ VALUE: '+380501234567' })] });
    expect(await deliveryOf(crm)).toMatchObject({ status: 'delivered', externalId: em.deals[0]!.ID });
  });

  it('a retried delivery after a lost answer does not make a second deal', async () => {
    const { crm, source } = await pipeline({ target: 'deal' });
    em.setFault({ isAnswerLost: true, method: 'crm.deal.add', times: 1 });
    await ingest(source.url, { name: 'Taras', phone: '+380671119999' });
    await t.app.deliveryWorker.drain();
    expect(em.deals).toHaveLength(1);
    expect(await deliveryOf(crm)).toMatchObject({ status: 'pending', attempts: 1 });
    await retryNow(crm);
    expect(em.deals).toHaveLength(1);
    expect(em.contacts).toHaveLength(2);
    expect(await deliveryOf(crm)).toMatchObject({ status: 'delivered', externalId: em.deals[0]!.ID });
  });

  it('QUERY_LIMIT_EXCEEDED that persists is retried later; the lead then lands once', async () => {
    const { crm, source } = await pipeline({ target: 'lead' });
    em.setFault({ status: 503, error: 'QUERY_LIMIT_EXCEEDED', times: 2 });
    await ingest(source.url, { name: 'Iryna', phone: '+380931112233' });
    await t.app.deliveryWorker.drain();
    expect(await deliveryOf(crm)).toMatchObject({ status: 'pending' });
    expect((await deliveryOf(crm)).lastError).toMatch(/^RATE_LIMITED: HTTP 503/);
    await retryNow(crm);
    expect(await deliveryOf(crm)).toMatchObject({ status: 'delivered' });
    expect(em.leads).toHaveLength(1);
  });

  it('a deleted webhook fails the delivery and marks the integration broken with a code the web translates', async () => {
    const { crm, source } = await pipeline({ target: 'deal' });
    em.revokeWebhook();
    await ingest(source.url, { name: 'Petro', phone: '+380503334455' });
    await t.app.deliveryWorker.drain();
    expect(await deliveryOf(crm)).toMatchObject({ status: 'failed', lastError: 'BITRIX24_WEBHOOK_REFUSED: HTTP 401' });
    await expect.poll(async () => (await rowOf(crm)).status).toBe('broken');
    expect((await rowOf(crm)).statusReason).toBe('BITRIX24_WEBHOOK_REFUSED: HTTP 401');
    em.reset();
    await call('POST', '/api/bitrix24/connect', alice, body(crm));
    expect(await rowOf(crm)).toMatchObject({ status: 'ok', statusReason: null });
  });
});
