// The delivery worker: the loop that claims due deliveries under a lease (queue.ts), calls each
// destination's connector and stores the result (finish.ts). The queue's rules live beside it.
import { randomBytes, randomUUID } from 'node:crypto';
import { hostname } from 'node:os';
import { setTimeout as sleep } from 'node:timers/promises';
import type { ConnectorContext, ConnectorDefinition, DeliveryResult } from '@leadrelay/connectors';
import { getConnector as defaultGetConnector, PermanentError, RetryableError } from '@leadrelay/connectors';
import type { FastifyBaseLogger } from 'fastify';
import type { Db, Executor } from '../db/client';
import { isConnectionLoss } from '../db/connection-loss';
import type { DeliveryRow, IntegrationRow, LeadRow } from '../db/schema';
import type { EngineEventBus } from '../lib/events';
import { createSecretBox, type SecretBox } from '../lib/secret-box';
import { storableText } from '../lib/storable-text';
import { buildConnectorContext, workerUnusable } from './connector-context';
import { classify, type FinishContext, finishDelivery, type Outcome } from './finish';
import { JobLoop } from './job-loop';
import { type BreakerPolicy, DEFAULT_BREAKER, DEFAULT_RETRY, type RetryPolicy } from './policy';
import { type ClaimedDelivery, claimDeliveries, releaseLeases } from './queue';
import { ResultBatch } from './result-batch';

/**
 * A destination type's bookkeeping of a successful delivery (the records its connector declares; a
 * delivery context's, such as the manager bot's cards), handed to the worker by app.ts from the
 * modules' `delivery` parts: it runs in the transaction that stores the result, with what the
 * connector reported in `result.records`.
 */
export type DeliveryRecorder = (tx: Executor, delivery: DeliveryRow, result: DeliveryResult) => Promise<void>;

/**
 * What a delivery context adds to a delivery before its connector is called (DeliveryInput.extra):
 * the manager bot's recipient chat and the lead's earlier cards, for a connector that declares
 * `manager-chat`. Handed to the worker by app.ts, like the recorders.
 */
export type DeliveryEnricher = (delivery: DeliveryRow, lead: LeadRow, destination: IntegrationRow) => Promise<unknown>;

export interface DeliveryWorkerOptions {
  db: Db;
  events: EngineEventBus;
  log: FastifyBaseLogger;
  /** The connector of a destination type (tests pass their own destinations). */
  getConnector?: (slug: string) => ConnectorDefinition<unknown, unknown> | undefined;
  /** The fetch connectors get (SSRF-safe in the app). */
  fetch?: typeof fetch;
  /** Opens destinations' stored credentials (the app's box; by default only unsealed ones open). */
  secrets?: SecretBox;
  /** OAuth client, API host, rotateAuth and withLock for a destination's connector (the app's runtime). */
  contextExtras?: (
    connector: ConnectorDefinition<unknown, unknown>,
    destinationId: string,
  ) => Partial<ConnectorContext<unknown, unknown>>;
  /** Recorders by destination type. */
  recorders?: Readonly<Record<string, DeliveryRecorder>>;
  /** Enrichers by destination type. */
  enrichers?: Readonly<Record<string, DeliveryEnricher>>;
  now?: () => Date;
  random?: () => number;
  workerId?: string;
  /** Deliveries under way at once (each mostly waits for its destination). */
  concurrency?: number;
  pollMs?: number;
  leaseMs?: number;
  /** One connector call may take this long; shorter than the lease so a live worker never loses it. */
  attemptTimeoutMs?: number;
  retry?: Partial<RetryPolicy>;
  breaker?: Partial<BreakerPolicy>;
}

/** Default `concurrency`: WORKER_CONCURRENCY's default (docs/benchmarks.md, issue 30: 1,000 leads/s to a destination answering in 50 ms keeps some 60 under way, bursts several times that). */
export const DEFAULT_WORKER_CONCURRENCY = 256;

