import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { accountIdOf, createDestination, createSource } from '../../test/routing-fixtures';
import { createTestApp, signUp, type TestApp } from '../../test/test-app';
import { testDestination } from '../../test/test-destination';

const dest = testDestination();
const TOKEN = 'scrape-token-0123456789';
let t: TestApp;
beforeAll(async () => {
  t = await createTestApp({
    metricsToken: TOKEN,
    delivery: { getConnector: dest.getConnector, random: () => 0 },
  });
});
afterAll(() => t.close());

const scrape = async () => {
  const res = await t.app.inject({ method: 'GET', url: '/metrics' });
  expect(res.statusCode).toBe(200);
  expect(res.headers['content-type']).toMatch(/^text\/plain/);
  return res.body;
};
/** The value of one sample line, e.g. `leadrelay_deliveries_due` or `name{label="x"}`. */
const sample = (body: string, series: string) => {
  const line = body.split('\n').find((l) => l.startsWith(`${series} `));
  return line ? Number(line.slice(series.length + 1)) : undefined;
};

describe('/metrics', () => {
  it('counts leads and deliveries, times them, and shows how far behind delivery is', async () => {
    const user = await signUp(t);
    const accountId = await accountIdOf(t.app.db, user.login);
    const crm = await createDestination(t.app.db, accountId);
    const source = await createSource(t.app.db, accountId, { destinationIds: [crm] });
    const post = (name: string, phone: string) =>
      t.app.inject({ method: 'POST', url: source.url, payload: { name, phone } });
    expect((await post('Olena', '0501234567')).statusCode).toBe(202);
    expect((await post('Taras', '0677654321')).statusCode).toBe(202);
    expect((await post('Taras', '0677654321')).statusCode).toBe(200);

    const waiting = await scrape();
    expect(sample(waiting, 'leadrelay_leads_received_total{status="pending"}')).toBe(2);
    expect(sample(waiting, 'leadrelay_leads_received_total{status="duplicate"}')).toBe(1);
    expect(sample(waiting, 'leadrelay_deliveries_due')).toBe(2);
    expect(sample(waiting, 'leadrelay_oldest_due_delivery_seconds')).toBeGreaterThanOrEqual(0);

    dest.failNext({ kind: 'retryable' });
    await t.app.deliveryWorker.drain();
    const done = await scrape();
    expect(sample(done, 'leadrelay_delivery_attempts_total{outcome="ok",destination_type="test-crm"}')).toBe(1);
    expect(sample(done, 'leadrelay_delivery_attempts_total{outcome="retryable",destination_type="test-crm"}')).toBe(1);
    expect(sample(done, 'leadrelay_delivery_latency_seconds_count{destination_type="test-crm"}')).toBe(1);
    expect(sample(done, 'leadrelay_delivery_latency_seconds_bucket{le="1",destination_type="test-crm"}')).toBe(1);
    expect(sample(done, 'leadrelay_deliveries_due')).toBe(0);
    expect(sample(done, 'leadrelay_oldest_due_delivery_seconds')).toBe(0);
    expect(done).toMatch(/^leadrelay_process_resident_memory_bytes \d+/m);
  });

  it('answers a scraper off loopback only with the token', async () => {
    const away = { remoteAddress: '203.0.113.5' };
    const refused = await t.app.inject({ method: 'GET', url: '/metrics', ...away });
    expect(refused.statusCode).toBe(401);
    const wrong = await t.app.inject({
      method: 'GET',
      url: '/metrics',
      headers: { authorization: 'Bearer nope' },
      ...away,
    });
    expect(wrong.statusCode).toBe(401);
    const ok = await t.app.inject({
      method: 'GET',
      url: '/metrics',
      headers: { authorization: `Bearer ${TOKEN}` },
      ...away,
    });
    expect(ok.statusCode).toBe(200);
  });
});

describe('/api/ready', () => {
  it('is ready when the database answers with every migration applied', async () => {
    const res = await t.app.inject({ method: 'GET', url: '/api/ready' });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({ ready: true, checks: { database: true, migrations: true } });
  });

  it('is not ready where the worker should run but does not', async () => {
    const w = await createTestApp({ worker: true });
    try {
      await w.app.ready();
      expect((await w.app.inject({ method: 'GET', url: '/api/ready' })).json()).toMatchObject({
        ready: true,
        checks: { worker: true },
      });
      await w.app.deliveryWorker.stop();
      const res = await w.app.inject({ method: 'GET', url: '/api/ready' });
      expect(res.statusCode).toBe(503);
      expect(res.json()).toMatchObject({ ready: false, checks: { database: true, worker: false } });
    } finally {
      await w.close();
    }
  });
});
