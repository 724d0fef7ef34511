import { createSafeFetch, getConnector } from '@leadrelay/connectors';
import { type HttpEmulator, startHttpEmulator } from '@leadrelay/connectors/http/emulator';
import { eq, inArray, sql } from 'drizzle-orm';
import type pg from 'pg';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { buildApp } from '../app';
import { deliveries, deliveryAttempts, destinationHealth, errorRecords, hooks } from '../db/schema';
import { accountIdOf, createCollection, createDestination, createSource, fakeClock } from '../test/routing-fixtures';
import { createTestApp, signUp, type TestApp } from '../test/test-app';
import { testDestination } from '../test/test-destination';
import { CLAIM } from './queue';
import { STORE_SUCCESSES } from './result-batch';
import { DeliveryWorker, type DeliveryWorkerOptions } from './worker';

let t: TestApp;
let accountId: string;
let emulator: HttpEmulator;
const dest = testDestination();
type DeliverArgs = Parameters<NonNullable<typeof dest.connector.deliver>>;
/** The test destination's own delivery, for connectors that wrap it. */
const deliver = (...args: DeliverArgs) => dest.connector.deliver!(...args);
const HOUR = 3_600_000;

beforeAll(async () => {
  t = await createTestApp({ allowPrivateDestinations: true });
  accountId = await accountIdOf(t.app.db, (await signUp(t)).login);
  emulator = await startHttpEmulator();
});
afterAll(async () => {
  await emulator.close();
  await t.close();
});
afterEach(async () => {
  // Each test starts with an empty queue and healthy destinations.
  await t.app.db.delete(deliveries);
  await t.app.db.delete(destinationHealth);
  dest.failAlways(undefined);
  dest.setDelay(0);
  dest.received.length = 0;
  dest.calls.length = 0;
  dest.inputs.length = 0;
  emulator.reset();
});

function worker(clock: ReturnType<typeof fakeClock>, options: Partial<DeliveryWorkerOptions> = {}) {
  return new DeliveryWorker({
    db: t.app.db,
    events: t.app.events,
    log: t.app.log,
    now: clock.now,
    random: () => 0.5,
    getConnector: (slug) => (slug === 'test-crm' ? dest.connector : getConnector(slug)),
    fetch: createSafeFetch({ allowPrivate: true }),
    breaker: { threshold: 1_000 },
    ...options,
  });
}

async function ingest(url: string, body: object) {
  const res = await t.app.inject({ method: 'POST', url, payload: body });
  expect(res.statusCode).toBe(202);
  return res.json().hookId as string;
}

async function deliveryOf(hookId: string) {
  const [row] = await t.app.db.select().from(deliveries).where(eq(deliveries.hookId, hookId));
  return row!;
}

async function setup(extra: { distributionId?: string } = {}) {
  const crm = await createDestination(t.app.db, accountId);
  const source = await createSource(t.app.db, accountId, { destinationIds: [crm], ...extra });
  return { crm, source };
}

