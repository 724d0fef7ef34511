// The delivery worker: claims due deliveries under a lease, calls the destination's connector,
// records every attempt, retries with backoff, pauses a destination that keeps failing.

import { randomBytes, randomUUID } from 'node:crypto';
import { hostname } from 'node:os';
import type { ConnectorContext, ConnectorDefinition, DeliveryResult } from '@leadrelay/connectors';
import { getConnector as defaultGetConnector, PermanentError, RetryableError } from '@leadrelay/connectors';
import type { HookStatus } from '@leadrelay/shared';
import { and, eq, inArray, type SQL, sql } from 'drizzle-orm';
import type { FastifyBaseLogger } from 'fastify';
import type { Db, Executor } from '../db/client';
import {
  type AttemptTraceJson,
  type DeliveryRow,
  deliveries,
  destinationHealth,
  errorRecords,
  type IntegrationRow,
  integrations,
  type LeadRow,
  leads,
} from '../db/schema';
import type { EngineEventBus } from '../lib/events';
import { createSecretBox, type SecretBox, SecretUnreadableError } from '../lib/secret-box';
import { settleWithin } from '../lib/settle-within';
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
  /** OAuth client, API host, rotateAuth and withLock for a destination's connector (the app's runtime). */
  contextExtras?: (
    connector: ConnectorDefinition<unknown, unknown>,
    destinationId: string,
  ) => Partial<ConnectorContext<unknown, unknown>>;
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
/** A trace as a jsonb parameter (null when absent). */
const jsonb = (value: unknown) =>
  value === undefined || value === null ? sql`null` : sql`${JSON.stringify(value)}::jsonb`;
const MAX_MESSAGE = 2000;
/** Default `concurrency`: WORKER_CONCURRENCY's default (docs/benchmarks.md, (b)). */
export const DEFAULT_WORKER_CONCURRENCY = 64;

