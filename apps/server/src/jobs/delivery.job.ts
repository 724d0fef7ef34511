// The delivery worker: claims due deliveries under a lease, calls the destination's connector,
// records every attempt, retries with backoff, pauses a destination that keeps failing.

import { randomBytes, randomUUID } from 'node:crypto';
import { hostname } from 'node:os';
import type { ConnectorDefinition, DeliveryResult } from '@leadrelay/connectors';
import { getConnector as defaultGetConnector, PermanentError, RetryableError } from '@leadrelay/connectors';
import type { AttemptOutcome, HookStatus } from '@leadrelay/shared';
import { and, eq, sql } from 'drizzle-orm';
import type { FastifyBaseLogger } from 'fastify';
import type { Db, Executor } from '../db/client';
import {
  type AttemptTraceJson,
  type DeliveryRow,
  deliveries,
  deliveryAttempts,
  destinationHealth,
  errorRecords,
  hooks,
  integrations,
  leads,
} from '../db/schema';
import type { EngineEventBus } from '../lib/events';
import { createSecretBox, type SecretBox, SecretUnreadableError } from '../lib/secret-box';
import { type BreakerPolicy, DEFAULT_BREAKER, DEFAULT_RETRY, nextRetryAt, type RetryPolicy } from './delivery-policy';

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
  now?: () => Date;
  random?: () => number;
  workerId?: string;
  concurrency?: number;
  pollMs?: number;
  leaseMs?: number;
  /** One connector call may take this long; shorter than the lease so a live worker never loses it. */
  attemptTimeoutMs?: number;
  retry?: Partial<RetryPolicy>;
  breaker?: Partial<BreakerPolicy>;
}

type Outcome =
  /** wasBroken: the destination was marked broken before this success (it recovers now). */
  | { kind: 'ok'; result: DeliveryResult; wasBroken?: boolean }
  | {
      kind: 'retryable' | 'permanent';
      message: string;
      /** The connector kit's reason (AUTH: the destination refused our credentials). */
      code?: string;
      httpStatus?: number;
      retryAfterMs?: number;
      trace: { request?: AttemptTraceJson; response?: AttemptTraceJson };
    };

const iso = (d: Date) => d.toISOString();
/** Rows of a raw query: both drivers answer { rows }. */
const rowsOf = <T>(result: unknown): T[] => (result as { rows: T[] }).rows;
const MAX_MESSAGE = 2000;
/** Permanent failures the user fixes by reconnecting: the destination is marked broken. */
const AUTH_FAILURES = new Set(['AUTH', 'INTEGRATION_AUTH_UNREADABLE']);

export class DeliveryWorker {
  readonly id: string;
  private readonly db: Db;
  private readonly events: EngineEventBus;
  private readonly log: FastifyBaseLogger;
  private readonly getConnector: NonNullable<DeliveryWorkerOptions['getConnector']>;
  private readonly fetch: typeof fetch;
  private readonly secrets: SecretBox;
  private readonly now: () => Date;
  private readonly random: () => number;
  private readonly concurrency: number;
  private readonly pollMs: number;
  private readonly leaseMs: number;
  private readonly attemptTimeoutMs: number;
  private readonly retry: RetryPolicy;
  private readonly breaker: BreakerPolicy;
  private readonly inflight = new Set<Promise<void>>();
  private timer: NodeJS.Timeout | undefined;
  private claiming = false;
  private again = false;
  private stopping = false;
  private hasClaimed = false;

  constructor(options: DeliveryWorkerOptions) {
    this.db = options.db;
    this.events = options.events;
    this.log = options.log;
    this.getConnector = options.getConnector ?? defaultGetConnector;
    this.fetch = options.fetch ?? globalThis.fetch;
    this.secrets = options.secrets ?? createSecretBox(randomBytes(32));
    this.now = options.now ?? (() => new Date());
    this.random = options.random ?? Math.random;
    this.id = options.workerId ?? `${hostname()}:${process.pid}:${randomUUID().slice(0, 8)}`;
    this.concurrency = options.concurrency ?? 8;
    this.pollMs = options.pollMs ?? 500;
    this.leaseMs = options.leaseMs ?? 30_000;
    this.attemptTimeoutMs = options.attemptTimeoutMs ?? Math.min(20_000, this.leaseMs - 5_000);
    this.retry = { ...DEFAULT_RETRY, ...options.retry };
    this.breaker = { ...DEFAULT_BREAKER, ...options.breaker };
  }

