import { count, eq } from 'drizzle-orm';
import { DateTime } from 'luxon';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { deliveries, deliveryAttempts, errorRecords, hookCounts, hooks, leads, users } from '../../db/schema';
import { accountIdOf, createDestination, createSource } from '../../test/routing-fixtures';
import { bearer, createTestApp, errorOf, logIn, type SignedInUser, signUp, type TestApp } from '../../test/test-app';
import { testDestination } from '../../test/test-destination';
import { foldHookCounts, HOOK_COUNTS_FOLD_AT } from './hooks.service';

const OWNER = { login: 'owner@example.com', password: 'Owner1234' };
const dest = testDestination();
let t: TestApp;
let owner: SignedInUser;

beforeAll(async () => {
  t = await createTestApp({
    owner: OWNER,
    delivery: { getConnector: dest.getConnector, random: () => 0 },
  });
  owner = await logIn(t, OWNER.login, OWNER.password);
});
afterAll(() => t.close());

type Method = 'GET' | 'POST' | 'PUT' | 'DELETE';
const call = (method: Method, url: string, user?: SignedInUser, payload?: object) =>
  t.app.inject({ method, url, payload, headers: user ? bearer(user.accessToken) : {} });

/** A signed-up account with a source → CRM and a few hooks in every state. */
async function account() {
  // Leftovers of earlier tests are delivered first: faults set after this hit this test's leads.
  await t.app.deliveryWorker.drain();
  const user = await signUp(t);
  const accountId = await accountIdOf(t.app.db, user.login);
  const crm = await createDestination(t.app.db, accountId, { name: 'My CRM' });
  const source = await createSource(t.app.db, accountId, {
    destinationIds: [crm],
    options: { filters: [{ field: 'name', op: 'notEmpty' }] },
  });
  const post = async (body: object) => (await call('POST', source.url, undefined, body)).json().hookId as string;
  return { user, accountId, crm, source, post };
}

