// AlphaSMS end to end against its emulator: connect (the key sealed and write-only), settings
// checked, leads from a website form texted once, landlines skipped with the reason on the hook,
// quiet hours waited out, AlphaSMS's errors inside 200 as delivery errors, and the SMS log.
import { ALPHASMS_EMULATOR_KEY, type AlphaEmulator, startAlphaSmsEmulator } from '@leadrelay/connectors/testing';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { deliveries, deliveryAttempts, destinationHealth, integrations } from '../../db/schema';
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
let emu: AlphaEmulator;
let alice: SignedInUser;
let bob: SignedInUser;
/** The worker's clock runs this far ahead of the real one (quiet hours are waited out by moving it). */
let ahead = 0;

const SETTINGS = {
  sender: 'LeadRelay',
  recipients: 'lead',
  leadTemplate: '{name}, дякуємо за заявку! Передзвонимо.',
  quietHours: { enabled: false, from: '21:00', to: '09:00' },
};

beforeAll(async () => {
  emu = await startAlphaSmsEmulator({ statusDelayMs: 1000 });
  t = await createTestApp({
    allowPrivateDestinations: true,
    crm: { alfasms: { apiUrl: emu.url } },
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

const call = (method: 'GET' | 'POST' | 'PUT' | 'DELETE', url: string, user: SignedInUser | null, body?: unknown) =>
  callAs(t, method, url, user, body);

async function smsIntegration(
  user: SignedInUser,
  settings: Record<string, unknown> = SETTINGS,
  apiKey = ALPHASMS_EMULATOR_KEY,
) {
  const created = await call('POST', '/api/integrations', user, { type: 'alfasms', name: 'SMS' });
  expect(created.statusCode).toBe(201);
  const id: string = created.json()._id;
  const connect = await call('PUT', `/api/admin/integration/${id}/connect`, user, { auth: { apiKey }, settings });
  expect(connect.statusCode).toBe(200);
  return { id, connect: connect.json() };
}

async function formTo(user: SignedInUser, destinationId: string, distributionId?: string) {
  const accountId = await accountIdOf(t.app.db, user.login);
  return createSource(t.app.db, accountId, { destinationIds: [destinationId], distributionId });
}

const post = (url: string, payload: Record<string, unknown>, headers: Record<string, string> = {}) =>
  t.app.inject({ method: 'POST', url, payload, headers });

async function deliveryOf(destinationId: string) {
  const [row] = await t.app.db.select().from(deliveries).where(eq(deliveries.destinationId, destinationId));
  return row!;
}

async function statusOf(id: string) {
  // Health updates follow the worker's events; give them a moment.
  for (let i = 0; i < 50; i++) {
    const [row] = await t.app.db.select().from(integrations).where(eq(integrations.id, id));
    if (row?.status === 'broken') return row;
    await new Promise((r) => setTimeout(r, 20));
  }
  const [row] = await t.app.db.select().from(integrations).where(eq(integrations.id, id));
  return row!;
}

describe('AlphaSMS connect', () => {
  it('stores the key sealed, never answers it, and shows the balance', async () => {
    const { id, connect } = await smsIntegration(alice);
    expect(connect).toMatchObject({ ok: true, status: 'ok', integration: { isConnected: true } });
    const [row] = await t.app.db.select().from(integrations).where(eq(integrations.id, id));
    expect(JSON.stringify(row!.auth)).not.toContain(ALPHASMS_EMULATOR_KEY);
    const read = await call('GET', `/api/integrations/${id}`, alice);
    expect(JSON.stringify(read.json())).not.toContain(ALPHASMS_EMULATOR_KEY);
    expect(read.json().settings).toMatchObject({ sender: 'LeadRelay', viber: false });

    emu.setBalance(123.45);
    expect((await call('GET', `/api/alfasms/balance/${id}`, alice)).json()).toEqual({
      amount: 123.45,
      currency: 'UAH',
    });
    expectError(await call('GET', `/api/alfasms/balance/${id}`, bob), 404, 'INTEGRATION_NOT_FOUND');
    expectError(await call('GET', '/api/alfasms/balance/not-an-id', alice), 404, 'INTEGRATION_NOT_FOUND');
    expect((await call('GET', `/api/alfasms/balance/${id}`, null)).statusCode).toBe(401);
  });

  it('the key can be saved and checked before the messages are set up; a lead then asks for the setup', async () => {
    const created = await call('POST', '/api/integrations', alice, { type: 'alfasms', name: 'SMS' });
    const id = created.json()._id;
    const connect = await call('PUT', `/api/admin/integration/${id}/connect`, alice, {
      auth: { apiKey: ALPHASMS_EMULATOR_KEY },
    });
    expect(connect.json()).toMatchObject({ ok: true, status: 'ok' });
    expect((await call('GET', `/api/alfasms/balance/${id}`, alice)).json()).toEqual({ amount: 500, currency: 'UAH' });
    const form = await formTo(alice, id);
    await post(form.url, { name: 'Олена', phone: '0501234567' });
    await t.app.deliveryWorker.drain();
    expect(await deliveryOf(id)).toMatchObject({ status: 'failed', lastError: 'INTEGRATION_SETTINGS_INVALID' });
    expect(await statusOf(id)).toMatchObject({ status: 'broken', statusReason: 'INTEGRATION_SETTINGS_INVALID' });
  });

  it('a refused key is a broken connection with a code the web translates', async () => {
    const { connect } = await smsIntegration(alice, SETTINGS, 'not-the-right-key');
    expect(connect).toMatchObject({ ok: false, status: 'broken', reason: 'ALPHASMS_ACCESS_DENIED' });
  });

  it('refuses bad settings with field errors: alpha-name, a landline manager, a missing template, an unknown placeholder', async () => {
    const created = await call('POST', '/api/integrations', alice, { type: 'alfasms', name: 'SMS' });
    const id = created.json()._id;
    const connect = (settings: Record<string, unknown>) =>
      call('PUT', `/api/admin/integration/${id}/connect`, alice, { settings });
    const fields = async (settings: Record<string, unknown>) => {
      const res = await connect(settings);
      expect(res.statusCode).toBe(400);
      // The answer's code is its first field's key (SMS_SENDER_INVALID …), as for a route's own schema.
      expect(res.json().code).toBe(res.json().errors[0].code);
      return res.json().errors.map((e: { field: string }) => e.field);
    };
    expect(await fields({ ...SETTINGS, sender: 'Компанія' })).toEqual(['settings.sender']);
    expect(
      await fields({ ...SETTINGS, recipients: 'both', managerTemplate: 'x', managerPhone: '044 234 56 78' }),
    ).toEqual(['settings.managerPhone']);
    expect(await fields({ ...SETTINGS, recipients: 'manager', managerPhone: '0671112233' })).toEqual([
      'settings.managerTemplate',
    ]);
    expect(await fields({ ...SETTINGS, leadTemplate: 'Привіт, {імʼя}' })).toEqual(['settings.leadTemplate']);
    expectError(
      await call('PUT', `/api/admin/integration/${id}/connect`, bob, { settings: SETTINGS }),
      404,
      'INTEGRATION_NOT_FOUND',
    );
  });
});

describe('AlphaSMS delivery', () => {
  it('a website lead is texted once, even when the form sends it twice, and the SMS log has it', async () => {
    const { id } = await smsIntegration(alice);
    const form = await formTo(alice, id);
    for (let i = 0; i < 2; i++) {
      const res = await post(form.url, { name: 'Олена', phone: '050 123 45 67' }, { 'idempotency-key': 'form-42' });
      expect(res.statusCode).toBe(i === 0 ? 202 : 200);
    }
    expect(await t.app.deliveryWorker.drain()).toBe(1);
    expect(emu.messages).toHaveLength(1);
    expect(emu.messages[0]).toMatchObject({
      phone: 380501234567,
      text: 'Олена, дякуємо за заявку! Передзвонимо.',
      signature: 'LeadRelay',
    });

    const delivery = await deliveryOf(id);
    expect(delivery).toMatchObject({
      status: 'delivered',
      externalId: String(emu.messages[0]!.msgId),
      lastError: null,
    });
    const log = await call('GET', `/api/legacy/api/admin/sms?integrationId=${id}`, alice);
    expect(log.json()).toMatchObject({
      total: 1,
      data: [
        {
          integration: { _id: id, name: 'SMS' },
          hookId: delivery.hookId,
          leadId: delivery.leadId,
          recipient: 'lead',
          phone: '380501234567',
          channel: 'sms',
          msgId: String(emu.messages[0]!.msgId),
          parts: 1,
          status: 'sent',
          cost: null,
        },
      ],
    });

    // The status task asks AlphaSMS; a second later the message is delivered.
    emu.advance(1000);
    expect(await t.app.periodic.runNow('sms-statuses')).toBe('ran');
    const after = await call('GET', `/api/legacy/api/admin/sms?integrationId=${id}&status=delivered`, alice);
    expect(after.json()).toMatchObject({ total: 1, data: [{ status: 'delivered', providerStatus: 'DELIVERED' }] });
  });

  it('texts the responsible manager from distribution, in Viber first when it is on', async () => {
    const { id } = await smsIntegration(alice, {
      ...SETTINGS,
      recipients: 'both',
      viber: true,
      managerTemplate: 'Нова заявка: {name} {phone}',
      managerPhone: '0671112233',
    });
    const accountId = await accountIdOf(t.app.db, alice.login);
    const managers = await createCollection(t.app.db, accountId, [{ id: '1', name: 'Taras', value: '+380931234567' }]);
    const form = await formTo(alice, id, managers);
    await post(form.url, { name: 'Ірина', phone: '0501234567' });
    await t.app.deliveryWorker.drain();
    expect(emu.messages.map((m) => [m.type, m.phone, m.text])).toEqual([
      ['viber+sms', 380501234567, 'Ірина, дякуємо за заявку! Передзвонимо.'],
      ['viber+sms', 380931234567, 'Нова заявка: Ірина +380501234567'],
    ]);
    const log = await call('GET', `/api/legacy/api/admin/sms?integrationId=${id}`, alice);
    expect(
      log
        .json()
        .data.map((m: { recipient: string; channel: string }) => `${m.recipient}:${m.channel}`)
        .sort(),
    ).toEqual(['lead:viber+sms', 'manager:viber+sms']);
  });

  it('a landline is skipped: the delivery is done with the reason on the hook, nothing is sent or retried', async () => {
    const { id } = await smsIntegration(alice);
    const form = await formTo(alice, id);
    emu.requests.length = 0;
    const res = await post(form.url, { name: 'Офіс', phone: '044 234 56 78' });
    await t.app.deliveryWorker.drain();
    expect(emu.requests).toHaveLength(0);
    const delivery = await deliveryOf(id);
    expect(delivery).toMatchObject({
      status: 'delivered',
      lastError: 'SMS_PHONE_NOT_MOBILE: +380442345678',
      externalId: null,
    });
    const hook = (await call('GET', `/api/hook/${res.json().hookId}`, alice)).json();
    expect(hook.status).toBe('delivered');
    expect(hook.deliveries[0]).toMatchObject({ status: 'delivered', lastError: 'SMS_PHONE_NOT_MOBILE: +380442345678' });
    expect((await call('GET', `/api/legacy/api/admin/sms?integrationId=${id}`, alice)).json().total).toBe(0);
  });

  it('a lead in quiet hours waits for their end without counting an attempt, then goes', async () => {
    // A window that covers the whole day but one minute: any lead falls in it.
    const { id } = await smsIntegration(alice, {
      ...SETTINGS,
      quietHours: { enabled: true, from: '00:00', to: '23:59' },
    });
    const form = await formTo(alice, id);
    emu.requests.length = 0;
    await post(form.url, { name: 'Ніч', phone: '0501234567' });
    expect(await t.app.deliveryWorker.drain()).toBe(1);
    expect(emu.requests).toHaveLength(0);
    const waiting = await deliveryOf(id);
    expect(waiting).toMatchObject({
      status: 'pending',
      attempts: 0,
      firstAttemptAt: null,
      lastError: 'SMS_QUIET_HOURS',
    });
    expect(waiting.nextAttemptAt.getTime()).toBeGreaterThan(Date.now());
    expect(await t.app.db.select().from(deliveryAttempts).where(eq(deliveryAttempts.deliveryId, waiting.id))).toEqual(
      [],
    );
    expect(await t.app.db.select().from(destinationHealth).where(eq(destinationHealth.destinationId, id))).toEqual([]);
    // Not due yet.
    expect(await t.app.deliveryWorker.drain()).toBe(0);

    // The window ends (the settings change here; the clock moves to the time it was due).
    await call('PUT', `/api/admin/integration/${id}/connect`, alice, { settings: SETTINGS });
    ahead = waiting.nextAttemptAt.getTime() - Date.now() + 1000;
    expect(await t.app.deliveryWorker.drain()).toBe(1);
    expect(emu.messages).toHaveLength(1);
    expect(await deliveryOf(id)).toMatchObject({ status: 'delivered', attempts: 1, lastError: null });
  });

  it('an alpha-name AlphaSMS refuses inside a 200 fails the delivery and marks the integration broken', async () => {
    const { id } = await smsIntegration(alice, { ...SETTINGS, sender: 'NotMine' });
    const form = await formTo(alice, id);
    await post(form.url, { name: 'Олена', phone: '0501234567' });
    await t.app.deliveryWorker.drain();
    expect(await deliveryOf(id)).toMatchObject({ status: 'failed', lastError: 'ALPHASMS_SENDER_INVALID' });
    const row = await statusOf(id);
    expect(row).toMatchObject({ status: 'broken', statusReason: 'ALPHASMS_SENDER_INVALID' });
    const [attempt] = await t.app.db.select().from(deliveryAttempts);
    expect(JSON.stringify(attempt?.request)).not.toContain(ALPHASMS_EMULATOR_KEY);
  });

  it('a transient error inside a 200, or a 503, is retried later; the next try sends once', async () => {
    const { id } = await smsIntegration(alice);
    const form = await formTo(alice, id);
    await post(form.url, { name: 'Олена', phone: '0501234567' });
    emu.setFault({ itemError: 'Gateway busy, try later', times: 1 });
    await t.app.deliveryWorker.drain();
    const first = await deliveryOf(id);
    expect(first).toMatchObject({
      status: 'pending',
      attempts: 1,
      lastError: 'ALPHASMS_ERROR: Gateway busy, try later',
    });
    emu.setFault({ status: 503, times: 1 });
    ahead = first.nextAttemptAt.getTime() - Date.now() + 1000;
    await t.app.deliveryWorker.drain();
    const second = await deliveryOf(id);
    expect(second).toMatchObject({ status: 'pending', attempts: 2 });
    expect(emu.messages).toHaveLength(0);
    ahead = second.nextAttemptAt.getTime() - Date.now() + 1000;
    await t.app.deliveryWorker.drain();
    expect(await deliveryOf(id)).toMatchObject({ status: 'delivered', attempts: 3 });
    expect(emu.messages).toHaveLength(1);
  });
});

describe('the SMS log', () => {
  it("pages, filters, and answers another account's integration as not found", async () => {
    const { id } = await smsIntegration(bob);
    const form = await formTo(bob, id);
    for (const phone of ['0501111111', '0502222222', '0503333333']) await post(form.url, { name: 'Лід', phone });
    await t.app.deliveryWorker.drain();
    const page = await call('GET', '/api/legacy/api/admin/sms?page=2&limit=2', bob);
    expect(page.json().total).toBe(3);
    expect(page.json().data).toHaveLength(1);
    expectError(
      await call('GET', `/api/legacy/api/admin/sms?integrationId=${id}`, alice),
      404,
      'INTEGRATION_NOT_FOUND',
    );
    expect(
      (await call('GET', '/api/legacy/api/admin/sms', alice))
        .json()
        .data.every((m: { integration: { _id: string } }) => m.integration._id !== id),
    ).toBe(true);
    expectError(await call('GET', '/api/legacy/api/admin/sms?status=lost', bob), 400, 'VALIDATION_ERROR');
    expectError(await call('GET', '/api/legacy/api/admin/sms?limit=1000', bob), 400, 'VALIDATION_ERROR');
    expectError(await call('GET', '/api/legacy/api/admin/sms?integrationId=xyz', bob), 400, 'VALIDATION_ERROR');
    expect((await call('GET', '/api/legacy/api/admin/sms', null)).statusCode).toBe(401);

    emu.setStatus(emu.messages[0]!.msgId, 'UNDELIVERABLE');
    await t.app.periodic.runNow('sms-statuses');
    const failed = await call('GET', '/api/legacy/api/admin/sms?status=undelivered', bob);
    expect(failed.json()).toMatchObject({
      total: 1,
      data: [{ msgId: String(emu.messages[0]!.msgId), providerStatus: 'UNDELIVERABLE' }],
    });
  });

  it("the integration's own log through the generic records route: its records only, paged and filtered", async () => {
    const first = await smsIntegration(bob);
    const second = await smsIntegration(bob);
    const form = await formTo(bob, first.id);
    const other = await formTo(bob, second.id);
    for (const phone of ['0501111111', '0502222222']) await post(form.url, { name: 'Лід', phone });
    await post(other.url, { name: 'Інший', phone: '0503333333' });
    await t.app.deliveryWorker.drain();

    const log = await call('GET', `/api/integrations/${first.id}/records/sms?limit=1`, bob);
    expect(log.statusCode).toBe(200);
    expect(log.json().total).toBe(2);
    expect(log.json().data).toEqual([
      expect.objectContaining({
        integration: { _id: first.id, name: 'SMS' },
        recipient: 'lead',
        phone: expect.stringMatching(/^380/),
        channel: 'sms',
        status: 'sent',
        parts: 1,
      }),
    ]);
    // The same messages as the spec's path answers for this integration.
    const spec = await call('GET', `/api/legacy/api/admin/sms?integrationId=${first.id}&limit=10`, bob);
    const all = await call('GET', `/api/integrations/${first.id}/records/sms?limit=10`, bob);
    expect(all.json()).toEqual(spec.json());

    expectError(await call('GET', `/api/integrations/${first.id}/records/sms`, alice), 404, 'INTEGRATION_NOT_FOUND');
    expectError(
      await call('GET', `/api/integrations/${first.id}/records/sms?status=lost`, bob),
      400,
      'VALIDATION_ERROR',
    );
    for (const kind of ['calls', 'constructor', '__proto__']) {
      expectError(
        await call('GET', `/api/integrations/${first.id}/records/${kind}`, bob),
        400,
        'OPERATION_NOT_SUPPORTED',
      );
    }
    expect((await call('GET', `/api/integrations/${first.id}/records/sms`, null)).statusCode).toBe(401);
    // The balance through the generic list route, as the screen reads it.
    expect((await call('GET', `/api/integrations/${first.id}/alfasms/lists/balance`, bob)).json()).toEqual({
      amount: expect.any(Number),
      currency: 'UAH',
    });
  });
});