  /** Background loop: polls, and claims at once when ingest says deliveries are due. */
  start(): void {
    if (this.timer) return;
    this.stopping = false;
    this.events.on('deliveries.due', this.tick);
    this.timer = setInterval(this.tick, this.pollMs);
    this.tick();
  }

  /**
   * Finishes the calls under way (up to graceMs: main.ts gives the whole shutdown 10 s), then
   * gives back any lease still held so another worker takes those deliveries at once.
   */
  async stop(graceMs = Math.min(this.attemptTimeoutMs + 1_000, 8_000)): Promise<void> {
    this.stopping = true;
    if (this.timer) clearInterval(this.timer);
    this.timer = undefined;
    this.events.off('deliveries.due', this.tick);
    let timeout: NodeJS.Timeout | undefined;
    await Promise.race([
      Promise.allSettled([...this.inflight]),
      new Promise((resolve) => {
        timeout = setTimeout(resolve, graceMs);
      }),
    ]);
    clearTimeout(timeout);
    if (!this.hasClaimed) return;
    await this.db
      .update(deliveries)
      .set({ status: 'pending', leaseUntil: null, leasedBy: null, nextAttemptAt: this.now() })
      .where(and(eq(deliveries.leasedBy, this.id), eq(deliveries.status, 'running')))
      .catch((error) => this.log.error({ err: error }, 'releasing delivery leases failed'));
  }

  /** Claims at once (another process said deliveries are due); a no-op unless the loop runs. */
  wake(): void {
    if (this.timer) this.tick();
  }

  /** Claims up to `concurrency` due deliveries and delivers them; the number handled. */
  async runOnce(): Promise<number> {
    const rows = await this.claim(this.concurrency);
    await Promise.all(rows.map((row) => this.process(row)));
    return rows.length;
  }

  /** runOnce until nothing is due (tests). */
  async drain(maxRounds = 1_000): Promise<number> {
    let total = 0;
    for (let round = 0; round < maxRounds; round++) {
      const handled = await this.runOnce();
      if (!handled) break;
      total += handled;
    }
    return total;
  }

  private readonly tick = (): void => {
    if (this.stopping) return;
    if (this.claiming) {
      this.again = true;
      return;
    }
    this.claiming = true;
    void this.fill()
      .catch((error) => this.log.error({ err: error }, 'claiming deliveries failed'))
      .finally(() => {
        this.claiming = false;
        if (this.again && !this.stopping) {
          this.again = false;
          this.tick();
        }
      });
  };

  private async fill(): Promise<void> {
    for (;;) {
      this.again = false;
      const free = this.concurrency - this.inflight.size;
      if (free <= 0 || this.stopping) return;
      const rows = await this.claim(free);
      for (const row of rows) {
        const running: Promise<void> = this.process(row)
          .catch((error) => this.log.error({ err: error, deliveryId: row.id }, 'delivery bookkeeping failed'))
          .finally(() => {
            this.inflight.delete(running);
            this.tick();
          });
        this.inflight.add(running);
      }
      if (rows.length < free) return;
    }
  }