describe('hooks API', () => {
  it('lists the account hooks with their deliveries, filters, searches and pages them', async () => {
    const a = await account();
    const first = await a.post({ name: 'Olena', phone: '0501234567' });
    const second = await a.post({ name: 'Taras' });
    const filtered = await a.post({ phone: '0671234567' });
    await t.app.deliveryWorker.drain();

    const all = await call('GET', '/api/hook', a.user);
    expect(all.statusCode).toBe(200);
    const body = all.json();
    expect(body.total).toBe(3);
    expect(body.data.map((h: { _id: string }) => h._id)).toEqual([filtered, second, first]);
    const delivered = body.data.find((h: { _id: string }) => h._id === first);
    expect(delivered).toMatchObject({
      status: 'delivered',
      lead: { name: 'Olena', phone: '+380501234567' },
      integration: { _id: a.source.id, type: 'webhook' },
      deliveries: [
        {
          destination: { _id: a.crm, name: 'My CRM', type: 'test-crm' },
          status: 'delivered',
          attempts: 1,
          lastError: null,
        },
      ],
    });
    expect(body.data[0]).toMatchObject({ status: 'filtered', reason: 'FILTERED: name notEmpty', deliveries: [] });

    const byStatus = (await call('GET', '/api/hook?status=filtered', a.user)).json();
    expect(byStatus).toMatchObject({ total: 1, data: [{ _id: filtered }] });
    const bySearch = (await call('GET', '/api/hook?search=taras', a.user)).json();
    expect(bySearch).toMatchObject({ total: 1, data: [{ _id: second }] });
    const page2 = (await call('GET', '/api/hook?page=2&limit=2', a.user)).json();
    expect(page2).toMatchObject({ total: 3, data: [{ _id: first }] });
    const byIntegration = (await call('GET', `/api/hook?integrationId=${a.source.id}`, a.user)).json();
    expect(byIntegration.total).toBe(3);

    const totals = (await call('GET', '/api/hook/total', a.user)).json();
    expect(totals).toEqual({
      total: 3,
      delivered: 2,
      failed: 0,
      pending: 0,
      filtered: 1,
      duplicate: 0,
      held: 0,
      hold: null,
    });
  });

  it('renews failed deliveries: due again now, attempts kept, then delivered', async () => {
    const a = await account();
    dest.failNext({ kind: 'permanent', status: 422 });
    const hookId = await a.post({ name: 'Retry me' });
    await t.app.deliveryWorker.drain();
    expect((await call('GET', '/api/hook?status=failed', a.user)).json().total).toBe(1);
    const renew = await call('PUT', '/api/hook', a.user, { ids: [hookId] });
    expect(renew.statusCode).toBe(200);
    expect(renew.json()).toEqual({ renewed: 1 });
    await t.app.deliveryWorker.drain();
    const [hook] = (await call('GET', '/api/hook', a.user)).json().data;
    expect(hook).toMatchObject({
      _id: hookId,
      status: 'delivered',
      deliveries: [{ status: 'delivered', attempts: 2 }],
    });
    const [d] = await t.app.db.select().from(deliveries).where(eq(deliveries.hookId, hookId));
    expect(await t.app.db.select().from(deliveryAttempts).where(eq(deliveryAttempts.deliveryId, d!.id))).toHaveLength(
      2,
    );
  });

  it('removes selected hooks, then all, with their leads and deliveries', async () => {
    const a = await account();
    const ids = [await a.post({ name: 'A' }), await a.post({ name: 'B' }), await a.post({ name: 'C' })];
    const removed = await call('POST', '/api/hook', a.user, { ids: [ids[0]] });
    expect(removed.json()).toEqual({ deleted: 1 });
    expect((await call('GET', '/api/hook', a.user)).json().total).toBe(2);
    expect((await call('DELETE', '/api/hook', a.user)).json()).toEqual({ deleted: 2 });
    expect((await call('GET', '/api/hook', a.user)).json()).toEqual({ data: [], total: 0 });
    expect(await t.app.db.select().from(leads).where(eq(leads.accountId, a.accountId))).toHaveLength(0);
    expect(await t.app.db.select().from(deliveries).where(eq(deliveries.accountId, a.accountId))).toHaveLength(0);
  });

  it("never shows or touches another account's hooks or integrations", async () => {
    const a = await account();
    const b = await account();
    const hookOfA = await a.post({ name: 'Private' });
    expect((await call('GET', '/api/hook', b.user)).json().total).toBe(0);
    expect(errorOf(await call('GET', `/api/hook?integrationId=${a.source.id}`, b.user))).toMatchObject({
      statusCode: 404,
      code: 'INTEGRATION_NOT_FOUND',
    });
    for (const method of ['POST', 'PUT'] as const) {
      expect(errorOf(await call(method, '/api/hook', b.user, { ids: [hookOfA] }))).toMatchObject({
        statusCode: 404,
        code: 'HOOK_NOT_FOUND',
      });
    }
    // One foreign id among own ones: nothing happens at all.
    const own = await b.post({ name: 'Mine' });
    expect((await call('POST', '/api/hook', b.user, { ids: [own, hookOfA] })).statusCode).toBe(404);
    expect((await call('GET', '/api/hook', b.user)).json().total).toBe(1);
    await call('DELETE', '/api/hook', b.user);
    expect(await t.app.db.select().from(hooks).where(eq(hooks.id, hookOfA))).toHaveLength(1);
    expect((await call('GET', '/api/hook/total', b.user)).json().total).toBe(0);
  });

  it('refuses bad input with keys', async () => {
    const a = await account();
    const cases: [Method, string, object | undefined][] = [
      ['GET', '/api/hook?page=0', undefined],
      ['GET', '/api/hook?limit=1000', undefined],
      ['GET', '/api/hook?status=lost', undefined],
      ['GET', '/api/hook?integrationId=not-a-uuid', undefined],
      ['GET', '/api/hook?unknown=1', undefined],
      ['POST', '/api/hook', {}],
      ['POST', '/api/hook', { ids: [] }],
      ['POST', '/api/hook', { ids: ['x'] }],
      ['PUT', '/api/hook', { ids: 'all' }],
      ['GET', '/api/legacy/api/admin/statistic?page=-1', undefined],
    ];
    for (const [method, url, payload] of cases) {
      const res = await call(method, url, a.user, payload);
      expect(res.statusCode, `${method} ${url} ${JSON.stringify(payload)}`).toBe(400);
      expect(errorOf(res).code).toMatch(/^[A-Z_0-9]+$/);
    }
  });

  it('needs a signed-in user', async () => {
    for (const [method, url] of [
      ['GET', '/api/hook'],
      ['GET', '/api/hook/total'],
      ['DELETE', '/api/hook'],
      ['POST', '/api/hook'],
      ['PUT', '/api/hook'],
      ['GET', '/api/legacy/api/admin/statistic'],
    ] as const) {
      expect((await call(method, url)).statusCode, `${method} ${url}`).toBe(401);
    }
  });
});