/** A claimed delivery with what its attempt needs, loaded for the whole batch in one query. */
export interface ClaimedDelivery {
  row: DeliveryRow;
  lead: LeadRow | null;
  destination: IntegrationRow | null;
  /** Deliveries of its hook (ingest creates them all with the hook; none is added later). */
  hookDeliveries: number;
}
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
  private readonly contextExtras: NonNullable<DeliveryWorkerOptions['contextExtras']>;
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
  /** The last claim got every row it asked for: more are probably due. */
  private backlog = false;

  constructor(options: DeliveryWorkerOptions) {
    this.db = options.db;
    this.events = options.events;
    this.log = options.log;
    this.getConnector = options.getConnector ?? defaultGetConnector;
    this.fetch = options.fetch ?? globalThis.fetch;
    this.secrets = options.secrets ?? createSecretBox(randomBytes(32));
    this.contextExtras = options.contextExtras ?? (() => ({}));
    this.now = options.now ?? (() => new Date());
    this.random = options.random ?? Math.random;
    this.id = options.workerId ?? `${hostname()}:${process.pid}:${randomUUID().slice(0, 8)}`;
    this.concurrency = Math.max(1, options.concurrency ?? DEFAULT_WORKER_CONCURRENCY);
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
    await settleWithin(this.inflight, graceMs);
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
    const claimed = await this.claim(this.concurrency);
    await Promise.all(claimed.map((c) => this.process(c)));
    return claimed.length;
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

  /**
   * Fills the free slots. While a backlog waits, it claims once a quarter of the slots is free
   * rather than once per finished delivery: one claim (two queries) serves a batch.
   */
  private async fill(): Promise<void> {
    const batch = Math.max(1, Math.floor(this.concurrency / 4));
    for (;;) {
      this.again = false;
      const free = this.concurrency - this.inflight.size;
      if (free <= 0 || this.stopping) return;
      if (this.backlog && free < batch && this.inflight.size > 0) return;
      const claimed = await this.claim(free);
      this.backlog = claimed.length === free;
      for (const c of claimed) {
        const running: Promise<void> = this.process(c)
          .catch((error) => this.log.error({ err: error, deliveryId: c.row.id }, 'delivery bookkeeping failed'))
          .finally(() => {
            this.inflight.delete(running);
            this.tick();
          });
        this.inflight.add(running);
      }
      if (claimed.length < free) return;
    }
  }

  /**
   * Takes due deliveries: pending ones whose time has come and running ones whose lease ran out
   * (a worker died). A paused destination gives none; one just out of its pause gives only its
   * oldest (the probe). Oldest first, so a backlog drains in creation order. Two queries for the
   * whole batch: the claim, then the claimed rows' leads and destinations.
   */
  async claim(limit: number): Promise<ClaimedDelivery[]> {
    const now = this.now();
    const leaseUntil = new Date(now.getTime() + this.leaseMs);
    const rows = await this.db
      .update(deliveries)
      .set({
        status: 'running',
        leaseUntil,
        leasedBy: this.id,
        attempts: sql`${deliveries.attempts} + 1`,
        firstAttemptAt: sql`coalesce(${deliveries.firstAttemptAt}, ${iso(now)}::timestamptz)`,
      })
      .where(sql`${deliveries.id} in (
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
      )`)
      .returning();
    if (!rows.length) return [];
    this.hasClaimed = true;
    const loaded = await this.db
      .select({
        id: deliveries.id,
        lead: leads,
        destination: integrations,
        hookDeliveries: sql<number>`(select count(*)::int from deliveries o where o.hook_id = ${deliveries.hookId})`,
      })
      .from(deliveries)
      .leftJoin(leads, eq(leads.id, deliveries.leadId))
      .leftJoin(integrations, eq(integrations.id, deliveries.destinationId))
      .where(
        inArray(
          deliveries.id,
          rows.map((r) => r.id),
        ),
      );
    const byId = new Map(loaded.map((l) => [l.id, l]));
    return rows
      .sort((a, b) => (a.seq ?? 0) - (b.seq ?? 0))
      .map((row) => {
        const more = byId.get(row.id);
        return {
          row,
          lead: more?.lead ?? null,
          destination: more?.destination ?? null,
          hookDeliveries: Number(more?.hookDeliveries ?? 0),
        };
      });
  }

  private async process({ row, lead, destination, hookDeliveries }: ClaimedDelivery): Promise<void> {
    const startedAt = this.now();
    const started = performance.now();
    const outcome = await this.attempt(row, lead, destination);
    await this.finish(row, outcome, startedAt, Math.round(performance.now() - started), hookDeliveries === 1);
  }

  private async attempt(row: DeliveryRow, lead: LeadRow | null, destination: IntegrationRow | null): Promise<Outcome> {
    try {
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
        {
          ...this.contextExtras(connector, destination.id),
          auth: auth.data,
          settings: settings.data,
          fetch: this.fetch,
          logger,
          signal,
        },
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

  /**
   * Stores the result. One statement stores the attempt, the delivery (only while this worker
   * still holds its lease) and the breaker reset after a success. A success of a hook's only
   * delivery also sets the hook's status in that statement: one round trip. Otherwise it is a
   * transaction (BEGIN; that statement, which also locks the hook's row; the failure's
   * bookkeeping; the hook's status from all its deliveries; COMMIT).
   */
  private async finish(
    row: DeliveryRow,
    outcome: Outcome,
    startedAt: Date,
    durationMs: number,
    onlyDelivery = false,
  ): Promise<void> {
    const now = this.now();
    const trace = outcome.kind === 'ok' ? outcome.result : outcome.trace;
    const events: (() => void)[] = [];
    let result: SQL;
    let failedMessage: string | undefined;
    if (outcome.kind === 'ok') {
      result = sql`status = 'delivered', external_id = ${outcome.result.externalId ?? null},
        delivered_at = ${iso(now)}::timestamptz, last_error = null`;
    } else if (outcome.kind === 'permanent') {
      failedMessage = outcome.message;
      result = sql`status = 'failed', last_error = ${outcome.message.slice(0, MAX_MESSAGE)}`;
    } else {
      const first = row.firstAttemptAt ?? startedAt;
      const next = nextRetryAt(this.retry, row.attempts, first, now, this.random, outcome.retryAfterMs);
      if (next) {
        result = sql`status = 'pending', next_attempt_at = ${iso(next)}::timestamptz,
          last_error = ${outcome.message.slice(0, MAX_MESSAGE)}`;
      } else {
        const hours = Math.round(this.retry.maxAgeMs / 3_600_000);
        failedMessage = `Gave up after ${hours} h and ${row.attempts} attempts: ${outcome.message}`;
        result = sql`status = 'failed', last_error = ${failedMessage.slice(0, MAX_MESSAGE)}`;
      }
    }
    const httpStatus = outcome.kind === 'ok' ? (outcome.result.response?.status ?? null) : (outcome.httpStatus ?? null);
    const error = outcome.kind === 'ok' ? null : outcome.message.slice(0, MAX_MESSAGE);
    // The attempt is recorded even when the lease was lost.
    const store = (executor: Executor, hook: SQL) =>
      executor.execute(sql`
        with done as (
          update deliveries set ${result}, lease_until = null, leased_by = null
          where id = ${row.id} and leased_by = ${this.id} and status = 'running'
          returning id
        ), attempt as (
          insert into delivery_attempts
            (delivery_id, number, outcome, http_status, request, response, error, duration_ms, started_at)
          values (${row.id}, ${row.attempts}, ${outcome.kind}, ${httpStatus}, ${jsonb(trace.request)},
            ${jsonb(trace.response)}, ${error}, ${durationMs}, ${iso(startedAt)}::timestamptz)
        ), hook as (
          update hooks set ${hook}, updated_at = ${iso(now)}::timestamptz
          where id = ${row.hookId} and exists (select 1 from done)
        ), healed as (
          update destination_health set consecutive_failures = 0, paused_until = null, pauses = 0
          where ${outcome.kind === 'ok'}::boolean and destination_id = ${row.destinationId}
            and (consecutive_failures > 0 or pauses > 0) and exists (select 1 from done)
          returning destination_id
        )
        select (select count(*) from done)::int as stored, (select count(*) from healed)::int as healed`);
    // The lease ran out and another worker took the delivery: its result counts.
    const leaseLost = () => this.log.warn({ deliveryId: row.id }, 'delivery lease lost before the result was stored');
    const recovered = (healed: number): (() => void)[] => {
      if (outcome.kind !== 'ok' || !(healed || outcome.wasBroken)) return [];
      // A success resets the breaker; it is a recovery when the breaker had counted or the destination was broken.
      const { destinationId, accountId } = row;
      const emits = [() => this.events.emit('destination.recovered', { destinationId, accountId })];
      if (healed) emits.push(() => this.events.emit('deliveries.due'));
      return emits;
    };
    const hookChanged = () => this.events.emit('hook.changed', { accountId: row.accountId, hookId: row.hookId });

    if (outcome.kind === 'ok' && onlyDelivery) {
      const [counts] = rowsOf<{ stored: number; healed: number }>(await store(this.db, sql`status = 'delivered'`));
      if (!counts?.stored) return leaseLost();
      for (const emit of [...recovered(counts.healed), hookChanged]) emit();
      return;
    }
    await this.db.transaction(async (tx) => {
      // Here the hook update only locks its row: concurrent results of one hook take turns, so
      // the last one counts every committed result (READ COMMITTED: a fresh snapshot per statement).
      const [counts] = rowsOf<{ stored: number; healed: number }>(await store(tx, sql`status = status`));
      if (!counts?.stored) return leaseLost();
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
      events.push(...recovered(counts.healed));
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
      events.push(hookChanged);
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
 * some delivered and some failed → partial; all failed → failed. One statement.
 */
export async function recomputeHookStatus(tx: Executor, hookId: string, now: Date): Promise<HookStatus | undefined> {
  const updated = await tx.execute(sql`
    update hooks set status = c.status, updated_at = ${iso(now)}::timestamptz
    from (
      select count(*) as n, case
        when count(*) filter (where status in ('pending', 'running')) > 0 then 'pending'
        when count(*) filter (where status = 'failed') = 0 then 'delivered'
        when count(*) filter (where status = 'delivered') > 0 then 'partial'
        else 'failed' end as status
      from deliveries where hook_id = ${hookId}
    ) c
    where hooks.id = ${hookId} and c.n > 0
    returning hooks.status`);
  return rowsOf<{ status: HookStatus }>(updated)[0]?.status;
}