export class DeliveryWorker {
  readonly id: string;
  private readonly db: Db;
  private readonly events: EngineEventBus;
  private readonly log: FastifyBaseLogger;
  private readonly getConnector: NonNullable<DeliveryWorkerOptions['getConnector']>;
  private readonly fetch: typeof fetch;
  private readonly secrets: SecretBox;
  private readonly contextExtras: NonNullable<DeliveryWorkerOptions['contextExtras']>;
  private readonly recorders: Readonly<Record<string, DeliveryRecorder>>;
  private readonly enrichers: Readonly<Record<string, DeliveryEnricher>>;
  private readonly now: () => Date;
  private readonly leaseMs: number;
  private readonly attemptTimeoutMs: number;
  private readonly results: FinishContext;
  private readonly loop: JobLoop<ClaimedDelivery>;
  private hasClaimed = false;

  constructor(options: DeliveryWorkerOptions) {
    this.db = options.db;
    this.events = options.events;
    this.log = options.log;
    this.getConnector = options.getConnector ?? defaultGetConnector;
    this.fetch = options.fetch ?? globalThis.fetch;
    this.secrets = options.secrets ?? createSecretBox(randomBytes(32));
    this.contextExtras = options.contextExtras ?? (() => ({}));
    this.recorders = options.recorders ?? {};
    this.enrichers = options.enrichers ?? {};
    this.now = options.now ?? (() => new Date());
    this.id = options.workerId ?? `${hostname()}:${process.pid}:${randomUUID().slice(0, 8)}`;
    this.leaseMs = options.leaseMs ?? 30_000;
    this.attemptTimeoutMs = options.attemptTimeoutMs ?? Math.min(20_000, this.leaseMs - 5_000);
    this.results = {
      db: this.db,
      events: this.events,
      log: this.log,
      workerId: this.id,
      now: this.now,
      random: options.random ?? Math.random,
      retry: { ...DEFAULT_RETRY, ...options.retry },
      breaker: { ...DEFAULT_BREAKER, ...options.breaker },
      successes: new ResultBatch(this.db, { workerId: this.id, now: this.now, log: this.log }),
    };
    this.loop = new JobLoop({
      name: 'delivery',
      log: this.log,
      concurrency: Math.max(1, options.concurrency ?? DEFAULT_WORKER_CONCURRENCY),
      pollMs: options.pollMs ?? 500,
      claim: (limit) => this.claim(limit),
      process: (claimed) => this.process(claimed),
      describe: (claimed) => ({ deliveryId: claimed.row.id }),
    });
  }

  /** Background loop: polls, and claims at once when ingest says deliveries are due. */
  /** Whether the claim loop runs (readiness). */
  get isRunning(): boolean {
    return this.loop.isRunning;
  }

  start(): void {
    if (this.loop.isRunning) return;
    this.events.on('deliveries.due', this.loop.wake);
    this.loop.start();
  }

  /**
   * Finishes the calls under way (up to graceMs: main.ts gives the whole shutdown 10 s), then
   * gives back any lease still held so another worker takes those deliveries at once.
   */
  async stop(graceMs = Math.min(this.attemptTimeoutMs + 1_000, 8_000)): Promise<void> {
    this.events.off('deliveries.due', this.loop.wake);
    await this.loop.stop(graceMs);
    if (!this.hasClaimed) return;
    await releaseLeases(this.db, this.id, this.now()).catch((error) =>
      this.log.error({ err: error }, 'releasing delivery leases failed'),
    );
  }

  /** Claims at once (another process said deliveries are due); a no-op unless the loop runs. */
  wake(): void {
    this.loop.wake();
  }

  /** Claims up to `concurrency` due deliveries and delivers them; the number handled. */
  runOnce(): Promise<number> {
    return this.loop.runOnce();
  }

  /** runOnce until nothing is due (tests). */
  drain(maxRounds = 1_000): Promise<number> {
    return this.loop.drain(maxRounds);
  }

  /** Takes up to `limit` due deliveries under this worker's lease (queue.ts). */
  async claim(limit: number): Promise<ClaimedDelivery[]> {
    const claimed = await claimDeliveries(this.db, {
      workerId: this.id,
      limit,
      now: this.now(),
      leaseMs: this.leaseMs,
      threshold: this.results.breaker.threshold,
    });
    if (claimed.length) this.hasClaimed = true;
    return claimed;
  }