describe('GET /api/hook/:id', () => {
  it('answers the hook as listed plus every attempt per delivery, oldest first, redacted as stored', async () => {
    const a = await account();
    dest.failNext({ kind: 'retryable', status: 503 });
    const hookId = await a.post({ name: 'Olena', phone: '0501234567' });
    await t.app.deliveryWorker.drain();

    const pending = await call('GET', `/api/hook/${hookId}`, a.user);
    expect(pending.statusCode).toBe(200);
    expect(pending.json()).toMatchObject({
      _id: hookId,
      status: 'pending',
      deliveries: [{ status: 'pending', attempts: 1, lastError: 'HTTP 503', attemptsLog: [{ number: 1 }] }],
    });
    expect(pending.json().deliveries[0].nextAttemptAt).toEqual(expect.any(String));

    // The retry is due now rather than in a second.
    await t.app.db.update(deliveries).set({ nextAttemptAt: new Date() }).where(eq(deliveries.hookId, hookId));
    await t.app.deliveryWorker.drain();

    const res = await call('GET', `/api/hook/${hookId}`, a.user);
    expect(res.statusCode).toBe(200);
    const body = res.json();
    const [listed] = (await call('GET', '/api/hook', a.user)).json().data;
    const { deliveries: detailDeliveries, assignment, conversions, ...hookFields } = body;
    // A lead of a source that sends no conversion events (issue 33) has none.
    expect(conversions).toEqual([]);
    const { deliveries: listedDeliveries, ...listedFields } = listed;
    expect(hookFields).toEqual(listedFields);
    // Its source does not pass leads on: nobody held it.
    expect(assignment).toBeNull();
    expect(detailDeliveries).toHaveLength(1);
    const { attemptsLog, ...deliveryFields } = detailDeliveries[0];
    expect(deliveryFields).toEqual(listedDeliveries[0]);
    expect(deliveryFields).toMatchObject({ status: 'delivered', attempts: 2, destination: { name: 'My CRM' } });
    expect(attemptsLog).toHaveLength(2);
    expect(attemptsLog[0]).toMatchObject({
      number: 1,
      outcome: 'retryable',
      httpStatus: 503,
      error: 'HTTP 503',
      request: { method: 'POST', headers: { authorization: '[redacted]' }, body: { name: 'Olena' } },
      response: { status: 503, body: 'down' },
    });
    expect(attemptsLog[1]).toMatchObject({ number: 2, outcome: 'ok', error: null, response: { status: 201 } });
    for (const attempt of attemptsLog) {
      expect(attempt.durationMs).toEqual(expect.any(Number));
      expect(Number.isNaN(Date.parse(attempt.startedAt))).toBe(false);
    }
    expect(Date.parse(attemptsLog[0].startedAt)).toBeLessThanOrEqual(Date.parse(attemptsLog[1].startedAt));
  });

  it('shows a filtered hook with its reason and no deliveries', async () => {
    const a = await account();
    const hookId = await a.post({ phone: '0671234567' });
    const body = (await call('GET', `/api/hook/${hookId}`, a.user)).json();
    expect(body).toMatchObject({
      _id: hookId,
      status: 'filtered',
      reason: 'FILTERED: name notEmpty',
      deliveries: [],
    });
  });

  it("answers 404 for another account's hook or an unknown id, 400 for a malformed id, 401 signed out", async () => {
    const a = await account();
    const b = await account();
    const hookOfA = await a.post({ name: 'Private' });
    expect(errorOf(await call('GET', `/api/hook/${hookOfA}`, b.user))).toMatchObject({
      statusCode: 404,
      code: 'HOOK_NOT_FOUND',
    });
    expect(errorOf(await call('GET', '/api/hook/00000000-0000-4000-8000-000000000000', a.user))).toMatchObject({
      statusCode: 404,
      code: 'HOOK_NOT_FOUND',
    });
    const bad = await call('GET', '/api/hook/not-a-uuid', a.user);
    expect(bad.statusCode).toBe(400);
    expect(errorOf(bad).code).toBe('VALIDATION_ERROR');
    expect((await call('GET', `/api/hook/${hookOfA}`)).statusCode).toBe(401);
    // The static counters route is not taken for an id.
    expect((await call('GET', '/api/hook/total', a.user)).json()).toMatchObject({ total: 1 });
  });
});