describe('delivery worker', () => {
  it('delivers a lead once with its idempotency key and assignee; the hook becomes delivered', async () => {
    const collection = await createCollection(t.app.db, accountId, [{ id: '1', name: 'Anna', value: 'u-anna' }]);
    const { source } = await setup({ distributionId: collection });
    const hookId = await ingest(source.url, { name: 'Olena', phone: '0501234567' });
    const w = worker(fakeClock(new Date()));
    expect(await w.drain()).toBe(1);
    expect(dest.received).toHaveLength(1);
    expect(dest.received[0]).toMatchObject({
      lead: { name: 'Olena', phone: '+380501234567' },
      assignee: { id: 'u-anna', name: 'Anna' },
    });
    const d = await deliveryOf(hookId);
    expect(d).toMatchObject({ status: 'delivered', attempts: 1, externalId: 'ext-1', leaseUntil: null });
    expect(dest.received[0]!.idempotencyKey).toBe(d.idempotencyKey);
    const attempts = await t.app.db.select().from(deliveryAttempts).where(eq(deliveryAttempts.deliveryId, d.id));
    expect(attempts).toMatchObject([{ number: 1, outcome: 'ok', httpStatus: 201 }]);
    const [hook] = await t.app.db.select().from(hooks).where(eq(hooks.id, hookId));
    expect(hook!.status).toBe('delivered');
  });

  it('retries with exponential backoff and full jitter, within bounds, honouring Retry-After', async () => {
    const { source } = await setup();
    const hookId = await ingest(source.url, { name: 'Retry' });
    const clock = fakeClock();
    const draws = [0, 0.999, 0.5, 0.25, 0.5];
    let i = 0;
    const w = worker(clock, { random: () => draws[i++ % draws.length]! });
    dest.failAlways({ kind: 'retryable' });
    const waits: number[] = [];
    for (let attempt = 1; attempt <= 5; attempt++) {
      await t.app.db.update(deliveries).set({ nextAttemptAt: clock.now() }).where(eq(deliveries.hookId, hookId));
      expect(await w.runOnce()).toBe(1);
      const d = await deliveryOf(hookId);
      expect(d.status).toBe('pending');
      waits.push(d.nextAttemptAt.getTime() - clock.now().getTime());
      clock.advance(1_000);
    }
    // ceilings 5 s, 10 s, 20 s, 40 s, 80 s; draws 0 (→ the 1 s floor), 0.999, 0.5, 0.25, 0.5
    expect(waits).toEqual([1_000, Math.floor(0.999 * 10_000), 10_000, 10_000, 40_000]);

    dest.failAlways(undefined);
    dest.failNext({ kind: 'retryable', status: 429, retryAfterMs: 120_000 });
    await t.app.db.update(deliveries).set({ nextAttemptAt: clock.now() }).where(eq(deliveries.hookId, hookId));
    await w.runOnce();
    const d = await deliveryOf(hookId);
    expect(d.nextAttemptAt.getTime() - clock.now().getTime()).toBe(120_000);
    expect(d.lastError).toBe('HTTP 429');
  });

  it('never waits more than an hour per step, and gives up 72 h after the first attempt: failed + error record', async () => {
    const { source } = await setup();
    const hookId = await ingest(source.url, { name: 'Doomed' });
    let d = await deliveryOf(hookId);
    const clock = fakeClock(d.nextAttemptAt);
    const start = clock.now().getTime();
    const w = worker(clock, { random: () => 0.999_999 });
    dest.failAlways({ kind: 'retryable' });
    let rounds = 0;
    while (d.status !== 'failed' && rounds++ < 500) {
      clock.set(d.nextAttemptAt);
      expect(await w.runOnce()).toBe(1);
      d = await deliveryOf(hookId);
      if (d.status === 'pending') {
        const wait = d.nextAttemptAt.getTime() - clock.now().getTime();
        expect(wait).toBeLessThanOrEqual(HOUR);
        expect(d.nextAttemptAt.getTime()).toBeLessThanOrEqual(start + 72 * HOUR);
      }
    }
    expect(d.status).toBe('failed');
    expect(clock.now().getTime()).toBe(start + 72 * HOUR);
    expect(d.lastError).toMatch(/^Gave up after 72 h/);
    const [record] = await t.app.db.select().from(errorRecords).where(eq(errorRecords.deliveryId, d.id));
    expect(record).toMatchObject({ accountId, message: d.lastError });
    const [hook] = await t.app.db.select().from(hooks).where(eq(hooks.id, hookId));
    expect(hook!.status).toBe('failed');
  });

  it('fails a permanent error at once with an error record', async () => {
    const { source } = await setup();
    const hookId = await ingest(source.url, { name: 'Bad' });
    dest.failNext({ kind: 'permanent', status: 422 });
    const w = worker(fakeClock(new Date()));
    expect(await w.drain()).toBe(1);
    const d = await deliveryOf(hookId);
    expect(d).toMatchObject({ status: 'failed', attempts: 1, lastError: 'HTTP 422' });
    const attempts = await t.app.db.select().from(deliveryAttempts).where(eq(deliveryAttempts.deliveryId, d.id));
    expect(attempts).toMatchObject([{ outcome: 'permanent', httpStatus: 422, response: { status: 422 } }]);
    expect(await t.app.db.select().from(errorRecords).where(eq(errorRecords.deliveryId, d.id))).toHaveLength(1);
  });

  it('treats an unexpected error as retryable', async () => {
    const { source } = await setup();
    const hookId = await ingest(source.url, { name: 'Flaky' });
    dest.failNext({ kind: 'throw' });
    await worker(fakeClock(new Date())).runOnce();
    expect(await deliveryOf(hookId)).toMatchObject({ status: 'pending', lastError: 'TypeError: fetch failed' });
  });

  it("takes a crashed worker's delivery again once its lease has expired", async () => {
    const { source } = await setup();
    const hookId = await ingest(source.url, { name: 'Crash' });
    const clock = fakeClock(new Date());
    const crashed = worker(clock, { workerId: 'crashed' });
    const rescuer = worker(clock, { workerId: 'rescuer' });
    expect(await crashed.claim(10)).toHaveLength(1); // and then the process dies
    expect(await deliveryOf(hookId)).toMatchObject({ status: 'running', leasedBy: 'crashed' });
    expect(await rescuer.runOnce()).toBe(0);
    clock.advance(29_000);
    expect(await rescuer.runOnce()).toBe(0);
    clock.advance(2_000);
    expect(await rescuer.runOnce()).toBe(1);
    expect(await deliveryOf(hookId)).toMatchObject({ status: 'delivered', attempts: 2, leasedBy: null });
    expect(dest.received).toHaveLength(1);
  });

  it('tells the connector when an earlier attempt may have made the record: a takeover, a timeout or a 5xx, not a 429', async () => {
    const { source } = await setup();
    // Ahead of the real time ingest stamps, so every lead is due at once.
    const clock = fakeClock(new Date(Date.now() + 60_000));
    const w = worker(clock, { workerId: 'w' });
    const doubts = () => dest.inputs.map((i) => i.outcomeUnknown ?? false);
    const retryNow = (hookId: string) =>
      t.app.db.update(deliveries).set({ nextAttemptAt: clock.now() }).where(eq(deliveries.hookId, hookId));

    // The normal path: a first attempt is never in doubt.
    await ingest(source.url, { name: 'First' });
    expect(await w.runOnce()).toBe(1);
    expect(doubts()).toEqual([false]);

    // A takeover: the crashed worker's call may have reached the destination.
    dest.inputs.length = 0;
    await ingest(source.url, { name: 'Taken over' });
    expect(await worker(clock, { workerId: 'crashed' }).claim(10)).toHaveLength(1);
    clock.advance(31_000);
    expect(await w.runOnce()).toBe(1);
    expect(doubts()).toEqual([true]);

    // 429 says nothing was made; the retry after it is not in doubt. A 503, and an error without an
    // answer (a dropped connection, a timeout), may have made the record: every later retry is.
    for (const [first, then] of [
      [{ kind: 'retryable', status: 429 }, [false]],
      [{ kind: 'retryable', status: 503 }, [true]],
      [{ kind: 'throw' }, [true]],
    ] as const) {
      dest.inputs.length = 0;
      const hookId = await ingest(source.url, { name: `After ${JSON.stringify(first)}` });
      dest.failNext(first);
      expect(await w.runOnce()).toBe(1);
      await retryNow(hookId);
      expect(await w.runOnce()).toBe(1);
      expect(doubts()).toEqual([false, ...then]);
      expect(await deliveryOf(hookId)).toMatchObject({ status: 'delivered', attempts: 2 });
    }

    // A stopping worker that gives back a lease mid-call: the next attempt is in doubt.
    dest.inputs.length = 0;
    const stopped = await ingest(source.url, { name: 'Released' });
    const stopping = worker(clock, { workerId: 'stopping' });
    expect(await stopping.claim(10)).toHaveLength(1);
    await stopping.stop(0);
    expect(await deliveryOf(stopped)).toMatchObject({ status: 'pending', leasedBy: null });
    expect(await w.runOnce()).toBe(1);
    expect(doubts()).toEqual([true]);
  });

  it('a result whose store loses the connection is stored again while the lease lasts, not sent twice', async () => {
    const { source } = await setup();
    const hookId = await ingest(source.url, { name: 'Restart' });
    // PostgreSQL restarts just as the result is stored: the first statement finds no connection.
    let lost = 0;
    const pool = (t.app.db as unknown as { $client: pg.Pool }).$client;
    const failing = new Proxy(pool, {
      get(target, prop, receiver) {
        if (prop !== 'query') return Reflect.get(target, prop, receiver);
        return (config: { name?: string }, ...rest: unknown[]) => {
          if (config?.name === STORE_SUCCESSES.name && lost === 0) {
            lost += 1;
            return Promise.reject(
              Object.assign(new Error('terminating connection due to administrator command'), { code: '57P01' }),
            );
          }
          return (target.query as (...args: unknown[]) => unknown)(config, ...rest);
        };
      },
    });
    const db = new Proxy(t.app.db, {
      get: (target, prop, receiver) => (prop === '$client' ? failing : Reflect.get(target, prop, receiver)),
    });
    const w = worker(fakeClock(new Date(Date.now() + 60_000)), { db });
    expect(await w.runOnce()).toBe(1);
    expect(lost).toBe(1);
    expect(dest.calls).toHaveLength(1);
    expect(await deliveryOf(hookId)).toMatchObject({ status: 'delivered', attempts: 1, leasedBy: null });
    const d = await deliveryOf(hookId);
    expect(await t.app.db.select().from(deliveryAttempts).where(eq(deliveryAttempts.deliveryId, d.id))).toHaveLength(1);
  });

  it('claims the oldest due first, then in arrival order, and nothing before its time', async () => {
    const { source } = await setup();
    const [first, second, third] = [
      await ingest(source.url, { name: 'First' }),
      await ingest(source.url, { name: 'Second' }),
      await ingest(source.url, { name: 'Third' }),
    ];
    const now = Date.now() + 60_000;
    // The second is a retry due a minute ago, the third one due in a minute, the first due now.
    await t.app.db
      .update(deliveries)
      .set({ nextAttemptAt: new Date(now - 60_000) })
      .where(eq(deliveries.hookId, second!));
    await t.app.db
      .update(deliveries)
      .set({ nextAttemptAt: new Date(now + 60_000) })
      .where(eq(deliveries.hookId, third!));
    await t.app.db
      .update(deliveries)
      .set({ nextAttemptAt: new Date(now) })
      .where(eq(deliveries.hookId, first!));
    const w = worker(fakeClock(new Date(now)), { leaseMs: 300_000 });
    expect((await w.claim(10)).map((c) => c.row.hookId)).toEqual([second, first]);
    const later = worker(fakeClock(new Date(now + 60_000)));
    expect((await later.claim(10)).map((c) => c.row.hookId)).toEqual([third]);
  });

  it('claims a batch in one round trip, with the lead and destination of each delivery', async () => {
    const { source, crm } = await setup();
    for (let n = 0; n < 5; n++) await ingest(source.url, { name: `Batch ${n}` });
    const { db, seen } = watchedDb(() => undefined);
    const claimed = await worker(fakeClock(new Date(Date.now() + 60_000)), { db }).claim(10);
    expect(seen.map((q) => q.name)).toEqual([CLAIM.name]);
    expect(claimed).toHaveLength(5);
    for (const c of claimed) {
      expect(c.row).toMatchObject({ status: 'running', attempts: 1, destinationId: crm });
      expect(c.row.leaseUntil).toBeInstanceOf(Date);
      expect(c.lead?.id).toBe(c.row.leadId);
      expect(c.destination?.id).toBe(crm);
      expect(c.hookDeliveries).toBe(1);
      expect(c.outcomeUnknown).toBe(false);
    }
    expect(claimed.map((c) => (c.lead?.fields as { name?: string } | undefined)?.name)).toEqual([
      'Batch 0',
      'Batch 1',
      'Batch 2',
      'Batch 3',
      'Batch 4',
    ]);
  });

  /** The test app's database with its pool's `query` seen (and, by `fail`, refused) by the test. */
  function watchedDb(fail: (name: string | undefined, values: unknown[]) => Error | undefined) {
    const pool = (t.app.db as unknown as { $client: pg.Pool }).$client;
    const seen: { name?: string; values: unknown[] }[] = [];
    const watched = new Proxy(pool, {
      get(target, prop, receiver) {
        if (prop !== 'query') return Reflect.get(target, prop, receiver);
        return (config: { name?: string; values?: unknown[] }, ...rest: unknown[]) => {
          seen.push({ name: config?.name, values: config?.values ?? [] });
          const error = fail(config?.name, config?.values ?? []);
          if (error) return Promise.reject(error);
          return (target.query as (...args: unknown[]) => unknown)(config, ...rest);
        };
      },
    });
    const db = new Proxy(t.app.db, {
      get: (target, prop, receiver) => (prop === '$client' ? watched : Reflect.get(target, prop, receiver)),
    });
    return { db, seen };
  }

  it('stores successes that finish together in one statement, each hook delivered and told', async () => {
    const { source } = await setup();
    const hookIds: string[] = [];
    for (let n = 0; n < 12; n++) hookIds.push(await ingest(source.url, { name: `Together ${n}` }));
    const { db, seen } = watchedDb(() => undefined);
    const told: string[] = [];
    const onChanged = ({ hookId }: { hookId: string }) => told.push(hookId);
    t.app.events.on('hook.changed', onChanged);
    try {
      expect(await worker(fakeClock(new Date()), { db }).runOnce()).toBe(12);
    } finally {
      t.app.events.off('hook.changed', onChanged);
    }
    const stores = seen.filter((q) => q.name === STORE_SUCCESSES.name);
    expect(stores).toHaveLength(1);
    expect(JSON.parse(String(stores[0]!.values[0]))).toHaveLength(12);
    for (const hookId of hookIds) {
      expect(await deliveryOf(hookId)).toMatchObject({ status: 'delivered', attempts: 1, leasedBy: null });
      const [hook] = await t.app.db.select().from(hooks).where(eq(hooks.id, hookId));
      expect(hook!.status).toBe('delivered');
    }
    expect(told.sort()).toEqual([...hookIds].sort());
    const attempts = await t.app.db
      .select()
      .from(deliveryAttempts)
      .innerJoin(deliveries, eq(deliveries.id, deliveryAttempts.deliveryId));
    expect(attempts).toHaveLength(12);
  });

  it('stores each success alone when the statement of several fails, so one bad result fails alone', async () => {
    const { source } = await setup();
    const hookIds: string[] = [];
    for (let n = 0; n < 5; n++) hookIds.push(await ingest(source.url, { name: `Alone ${n}` }));
    const thirdId = (await deliveryOf(hookIds[2]!)).id;
    // The batch fails as a whole; the third delivery's result fails on its own too.
    const { db, seen } = watchedDb((name, values) => {
      if (name !== STORE_SUCCESSES.name) return undefined;
      const results = JSON.parse(String(values[0])) as { id: string }[];
      const bad = results.length > 1 || results[0]?.id === thirdId;
      return bad ? Object.assign(new Error('invalid input syntax for type json'), { code: '22P02' }) : undefined;
    });
    expect(await worker(fakeClock(new Date()), { db }).runOnce()).toBe(5);
    const stores = seen.filter((q) => q.name === STORE_SUCCESSES.name).map((q) => JSON.parse(String(q.values[0])));
    expect(stores.map((batch) => batch.length)).toEqual([5, 1, 1, 1, 1, 1]);
    for (const [i, hookId] of hookIds.entries()) {
      const d = await deliveryOf(hookId);
      // The third stays leased: due again when the lease runs out, as any result that cannot be stored.
      expect(d.status).toBe(i === 2 ? 'running' : 'delivered');
    }
  });

  it('never delivers one delivery twice when two workers race', async () => {
    const { source } = await setup();
    const ids: string[] = [];
    for (let n = 0; n < 24; n++) ids.push(await ingest(source.url, { name: `L${n}` }));
    dest.setDelay(3);
    const clock = fakeClock(new Date());
    const [a, b] = [worker(clock, { workerId: 'a', concurrency: 4 }), worker(clock, { workerId: 'b', concurrency: 4 })];
    const [na, nb] = await Promise.all([a.drain(), b.drain()]);
    expect(na + nb).toBe(24);
    expect(dest.calls).toHaveLength(24);
    expect(new Set(dest.calls).size).toBe(24);
    const rows = await t.app.db.select().from(deliveries).where(inArray(deliveries.hookId, ids));
    expect(rows.every((r) => r.status === 'delivered' && r.attempts === 1)).toBe(true);
  });

  it('pauses a destination that keeps failing, probes it after the pause, then drains the backlog in order', async () => {
    const { crm, source } = await setup();
    const ids: string[] = [];
    for (let n = 0; n < 6; n++) ids.push(await ingest(source.url, { name: `B${n}` }));
    const clock = fakeClock(new Date());
    const paused: unknown[] = [];
    const onPause = (e: unknown) => paused.push(e);
    t.app.events.on('destination.paused', onPause);
    const w = worker(clock, { concurrency: 1, breaker: { threshold: 3, basePauseMs: 60_000 } });
    dest.failAlways({ kind: 'retryable' });
    for (let n = 0; n < 3; n++) {
      clock.advance(10_000);
      expect(await w.runOnce()).toBe(1);
    }
    const [health] = await t.app.db.select().from(destinationHealth).where(eq(destinationHealth.destinationId, crm));
    expect(health).toMatchObject({ consecutiveFailures: 3, pauses: 1 });
    expect(health!.pausedUntil!.getTime()).toBe(clock.now().getTime() + 60_000);
    expect(paused).toHaveLength(1);
    // Paused: nothing is claimed, though retries are due.
    clock.advance(59_000);
    expect(await w.runOnce()).toBe(0);
    // Still failing at the probe: paused again, twice as long. Only one delivery was tried.
    clock.advance(1_000);
    const wide = worker(clock, { concurrency: 8, breaker: { threshold: 3, basePauseMs: 60_000 } });
    expect(await wide.runOnce()).toBe(1);
    const [again] = await t.app.db.select().from(destinationHealth).where(eq(destinationHealth.destinationId, crm));
    expect(again!.pausedUntil!.getTime()).toBe(clock.now().getTime() + 120_000);
    // The destination is back: one probe, then everything in creation order; nothing dropped.
    dest.failAlways(undefined);
    clock.advance(120_000);
    expect(await wide.runOnce()).toBe(1);
    expect(await w.drain()).toBe(5);
    expect(dest.received.map((r) => r.lead.name)).toEqual(['B0', 'B1', 'B2', 'B3', 'B4', 'B5']);
    const rows = await t.app.db.select().from(deliveries).where(inArray(deliveries.hookId, ids));
    expect(rows.every((r) => r.status === 'delivered')).toBe(true);
    t.app.events.off('destination.paused', onPause);
  });

  it('runs up to `concurrency` deliveries at once', async () => {
    const { source } = await setup();
    for (let n = 0; n < 10; n++) await ingest(source.url, { name: `C${n}` });
    let running = 0;
    let most = 0;
    const counting = {
      ...dest.connector,
      async deliver(...args: DeliverArgs) {
        running++;
        most = Math.max(most, running);
        try {
          return await deliver(...args);
        } finally {
          running--;
        }
      },
    };
    dest.setDelay(30);
    const w = worker(fakeClock(), { concurrency: 4, getConnector: () => counting, now: () => new Date() });
    w.start();
    try {
      await vi.waitFor(() => expect(dest.calls).toHaveLength(10), { timeout: 5_000, interval: 10 });
    } finally {
      await w.stop();
    }
    expect(most).toBe(4);
    expect(new Set(dest.calls).size).toBe(10);
  });

  it('while a backlog waits, claims a batch when slots free up, not one claim per finished delivery', async () => {
    const { source } = await setup();
    const ids: string[] = [];
    for (let n = 0; n < 40; n++) ids.push(await ingest(source.url, { name: `Q${n}` }));
    // Calls end at different moments, as real destinations do.
    let call = 0;
    const staggered = {
      ...dest.connector,
      async deliver(...args: DeliverArgs) {
        await new Promise((r) => setTimeout(r, 2 + (call++ % 12) * 3));
        return deliver(...args);
      },
    };
    const w = worker(fakeClock(), { concurrency: 12, getConnector: () => staggered, now: () => new Date() });
    const claims: number[] = [];
    const claim = w.claim.bind(w);
    vi.spyOn(w, 'claim').mockImplementation(async (limit) => {
      const rows = await claim(limit);
      if (rows.length) claims.push(rows.length);
      return rows;
    });
    w.start();
    try {
      await vi.waitFor(() => expect(dest.calls).toHaveLength(40), { timeout: 10_000, interval: 10 });
    } finally {
      await w.stop();
    }
    // 12 at first, then at least 3 a claim (a quarter of the slots) but the last: at most 1 + 10
    // claims, where one claim per finished delivery would make about 28.
    expect(claims[0]).toBe(12);
    expect(claims.length).toBeLessThanOrEqual(11);
    expect(new Set(dest.calls).size).toBe(40);
    const rows = await t.app.db.select().from(deliveries).where(inArray(deliveries.hookId, ids));
    expect(rows.every((r) => r.status === 'delivered' && r.attempts === 1)).toBe(true);
  });

  it('sets the status of a hook with two destinations from both results, also when they finish together', async () => {
    const sms = testDestination('test-sms');
    const connectors = (slug: string) => (slug === 'test-sms' ? sms.connector : dest.connector);
    const crm = await createDestination(t.app.db, accountId);
    const text = await createDestination(t.app.db, accountId, { type: 'test-sms', name: 'SMS' });
    const source = await createSource(t.app.db, accountId, { destinationIds: [crm, text] });
    const statusOf = async (hookId: string) =>
      (await t.app.db.select().from(hooks).where(eq(hooks.id, hookId)))[0]!.status;
    const w = worker(fakeClock(), { getConnector: connectors, now: () => new Date() });
    // Both calls end at the same moment, many times over: the last result stored counts both.
    dest.setDelay(5);
    sms.setDelay(5);
    const both: string[] = [];
    for (let n = 0; n < 8; n++) both.push(await ingest(source.url, { name: `Two ${n}` }));
    expect(await w.drain()).toBe(16);
    for (const hookId of both) expect(await statusOf(hookId)).toBe('delivered');
    // One refuses the lead for good: partial; the hook is pending while the other still retries.
    sms.failAlways({ kind: 'permanent' });
    const partial = await ingest(source.url, { name: 'Half' });
    expect(await w.runOnce()).toBe(2);
    expect(await statusOf(partial)).toBe('partial');
    dest.failNext({ kind: 'retryable' });
    const waiting = await ingest(source.url, { name: 'Later' });
    expect(await w.runOnce()).toBe(2);
    expect(await statusOf(waiting)).toBe('pending');
  });

  it('starts at once on the ingest nudge and stops cleanly', async () => {
    const { source } = await setup();
    const w = worker(fakeClock(), { pollMs: 60_000, now: () => new Date() });
    w.start();
    try {
      const hookId = await ingest(source.url, { name: 'Fast' });
      await expect
        .poll(async () => (await deliveryOf(hookId)).status, { timeout: 2_000, interval: 10 })
        .toBe('delivered');
    } finally {
      await w.stop();
    }
  });
});