  /**
   * Takes due deliveries: pending ones whose time has come and running ones whose lease ran out
   * (a worker died). A paused destination gives none; one just out of its pause gives only its
   * oldest (the probe). Oldest first, so a backlog drains in creation order.
   */
  async claim(limit: number): Promise<DeliveryRow[]> {
    const now = this.now();
    const leaseUntil = new Date(now.getTime() + this.leaseMs);
    const claimed = await this.db.execute(sql`
      update deliveries set
        status = 'running',
        lease_until = ${iso(leaseUntil)}::timestamptz,
        leased_by = ${this.id},
        attempts = attempts + 1,
        first_attempt_at = coalesce(first_attempt_at, ${iso(now)}::timestamptz)
      where id in (
        select d.id from deliveries d
        left join destination_health h on h.destination_id = d.destination_id
        where ((d.status = 'pending' and d.next_attempt_at <= ${iso(now)}::timestamptz)
            or (d.status = 'running' and d.lease_until < ${iso(now)}::timestamptz))
          and (h.paused_until is null or h.paused_until <= ${iso(now)}::timestamptz)
          and (h.consecutive_failures is null or h.consecutive_failures < ${this.breaker.threshold}
            or d.seq = (select min(o.seq) from deliveries o
                        where o.destination_id = d.destination_id and o.status in ('pending', 'running')))
        order by d.seq
        limit ${limit}
        for update of d skip locked
      )
      returning id`);
    const ids = rowsOf<{ id: string }>(claimed).map((r) => r.id);
    if (!ids.length) return [];
    this.hasClaimed = true;
    const rows = await this.db.select().from(deliveries).where(sql`${deliveries.id} in ${ids}`);
    return rows.sort((a, b) => (a.seq ?? 0) - (b.seq ?? 0));
  }

  private async process(row: DeliveryRow): Promise<void> {
    const startedAt = this.now();
    const started = performance.now();
    const outcome = await this.attempt(row);
    await this.finish(row, outcome, startedAt, Math.round(performance.now() - started));
  }

  private async attempt(row: DeliveryRow): Promise<Outcome> {
    try {
      const [destination] = await this.db.select().from(integrations).where(eq(integrations.id, row.destinationId));
      const [lead] = await this.db.select().from(leads).where(eq(leads.id, row.leadId));
      if (!destination || !lead) throw new PermanentError('The destination or the lead no longer exists');
      const connector = this.getConnector(destination.type);
      if (!connector?.deliver) throw new PermanentError(`No connector delivers to "${destination.type}"`);
      const auth = connector.auth.safeParse(this.openAuth(destination));
      if (!auth.success) {
        throw new PermanentError('The destination connection is incomplete: reconnect it', { code: 'AUTH' });
      }
      const settings = connector.settings.safeParse(destination.settings ?? {});
      if (!settings.success) throw new PermanentError('The destination settings are invalid: check them');
      const signal = AbortSignal.timeout(this.attemptTimeoutMs);
      const logger = this.log.child({ deliveryId: row.id, destinationId: row.destinationId });
      const call = connector.deliver(
        { auth: auth.data, settings: settings.data, fetch: this.fetch, logger, signal },
        {
          lead: lead.fields,
          idempotencyKey: row.idempotencyKey,
          assignee: lead.assignee ?? undefined,
          raw: lead.raw,
        },
      );
      // A connector that ignores the signal still cannot hold the lease.
      const result = await Promise.race([
        call,
        new Promise<never>((_, reject) => {
          signal.addEventListener('abort', () => reject(new RetryableError('Timed out')), { once: true });
        }),
      ]);
      return { kind: 'ok', result: result ?? {}, wasBroken: destination.status === 'broken' };
    } catch (error) {
      return classify(error);
    }
  }

  /** A row no configured key opens fails for good: retrying cannot bring the key back. */
  private openAuth(destination: { id: string; auth: Record<string, unknown> | null }): Record<string, unknown> {
    try {
      return destination.auth === null ? {} : this.secrets.open(destination.auth, destination.id);
    } catch (error) {
      if (!(error instanceof SecretUnreadableError)) throw error;
      throw new PermanentError(
        'INTEGRATION_AUTH_UNREADABLE: the stored credentials cannot be decrypted with ENCRYPTION_KEY or ENCRYPTION_KEY_PREVIOUS; connect the destination again',
        { code: 'INTEGRATION_AUTH_UNREADABLE' },
      );
    }
  }

