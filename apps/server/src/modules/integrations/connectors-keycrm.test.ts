// KeyCRM end to end against its emulator, through the server and the delivery engine: connect with the
// API key (sealed, never answered; a refused key is a broken connection with its code), pipelines and
// statuses listed for the screen, a website lead as a card in the chosen pipeline and status, a
// pipeline deleted in KeyCRM as the delivery's reason, and a burst of 100 leads for one key with KeyCRM
// enforcing its per-key limit (scaled down) all delivered, none failed, no attempt burnt on the limit.

import {
  KEYCRM_EMULATOR_KEY,
  type KeycrmEmulator,
  PACE_KEY,
  startKeycrmEmulator,
} from '@leadrelay/connectors/keycrm/emulator';
import { eq, inArray } from 'drizzle-orm';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { deliveries, deliveryAttempts, integrations } from '../../db/schema';
import { connectionCache } from '../../delivery/connection-cache';
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
let emu: KeycrmEmulator;
let alice: SignedInUser;
let bob: SignedInUser;

beforeAll(async () => {
  emu = await startKeycrmEmulator();
  t = await createTestApp({ allowPrivateDestinations: true, crm: { keycrm: { apiUrl: emu.url } } });
  alice = await onUnlimitedPlan(t, await signUp(t));
  bob = await onUnlimitedPlan(t, await signUp(t));
});
afterAll(async () => {
  await t?.close();
  await emu?.close();
});
beforeEach(() => emu.reset());

const call = (method: 'GET' | 'POST' | 'PUT' | 'DELETE', url: string, user: SignedInUser | null, body?: unknown) =>
  callAs(t, method, url, user, body);

async function keycrmIntegration(user: SignedInUser, settings: Record<string, unknown>, apiKey = KEYCRM_EMULATOR_KEY) {
  const created = await call('POST', '/api/integrations', user, { type: 'keycrm', name: 'KeyCRM' });
  expect(created.statusCode).toBe(201);
  const id: string = created.json()._id;
  const connect = await call('PUT', `/api/admin/integration/${id}/connect`, user, { auth: { apiKey }, settings });
  expect(connect.statusCode).toBe(200);
  return { id, connect: connect.json() };
}

async function formTo(user: SignedInUser, destinationId: string) {
  return createSource(t.app.db, await accountIdOf(t.app.db, user.login), { destinationIds: [destinationId] });
}
const post = (url: string, payload: Record<string, unknown>) => t.app.inject({ method: 'POST', url, payload });

describe('KeyCRM connect', () => {
  it('stores the key sealed and never answers it; the pipelines with their statuses are listed for the screen', async () => {
    const { id, connect } = await keycrmIntegration(alice, { pipelineId: 1, statusId: 12 });
    expect(connect).toMatchObject({ ok: true, status: 'ok', integration: { isConnected: true } });
    const [row] = await t.app.db.select().from(integrations).where(eq(integrations.id, id));
    expect(JSON.stringify(row!.auth)).not.toContain(KEYCRM_EMULATOR_KEY);
    expect(JSON.stringify((await call('GET', `/api/integrations/${id}`, alice)).json())).not.toContain(
      KEYCRM_EMULATOR_KEY,
    );
    const lists = await call('GET', `/api/integrations/${id}/keycrm/lists/pipelines`, alice);
    expect(lists.statusCode).toBe(200);
    expect(JSON.stringify(lists.json())).toContain('Взяти в роботу');
    expectError(await call('GET', `/api/integrations/${id}/keycrm/lists/pipelines`, bob), 404, 'INTEGRATION_NOT_FOUND');
  });

  it('a key KeyCRM refuses is a broken connection that asks to connect again', async () => {
    const { connect } = await keycrmIntegration(alice, {}, 'kcrm-wrong-key-123456');
    expect(connect).toMatchObject({ ok: false, status: 'broken', reason: 'KEYCRM_KEY_REJECTED' });
  });

  it('refuses settings that are not ids, with field errors, and a key that cannot be a header', async () => {
    const created = await call('POST', '/api/integrations', alice, { type: 'keycrm', name: 'KeyCRM' });
    const id = created.json()._id;
    const bad = await call('PUT', `/api/admin/integration/${id}/connect`, alice, { settings: { pipelineId: 'one' } });
    expect(bad.statusCode).toBe(400);
    expect(bad.json().errors.map((e: { field: string }) => e.field)).toEqual(['settings.pipelineId']);
    const key = await call('PUT', `/api/admin/integration/${id}/connect`, alice, {
      auth: { apiKey: 'has spaces in it' },
    });
    expect(key.statusCode).toBe(400);
  });
});

