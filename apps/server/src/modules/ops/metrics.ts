// Prometheus metrics (docs/operations.md). Counters and the latency histogram are this process's
// own (an API process counts leads, a worker deliveries: scrape every process); the queue gauges
// are read from the database at scrape time, so any process reports the same backlog.
import { sql } from 'drizzle-orm';
import { Counter, collectDefaultMetrics, Gauge, Histogram, Registry } from 'prom-client';
import { type Db, rowsOf } from '../../db/client';
import type { EngineEventBus } from '../../lib/events';

/** Receipt to acknowledgement, in seconds: the product promises under one. */
const LATENCY_BUCKETS = [0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30, 60, 300, 1800, 3600];

interface QueueRow {
  due: number;
  held: number;
  running: number;
  oldest_due_seconds: number | null;
  paused: number;
}

export function createMetrics(db: Db, events: EngineEventBus): Registry {
  const registry = new Registry();
  collectDefaultMetrics({ register: registry, prefix: 'leadrelay_' });

  const leads = new Counter({
    name: 'leadrelay_leads_received_total',
    help: "Leads answered by a source, by their hook's status (pending: queued for delivery; accepted: no destination; held, filtered, duplicate)",
    labelNames: ['status'],
    registers: [registry],
  });
  const attempts = new Counter({
    name: 'leadrelay_delivery_attempts_total',
    help: 'Delivery attempts by outcome (ok, retryable, permanent, deferred) and destination type',
    labelNames: ['outcome', 'destination_type'],
    registers: [registry],
  });
  const retries = new Counter({
    name: 'leadrelay_delivery_retries_total',
    help: 'Delivery attempts after the first, by destination type',
    labelNames: ['destination_type'],
    registers: [registry],
  });
  const latency = new Histogram({
    name: 'leadrelay_delivery_latency_seconds',
    help: "From a lead's receipt to the destination's acknowledgement, by destination type",
    labelNames: ['destination_type'],
    buckets: LATENCY_BUCKETS,
    registers: [registry],
  });

  events.on('lead.received', ({ status }) => leads.inc({ status }));
  events.on('delivery.attempted', (e) => {
    attempts.inc({ outcome: e.outcome, destination_type: e.destinationType });
    if (e.attempt > 1) retries.inc({ destination_type: e.destinationType });
    if (e.outcome === 'ok') {
      latency.observe(
        { destination_type: e.destinationType },
        (e.finishedAt.getTime() - e.receivedAt.getTime()) / 1000,
      );
    }
  });

  // One query per scrape feeds every queue gauge.
  let pending: Promise<QueueRow | undefined> | null = null;
  const queue = () => {
    pending ??= db
      .execute(sql`
        select
          (select count(*)::int from deliveries where status = 'pending' and next_attempt_at <= now()) as due,
          (select count(*)::int from deliveries where status = 'held') as held,
          (select count(*)::int from deliveries where status = 'running') as running,
          (select extract(epoch from now() - min(next_attempt_at))::float8 from deliveries
            where status = 'pending' and next_attempt_at <= now()) as oldest_due_seconds,
          (select count(*)::int from destination_health where paused_until > now()) as paused`)
      .then((result) => rowsOf<QueueRow>(result)[0])
      .finally(() => {
        setImmediate(() => {
          pending = null;
        });
      });
    return pending;
  };
  const gauge = (name: string, help: string, read: (row: QueueRow) => number) =>
    new Gauge({
      name,
      help,
      registers: [registry],
      async collect() {
        const row = await queue();
        this.set(row ? read(row) : 0);
      },
    });
  gauge('leadrelay_deliveries_due', 'Deliveries due now and not yet taken by a worker', (r) => r.due);
  gauge(
    'leadrelay_deliveries_held',
    "Deliveries held for the account's plan (expired or over its limit)",
    (r) => r.held,
  );
  gauge('leadrelay_deliveries_running', 'Deliveries a worker is attempting now', (r) => r.running);
  gauge(
    'leadrelay_oldest_due_delivery_seconds',
    'Age of the oldest due delivery: how far behind delivery is (0 when none is waiting)',
    (r) => Math.max(0, r.oldest_due_seconds ?? 0),
  );
  gauge('leadrelay_destinations_paused', 'Destinations paused by the circuit breaker', (r) => r.paused);
  return registry;
}