describe('statistic', () => {
  it('counts leads per day: received, delivered, failed, pending, filtered', async () => {
    const a = await account();
    await a.post({ name: 'One' });
    await a.post({ name: 'Two' });
    await a.post({ phone: 'filtered' });
    dest.failNext({ kind: 'permanent' });
    await t.app.deliveryWorker.drain();
    const old = await a.post({ name: 'Yesterday' });
    await t.app.db
      .update(hooks)
      .set({ createdAt: new Date(Date.now() - 86_400_000) })
      .where(eq(hooks.id, old));
    const res = await call('GET', '/api/legacy/api/admin/statistic?page=1&limit=10', a.user);
    expect(res.statusCode).toBe(200);
    const body = res.json();
    expect(body).toMatchObject({ page: 1, limit: 10, total: 2 });
    // Days are the account's (Kyiv unless set), not UTC's.
    const today = DateTime.now().setZone('Europe/Kyiv').toISODate();
    expect(body.data[0]).toEqual({
      _id: today,
      date: today,
      received: 3,
      delivered: 1,
      failed: 1,
      pending: 0,
      filtered: 1,
      duplicate: 0,
      held: 0,
    });
    expect(body.data[1]).toMatchObject({ received: 1, pending: 1 });
    const second = (await call('GET', '/api/legacy/api/admin/statistic?page=2&limit=1', a.user)).json();
    expect(second).toMatchObject({ page: 2, limit: 1, total: 2, data: [{ received: 1 }] });
  });
});