describe('the http destination through its emulator', () => {
  async function httpSetup() {
    const http = await createDestination(t.app.db, accountId, {
      type: 'http',
      name: 'Webhook out',
      settings: { url: emulator.hookUrl },
    });
    return createSource(t.app.db, accountId, { destinationIds: [http] });
  }

  it('delivers once per idempotency key, even when the worker repeats a call', async () => {
    const source = await httpSetup();
    const hookId = await ingest(source.url, { name: 'Real', phone: '0501234567' });
    const w = t.app.deliveryWorker;
    expect(await w.drain()).toBe(1);
    const d = await deliveryOf(hookId);
    expect(d.status).toBe('delivered');
    expect(emulator.records).toHaveLength(1);
    expect(emulator.records[0]!.idempotencyKey).toBe(d.idempotencyKey);
    // A crashed worker's repeat (same key) makes no second record at the destination.
    await t.app.db.update(deliveries).set({ status: 'pending' }).where(eq(deliveries.id, d.id));
    await w.drain();
    expect(emulator.records).toHaveLength(1);
    expect(emulator.records[0]!.hits).toBe(2);
  });

  it('waits for Retry-After on 503, fails at once on 400', async () => {
    const source = await httpSetup();
    emulator.setFault({ status: 503, retryAfter: 90, times: 1 });
    const hookId = await ingest(source.url, { name: 'Busy' });
    const clock = fakeClock(new Date(Date.now() + 1_000));
    const w = worker(clock, { random: () => 0 });
    await w.runOnce();
    let d = await deliveryOf(hookId);
    expect(d.status).toBe('pending');
    expect(d.nextAttemptAt.getTime() - clock.now().getTime()).toBe(90_000);
    clock.advance(90_000);
    await w.runOnce();
    d = await deliveryOf(hookId);
    expect(d.status).toBe('delivered');

    emulator.setFault({ status: 400 });
    const bad = await ingest(source.url, { name: 'Refused' });
    clock.set(new Date(Date.now() + 1_000));
    await w.runOnce();
    expect(await deliveryOf(bad)).toMatchObject({ status: 'failed', attempts: 1 });
  });

  it('stores an answer holding a NUL or half a UTF-16 pair, cleaned: delivered once, or retried with its reason', async () => {
    const source = await httpSetup();
    emulator.setFault({ status: 200, body: { id: 'rec\u00001', message: 'taken \ud800' }, times: 1 });
    const hookId = await ingest(source.url, { name: 'Olena', phone: '0501234567' });
    const w = t.app.deliveryWorker;
    await w.drain();
    const d = await deliveryOf(hookId);
    expect(d).toMatchObject({ status: 'delivered', externalId: 'rec1', attempts: 1 });
    const [attempt] = await t.app.db.select().from(deliveryAttempts).where(eq(deliveryAttempts.deliveryId, d.id));
    expect(attempt!.response).toMatchObject({ status: 200, body: { id: 'rec1', message: 'taken \ufffd' } });
    expect(emulator.requests).toHaveLength(1);

    emulator.setFault({ status: 500, body: { error: 'down\u0000 \udc00' }, times: 1 });
    const failing = await ingest(source.url, { name: 'Taras', phone: '0501234568' });
    await w.runOnce();
    expect(await deliveryOf(failing)).toMatchObject({
      status: 'pending',
      attempts: 1,
      lastError: 'HTTP 500: down \ufffd',
    });
  });
});