  private async finish(row: DeliveryRow, outcome: Outcome, startedAt: Date, durationMs: number): Promise<void> {
    const now = this.now();
    const trace = outcome.kind === 'ok' ? outcome.result : outcome.trace;
    const attemptOutcome: AttemptOutcome = outcome.kind;
    const events: (() => void)[] = [];
    await this.db.transaction(async (tx) => {
      await tx.insert(deliveryAttempts).values({
        deliveryId: row.id,
        number: row.attempts,
        outcome: attemptOutcome,
        httpStatus: outcome.kind === 'ok' ? (outcome.result.response?.status ?? null) : (outcome.httpStatus ?? null),
        request: (trace.request as AttemptTraceJson | undefined) ?? null,
        response: (trace.response as AttemptTraceJson | undefined) ?? null,
        error: outcome.kind === 'ok' ? null : outcome.message.slice(0, MAX_MESSAGE),
        durationMs,
        startedAt,
      });

      let update: Partial<typeof deliveries.$inferInsert>;
      let failedMessage: string | undefined;
      if (outcome.kind === 'ok') {
        update = {
          status: 'delivered',
          externalId: outcome.result.externalId ?? null,
          deliveredAt: now,
          lastError: null,
        };
      } else if (outcome.kind === 'permanent') {
        failedMessage = outcome.message;
        update = { status: 'failed', lastError: outcome.message.slice(0, MAX_MESSAGE) };
      } else {
        const first = row.firstAttemptAt ?? startedAt;
        const next = nextRetryAt(this.retry, row.attempts, first, now, this.random, outcome.retryAfterMs);
        if (next) {
          update = { status: 'pending', nextAttemptAt: next, lastError: outcome.message.slice(0, MAX_MESSAGE) };
        } else {
          const hours = Math.round(this.retry.maxAgeMs / 3_600_000);
          failedMessage = `Gave up after ${hours} h and ${row.attempts} attempts: ${outcome.message}`;
          update = { status: 'failed', lastError: failedMessage.slice(0, MAX_MESSAGE) };
        }
      }
      const [updated] = await tx
        .update(deliveries)
        .set({ ...update, leaseUntil: null, leasedBy: null })
        .where(and(eq(deliveries.id, row.id), eq(deliveries.leasedBy, this.id), eq(deliveries.status, 'running')))
        .returning({ id: deliveries.id });
      if (!updated) {
        // The lease ran out and another worker took the delivery: its result counts.
        this.log.warn({ deliveryId: row.id }, 'delivery lease lost before the result was stored');
        return;
      }
      if (failedMessage) {
        await tx
          .insert(errorRecords)
          .values({ accountId: row.accountId, deliveryId: row.id, message: failedMessage.slice(0, MAX_MESSAGE) })
          .onConflictDoUpdate({
            target: errorRecords.deliveryId,
            set: { message: failedMessage.slice(0, MAX_MESSAGE), createdAt: now, restartedAt: null },
          });
      }
      if (outcome.kind === 'retryable') events.push(...(await this.recordFailure(tx, row, outcome.message, now)));
      if (outcome.kind === 'ok') events.push(...(await this.recordSuccess(tx, row, outcome.wasBroken ?? false)));
      if (outcome.kind === 'permanent' && AUTH_FAILURES.has(outcome.code ?? '')) {
        const reason = outcome.message.slice(0, MAX_MESSAGE);
        events.push(() =>
          this.events.emit('destination.broken', {
            destinationId: row.destinationId,
            accountId: row.accountId,
            reason,
          }),
        );
      }
      await recomputeHookStatus(tx, row.hookId, now);
      events.push(() => this.events.emit('hook.changed', { accountId: row.accountId, hookId: row.hookId }));
    });
    for (const emit of events) emit();
  }