describe('dashboard counters and chart', () => {
  it('count pending, failed and delivered the same way: /api/hook/total equals the statistic', async () => {
    const a = await account();
    await a.post({ name: 'Delivered' });
    dest.failNext({ kind: 'permanent' });
    await a.post({ name: 'Failed' });
    await t.app.deliveryWorker.drain();
    // Not drained: its delivery waits, so it is in processing on both.
    await a.post({ name: 'Pending' });
    // A source with no destination: stored and sent nowhere, so not "in processing" on either.
    const lonely = await createSource(t.app.db, a.accountId, { destinationIds: [] });
    const accepted = await call('POST', lonely.url, undefined, { name: 'Nowhere' });
    expect(accepted.json().status).toBe('accepted');

    const totals = (await call('GET', '/api/hook/total', a.user)).json();
    const stats = (await call('GET', '/api/legacy/api/admin/statistic?page=1&limit=10', a.user)).json();
    expect(stats.data).toHaveLength(1);
    const [day] = stats.data;
    expect({ delivered: totals.delivered, failed: totals.failed, pending: totals.pending }).toEqual({
      delivered: 1,
      failed: 1,
      pending: 1,
    });
    for (const key of ['delivered', 'failed', 'pending', 'filtered', 'duplicate', 'held'] as const) {
      expect(day[key], key).toBe(totals[key]);
    }
    expect(day.received).toBe(totals.total);
    expect(totals.total).toBe(4);
    const [stored] = (await call('GET', `/api/hook?integrationId=${lonely.id}`, a.user)).json().data;
    expect(stored).toMatchObject({ status: 'accepted', reason: 'NO_ACTIVE_DESTINATION' });
  });
});

describe('dashboard counters kept by the database', () => {
  /** What the counters must say: the account's hooks counted one by one. */
  async function counted(accountId: string) {
    const rows = await t.app.db
      .select({ status: hooks.status, n: count() })
      .from(hooks)
      .where(eq(hooks.accountId, accountId))
      .groupBy(hooks.status);
    const of = (...statuses: string[]) => rows.filter((r) => statuses.includes(r.status)).reduce((a, r) => a + r.n, 0);
    return {
      total: of(...rows.map((r) => r.status)),
      delivered: of('delivered'),
      failed: of('failed', 'partial'),
      pending: of('pending'),
      filtered: of('filtered'),
      duplicate: of('duplicate'),
      held: of('held'),
    };
  }
  const totalsOf = async (user: SignedInUser) => {
    const { hold: _hold, ...counters } = (await call('GET', '/api/hook/total', user)).json();
    return counters;
  };
  const counterRows = async (accountId: string) =>
    (await t.app.db.select({ n: count() }).from(hookCounts).where(eq(hookCounts.accountId, accountId)))[0]!.n;

  it('follow every change of the lead log: arrival, delivery, failure, renewal and removal', async () => {
    const a = await account();
    const ids = [await a.post({ name: 'One' }), await a.post({ name: 'Two' }), await a.post({ phone: '0671234567' })];
    expect(await totalsOf(a.user)).toEqual({ ...(await counted(a.accountId)), pending: 2, filtered: 1 });
    dest.failNext({ kind: 'permanent' });
    await t.app.deliveryWorker.drain();
    expect(await totalsOf(a.user)).toEqual({ ...(await counted(a.accountId)), delivered: 1, failed: 1 });

    expect((await call('PUT', '/api/hook', a.user, { ids: [ids[0], ids[1]] })).statusCode).toBe(200);
    await t.app.deliveryWorker.drain();
    expect(await totalsOf(a.user)).toEqual({ ...(await counted(a.accountId)), delivered: 2, failed: 0 });

    expect((await call('POST', '/api/hook', a.user, { ids: [ids[2]] })).statusCode).toBe(200);
    expect(await totalsOf(a.user)).toEqual({ ...(await counted(a.accountId)), total: 2, filtered: 0 });
  });

  it('fold into one row per status when read, and stay exact while leads arrive and reads fold at once', async () => {
    const a = await account();
    await Promise.all(Array.from({ length: 40 }, (_, i) => a.post({ name: `Lead ${i}` })));
    // Changes that cancel out, as a lead's hook passing through a status does.
    const churn = Array.from({ length: 20 }, () => [
      { accountId: a.accountId, status: 'pending' as const, n: 1 },
      { accountId: a.accountId, status: 'pending' as const, n: -1 },
    ]).flat();
    await t.app.db.insert(hookCounts).values(churn);
    expect(await counterRows(a.accountId)).toBeGreaterThan(HOOK_COUNTS_FOLD_AT);
    expect(await totalsOf(a.user)).toEqual({ ...(await counted(a.accountId)), total: 40 });
    expect(await counterRows(a.accountId)).toBeLessThanOrEqual(2);

    const posting = Array.from({ length: 60 }, (_, i) => a.post({ name: `More ${i}` }));
    const reading = Array.from({ length: 12 }, () => foldHookCounts(t.app.db, a.accountId));
    await Promise.all([...posting, ...reading, t.app.deliveryWorker.drain()]);
    await t.app.deliveryWorker.drain();
    await foldHookCounts(t.app.db, a.accountId);
    expect(await totalsOf(a.user)).toEqual({ ...(await counted(a.accountId)), total: 100, delivered: 100 });
  });

  it('go with a deleted account', async () => {
    const a = await account();
    await a.post({ name: 'Gone' });
    expect(await counterRows(a.accountId)).toBeGreaterThan(0);
    await t.app.db.delete(users).where(eq(users.id, a.accountId));
    expect(await counterRows(a.accountId)).toBe(0);
  });
});