  private async process({ row, lead, destination, hookDeliveries, outcomeUnknown }: ClaimedDelivery): Promise<void> {
    const startedAt = this.now();
    const started = performance.now();
    const outcome = await this.attempt(row, lead, destination, outcomeUnknown);
    const durationMs = Math.round(performance.now() - started);
    await this.storeResult(row, () =>
      finishDelivery(this.results, row, outcome, startedAt, durationMs, hookDeliveries === 1),
    );
    this.events.emit('delivery.attempted', {
      destinationType: destination?.type ?? 'unknown',
      outcome: outcome.kind,
      attempt: row.attempts,
      receivedAt: row.createdAt,
      finishedAt: this.now(),
    });
  }

  /**
   * Stores a result. When the connection is lost meanwhile (PostgreSQL restarting, a terminated
   * backend), it tries again while the lease lasts: a call that went through is then recorded
   * rather than made again by the worker that would take the delivery over once the lease runs
   * out (a destination without an idempotency key would get it twice). Never past the lease: then
   * the result is not ours to store. Should a lost answer hide a commit, the retry finds the lease
   * given up and stores nothing but a second attempt row.
   */
  private async storeResult(row: DeliveryRow, store: () => Promise<void>): Promise<void> {
    const leaseEnd = (row.leaseUntil ?? this.now()).getTime() - 1_000;
    for (let retry = 0; ; retry++) {
      try {
        return await store();
      } catch (error) {
        const waitMs = Math.min(250 * 2 ** retry, 2_000);
        if (!isConnectionLoss(error) || this.now().getTime() + waitMs >= leaseEnd) throw error;
        this.log.warn(
          { err: error, deliveryId: row.id, retryInMs: waitMs },
          'storing a delivery result failed: the database connection was lost; trying again while the lease lasts',
        );
        await sleep(waitMs);
      }
    }
  }

  private async attempt(
    row: DeliveryRow,
    lead: LeadRow | null,
    destination: IntegrationRow | null,
    outcomeUnknown = false,
  ): Promise<Outcome> {
    // The attempt's deadline, cleared when it ends: a pending timer (AbortSignal.timeout's cannot
    // be cleared) would keep every finished attempt's signal, listeners and what they reach alive
    // for the whole timeout, some 20 s of deliveries at 1,000 a second.
    const deadline = new AbortController();
    const timer = setTimeout(
      () => deadline.abort(new DOMException('The operation was aborted due to timeout', 'TimeoutError')),
      this.attemptTimeoutMs,
    );
    try {
      if (!destination || !lead) throw new PermanentError('The destination or the lead no longer exists');
      const connector = this.getConnector(destination.type);
      if (!connector?.deliver) throw new PermanentError(`No connector delivers to "${destination.type}"`);
      const signal = deadline.signal;
      const ctx = buildConnectorContext(connector, destination, {
        secrets: this.secrets,
        extras: this.contextExtras(connector, destination.id),
        fetch: this.fetch,
        logger: this.log.child({ deliveryId: row.id, destinationId: row.destinationId }),
        signal,
        unusable: workerUnusable,
      });
      const enricher = this.enrichers[destination.type];
      const extra = enricher ? await enricher(row, lead, destination) : undefined;
      const call = connector.deliver(ctx, {
        ...(extra !== undefined ? { extra } : {}),
        lead: lead.fields,
        idempotencyKey: row.idempotencyKey,
        ...(outcomeUnknown ? { outcomeUnknown } : {}),
        assignee: lead.assignee ?? undefined,
        raw: lead.raw,
      });
      // A connector that ignores the signal still cannot hold the lease.
      const result = await Promise.race([
        call,
        new Promise<never>((_, reject) => {
          signal.addEventListener('abort', () => reject(new RetryableError('Timed out')), { once: true });
        }),
      ]);
      // The destination's answer (its id, body, messages) is text from outside: made storable before
      // anything keeps it, or a NUL in it would fail the result's statement and the lease would run
      // out into the same call again and again (ADR 009).
      const done = storableText(result ?? {});
      const recorder = this.recorders[destination.type];
      return {
        kind: 'ok',
        result: done,
        wasBroken: destination.status === 'broken',
        ...(recorder && done.records?.length ? { record: (tx: Executor) => recorder(tx, row, done) } : {}),
      };
    } catch (error) {
      return storableText(classify(error));
    } finally {
      clearTimeout(timer);
    }
  }
}