  /** Circuit breaker: count the failure; past the threshold pause the destination. */
  private async recordFailure(tx: Executor, row: DeliveryRow, message: string, now: Date): Promise<(() => void)[]> {
    await tx
      .insert(destinationHealth)
      .values({ destinationId: row.destinationId, consecutiveFailures: 1, updatedAt: now })
      .onConflictDoUpdate({
        target: destinationHealth.destinationId,
        set: { consecutiveFailures: sql`${destinationHealth.consecutiveFailures} + 1`, updatedAt: now },
      });
    const { threshold, basePauseMs, maxPauseMs } = this.breaker;
    const paused = await tx.execute(sql`
      update destination_health set
        pauses = pauses + 1,
        paused_until = ${iso(now)}::timestamptz
          + least(${maxPauseMs}, ${basePauseMs} * power(2, pauses)) * interval '1 millisecond'
      where destination_id = ${row.destinationId}
        and consecutive_failures >= ${threshold}
        and (paused_until is null or paused_until <= ${iso(now)}::timestamptz)
      returning paused_until`);
    const until = rowsOf<{ paused_until: string | Date }>(paused)[0]?.paused_until;
    if (until === undefined) return [];
    const pausedUntil = new Date(until);
    // Everything waiting for this destination waits for the pause, then goes oldest first.
    await tx
      .update(deliveries)
      .set({ nextAttemptAt: pausedUntil })
      .where(and(eq(deliveries.destinationId, row.destinationId), eq(deliveries.status, 'pending')));
    const reason = `Paused after ${threshold}+ failures in a row: ${message}`.slice(0, MAX_MESSAGE);
    this.log.warn({ destinationId: row.destinationId, pausedUntil }, 'destination paused');
    return [
      () =>
        this.events.emit('destination.paused', {
          destinationId: row.destinationId,
          accountId: row.accountId,
          pausedUntil,
          reason,
        }),
    ];
  }

  /** A success resets the breaker; it is a recovery when the breaker had counted or the destination was broken. */
  private async recordSuccess(tx: Executor, row: DeliveryRow, wasBroken: boolean): Promise<(() => void)[]> {
    const reset = await tx
      .update(destinationHealth)
      .set({ consecutiveFailures: 0, pausedUntil: null, pauses: 0 })
      .where(
        and(
          eq(destinationHealth.destinationId, row.destinationId),
          sql`(${destinationHealth.consecutiveFailures} > 0 or ${destinationHealth.pauses} > 0)`,
        ),
      )
      .returning({ pauses: sql<number>`1` });
    if (!reset.length) {
      if (!wasBroken) return [];
      return [
        () => this.events.emit('destination.recovered', { destinationId: row.destinationId, accountId: row.accountId }),
      ];
    }
    return [
      () => this.events.emit('destination.recovered', { destinationId: row.destinationId, accountId: row.accountId }),
      () => this.events.emit('deliveries.due'),
    ];
  }
}

function classify(error: unknown): Outcome {
  if (error instanceof PermanentError) {
    return {
      kind: 'permanent',
      message: error.message,
      code: error.code,
      httpStatus: error.httpStatus,
      trace: error.trace,
    };
  }
  if (error instanceof RetryableError) {
    return {
      kind: 'retryable',
      message: error.message,
      httpStatus: error.httpStatus,
      retryAfterMs: error.retryAfterMs,
      trace: error.trace,
    };
  }
  // Anything unexpected (a bug, a network error the connector did not classify) is retried.
  const message = error instanceof Error ? `${error.name}: ${error.message}` : String(error);
  return { kind: 'retryable', message, trace: {} };
}

/**
 * A hook's status from its deliveries: any still to go → pending; all delivered → delivered;
 * some delivered and some failed → partial; all failed → failed.
 */
export async function recomputeHookStatus(tx: Executor, hookId: string, now: Date): Promise<HookStatus | undefined> {
  const counts = await tx
    .select({ status: deliveries.status, n: sql<number>`count(*)::int` })
    .from(deliveries)
    .where(eq(deliveries.hookId, hookId))
    .groupBy(deliveries.status);
  if (!counts.length) return undefined;
  const by = (s: string) => counts.find((c) => c.status === s)?.n ?? 0;
  const status: HookStatus =
    by('pending') + by('running') > 0
      ? 'pending'
      : by('failed') === 0
        ? 'delivered'
        : by('delivered') > 0
          ? 'partial'
          : 'failed';
  await tx.update(hooks).set({ status, updatedAt: now }).where(eq(hooks.id, hookId));
  return status;
}