describe('super-admin errors', () => {
  it('lists error records with the account, integration and attempts; restart delivers again', async () => {
    const a = await account();
    dest.failNext({ kind: 'permanent', status: 401 });
    const hookId = await a.post({ name: 'Broken auth' });
    await t.app.deliveryWorker.drain();
    const list = await call('GET', `/api/legacy/api/super-admin/errors?accountId=${a.accountId}`, owner);
    expect(list.statusCode).toBe(200);
    const body = list.json();
    expect(body.total).toBe(1);
    expect(body.data[0]).toMatchObject({
      account: { _id: a.accountId, login: a.user.login },
      integration: { _id: a.source.id, type: 'webhook' },
      destination: { _id: a.crm, type: 'test-crm' },
      hookId,
      message: 'HTTP 401',
      restartedAt: null,
      children: [{ number: 1, outcome: 'permanent', httpStatus: 401, error: 'HTTP 401' }],
    });
    const restart = await call('POST', `/api/legacy/api/super-admin/errors/${body.data[0]._id}`, owner);
    expect(restart.statusCode).toBe(200);
    expect(restart.json()).toMatchObject({ ok: true, restarted: true });
    await t.app.deliveryWorker.drain();
    const [d] = await t.app.db.select().from(deliveries).where(eq(deliveries.hookId, hookId));
    expect(d).toMatchObject({ status: 'delivered', attempts: 2 });
    const [record] = await t.app.db.select().from(errorRecords).where(eq(errorRecords.deliveryId, d!.id));
    expect(record!.restartedAt).not.toBeNull();
    const all = (await call('GET', '/api/legacy/api/super-admin/errors?page=1&limit=100', owner)).json();
    expect(all.total).toBeGreaterThanOrEqual(1);
  });

  it('is for privileged users only, and refuses bad input and unknown ids', async () => {
    const a = await account();
    expect((await call('GET', '/api/legacy/api/super-admin/errors', a.user)).statusCode).toBe(403);
    expect((await call('GET', '/api/legacy/api/super-admin/errors')).statusCode).toBe(401);
    const unknown = '00000000-0000-4000-8000-000000000000';
    expect((await call('POST', `/api/legacy/api/super-admin/errors/${unknown}`, a.user)).statusCode).toBe(403);
    expect(errorOf(await call('POST', `/api/legacy/api/super-admin/errors/${unknown}`, owner))).toMatchObject({
      statusCode: 404,
      code: 'ERROR_RECORD_NOT_FOUND',
    });
    expect((await call('POST', '/api/legacy/api/super-admin/errors/nope', owner)).statusCode).toBe(400);
    expect((await call('GET', '/api/legacy/api/super-admin/errors?accountId=x', owner)).statusCode).toBe(400);
    expect((await call('GET', '/api/legacy/api/super-admin/errors?limit=0', owner)).statusCode).toBe(400);
  });
});