describe('KeyCRM delivery', () => {
  it('a website lead becomes a card in the chosen pipeline and status, for the buyer it names', async () => {
    const { id } = await keycrmIntegration(alice, { pipelineId: 2, statusId: 22 });
    const form = await formTo(alice, id);
    expect(
      (await post(form.url, { name: 'Олена Коваленко', phone: '050 123 45 67', utm_source: 'google' })).statusCode,
    ).toBe(202);
    expect(await t.app.deliveryWorker.drain()).toBe(1);
    expect(emu.cards).toHaveLength(1);
    expect(emu.cards[0]).toMatchObject({
      pipeline_id: 2,
      status_id: 22,
      title: 'Лід: Олена Коваленко',
      utm_source: 'google',
    });
    expect(emu.buyers.find((b) => b.id === emu.cards[0]!.client_id)).toMatchObject({ full_name: 'Олена Коваленко' });
    const [delivery] = await t.app.db.select().from(deliveries).where(eq(deliveries.destinationId, id));
    expect(delivery).toMatchObject({ status: 'delivered', externalId: String(emu.cards[0]!.id) });
  });

  it('a pipeline deleted in KeyCRM fails the delivery with its code, and nothing is made', async () => {
    const { id } = await keycrmIntegration(alice, { pipelineId: 2, statusId: 22 });
    emu.removePipeline(2);
    const form = await formTo(alice, id);
    await post(form.url, { name: 'Олена', phone: '0501234567' });
    await t.app.deliveryWorker.drain();
    const [delivery] = await t.app.db.select().from(deliveries).where(eq(deliveries.destinationId, id));
    expect(delivery).toMatchObject({ status: 'failed', lastError: 'KEYCRM_PIPELINE_NOT_FOUND' });
    expect(emu.cards).toHaveLength(0);
  });

  it('100 leads for one key, KeyCRM enforcing its limit (60 per 800 ms here): all delivered, none failed, no attempt spent on the limit', async () => {
    emu.setRateLimit(60, 800);
    const { id } = await keycrmIntegration(alice, { pipelineId: 1, statusId: 12 });
    // The connection's pace, scaled as KeyCRM's window is (KEYCRM_PACE: 55 a minute, 20 s at most in a
    // call), in place of the one its connection check started with.
    connectionCache(id).clear();
    connectionCache(id).get(PACE_KEY, () => ({ limit: 55, windowMs: 800, maxWaitMs: 200 }));
    const form = await formTo(alice, id);
    for (let i = 0; i < 100; i++) {
      const res = await post(form.url, { name: `Покупець ${i}`, phone: `+38067${String(2_000_000 + i).slice(1)}` });
      expect(res.statusCode).toBe(202);
    }
    const mine = () => t.app.db.select().from(deliveries).where(eq(deliveries.destinationId, id));
    // Deferred deliveries are due again at their slot: the worker is run until none is left.
    for (let round = 0; round < 400; round++) {
      await t.app.deliveryWorker.drain();
      const rows = await mine();
      if (rows.every((r) => r.status === 'delivered' || r.status === 'failed')) break;
      await new Promise((r) => setTimeout(r, 100));
    }
    const rows = await mine();
    expect(rows).toHaveLength(100);
    expect(rows.filter((r) => r.status !== 'delivered')).toEqual([]);
    expect(emu.cards).toHaveLength(100);
    expect(new Set(emu.cards.map((c) => c.title)).size).toBe(100);
    // No delivery failed an attempt on the limit: each took exactly one counted attempt.
    const attempts = await t.app.db
      .select()
      .from(deliveryAttempts)
      .where(
        inArray(
          deliveryAttempts.deliveryId,
          rows.map((r) => r.id),
        ),
      );
    expect(attempts.filter((a) => a.outcome !== 'ok')).toEqual([]);
    expect(rows.every((r) => r.attempts === 1)).toBe(true);
  }, 120_000);
});