describe('the worker pool on PostgreSQL', () => {
  it('in ROLE=all the worker delivers while every connection of the API pool is busy', async () => {
    const both = await buildApp({
      databaseUrl: t.databaseUrl,
      role: 'all',
      worker: true,
      dbPoolSize: 2,
      workerDbPoolSize: 2,
      allowPrivateDestinations: true,
      delivery: { getConnector: (slug) => (slug === 'test-crm' ? dest.connector : getConnector(slug)) },
    });
    try {
      await both.ready();
      await both.deliveryWorker.stop(); // driven by hand below
      const { source } = await setup();
      const hookId = await ingest(source.url, { name: 'Busy API' });
      // Both API connections sleep (drizzle queries run when awaited: Promise.resolve starts
      // them now); a third API query then waits for one of them.
      const held = [1, 2].map(() => Promise.resolve(both.db.execute(sql`select pg_sleep(1.5)`)));
      await new Promise((r) => setTimeout(r, 100));
      let apiFree = false;
      const waiting = both.db.execute(sql`select 1`).then(() => {
        apiFree = true;
      });
      expect(await both.deliveryWorker.runOnce()).toBe(1);
      expect(apiFree).toBe(false);
      expect((await deliveryOf(hookId)).status).toBe('delivered');
      await Promise.all([...held, waiting]);
    } finally {
      await both.close();
    }
  });
});
