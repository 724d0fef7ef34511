// A delivery's result, stored once: the attempt, the delivery's new state (delivered, due again
// after a backoff, or failed), the destination's breaker, the error record and the hook's status,
// in one statement or one transaction, then the events the dashboard and the mails listen to.
import type { DeliveryResult } from '@leadrelay/connectors';
import { DeferredError, PermanentError, RetryableError } from '@leadrelay/connectors';
import type { HookStatus } from '@leadrelay/shared';
import { and, eq, type SQL, sql } from 'drizzle-orm';
import type { FastifyBaseLogger } from 'fastify';
import { type Db, type Executor, rowsOf } from '../db/client';
import { type AttemptTraceJson, type DeliveryRow, deliveries, destinationHealth, errorRecords } from '../db/schema';
import type { EngineEventBus } from '../lib/events';
import { INITIAL_CONVERSIONS_CTE } from './initial-conversions';
import { type BreakerPolicy, nextRetryAt, type RetryPolicy } from './policy';
import { iso } from './queue';
import type { ResultBatch } from './result-batch';

export type Outcome =
  /**
   * wasBroken: the destination was marked broken before this success (it recovers now). record:
   * the destination type's bookkeeping of the result (the SMS log), in the transaction that stores it.
   */
  | { kind: 'ok'; result: DeliveryResult; wasBroken?: boolean; record?: (tx: Executor) => Promise<void> }
  /** The connector asked to be called again at `until` (quiet hours): not an attempt, not a failure. */
  | { kind: 'deferred'; until: Date; message: string }
  | {
      kind: 'retryable' | 'permanent';
      message: string;
      /** The connector kit's reason (AUTH: the destination refused our credentials). */
      code?: string;
      httpStatus?: number;
      retryAfterMs?: number;
      trace: { request?: AttemptTraceJson; response?: AttemptTraceJson };
    };

/** What storing a result needs from its worker. */
export interface FinishContext {
  db: Db;
  events: EngineEventBus;
  log: FastifyBaseLogger;
  /** Only the lease holder's result is stored as the delivery's state. */
  workerId: string;
  now: () => Date;
  random: () => number;
  retry: RetryPolicy;
  breaker: BreakerPolicy;
  /** Where the usual success is stored, together with others that finish at the same time. */
  successes: ResultBatch;
}

/** A trace as a jsonb parameter (null when absent). */
const jsonb = (value: unknown) =>
  value === undefined || value === null ? sql`null` : sql`${JSON.stringify(value)}::jsonb`;
const MAX_MESSAGE = 2000;
/** Permanent failures the user fixes by reconnecting or fixing the settings: the destination is marked broken. */
const AUTH_FAILURES = new Set(['AUTH', 'INTEGRATION_AUTH_UNREADABLE', 'CONFIGURATION']);

/**
 * Stores the result. One statement stores the attempt, the delivery (only while this worker
 * still holds its lease) and the breaker reset after a success. A success of a hook's only
 * delivery with nothing for its destination type to record also sets the hook's status there, and
 * goes with the other such successes of the moment, in one statement for them all
 * (result-batch.ts). Otherwise it is a transaction (BEGIN; that statement, which also locks the
 * hook's row; the failure's bookkeeping; the hook's status from all its deliveries; COMMIT).
 */
export async function finishDelivery(
  q: FinishContext,
  row: DeliveryRow,
  outcome: Outcome,
  startedAt: Date,
  durationMs: number,
  onlyDelivery = false,
): Promise<void> {
  const now = q.now();
  if (outcome.kind === 'deferred') return defer(q, row, outcome);
  const trace = outcome.kind === 'ok' ? outcome.result : outcome.trace;
  const events: (() => void)[] = [];
  let result: SQL;
  let failedMessage: string | undefined;
  if (outcome.kind === 'ok') {
    // A note (an SMS skipped for a landline) is kept where an error would be: the web translates both.
    result = sql`status = 'delivered', external_id = ${outcome.result.externalId ?? null},
      delivered_at = ${iso(now)}::timestamptz, last_error = ${outcome.result.note?.slice(0, MAX_MESSAGE) ?? null}`;
  } else if (outcome.kind === 'permanent') {
    failedMessage = outcome.message;
    result = sql`status = 'failed', last_error = ${outcome.message.slice(0, MAX_MESSAGE)}`;
  } else {
    const first = row.firstAttemptAt ?? startedAt;
    const next = nextRetryAt(q.retry, row.attempts, first, now, q.random, outcome.retryAfterMs);
    if (next) {
      result = sql`status = 'pending', next_attempt_at = ${iso(next)}::timestamptz,
        last_error = ${outcome.message.slice(0, MAX_MESSAGE)}`;
    } else {
      const hours = Math.round(q.retry.maxAgeMs / 3_600_000);
      failedMessage = `Gave up after ${hours} h and ${row.attempts} attempts: ${outcome.message}`;
      result = sql`status = 'failed', last_error = ${failedMessage.slice(0, MAX_MESSAGE)}`;
    }
  }
  const httpStatus = outcome.kind === 'ok' ? (outcome.result.response?.status ?? null) : (outcome.httpStatus ?? null);
  const error = outcome.kind === 'ok' ? null : outcome.message.slice(0, MAX_MESSAGE);
  // The attempt is recorded even when the lease was lost. The hook update only locks its row here:
  // concurrent results of one hook take turns, so the last one counts every committed result
  // (READ COMMITTED: a fresh snapshot per statement).
  const store = (executor: Executor) =>
    executor.execute(sql`
      with done as (
        update deliveries set ${result}, lease_until = null, leased_by = null
        where id = ${row.id} and leased_by = ${q.workerId} and status = 'running'
        returning id, hook_id, delivered_at
      ), ${sql.raw(INITIAL_CONVERSIONS_CTE)}, attempt as (
        insert into delivery_attempts
          (delivery_id, number, outcome, http_status, request, response, error, duration_ms, started_at)
        values (${row.id}, ${row.attempts}, ${outcome.kind}, ${httpStatus}, ${jsonb(trace.request)},
          ${jsonb(trace.response)}, ${error}, ${durationMs}, ${iso(startedAt)}::timestamptz)
      ), hook as (
        update hooks set status = status, updated_at = ${iso(now)}::timestamptz
        where id = ${row.hookId} and exists (select 1 from done)
      ), healed as (
        update destination_health set consecutive_failures = 0, paused_until = null, pauses = 0
        where ${outcome.kind === 'ok'}::boolean and destination_id = ${row.destinationId}
          and (consecutive_failures > 0 or pauses > 0) and exists (select 1 from done)
        returning destination_id
      )
      select (select count(*) from done)::int as stored, (select count(*) from healed)::int as healed,
        (select count(*) from conversion)::int as conversions`);
  // The lease ran out and another worker took the delivery: its result counts.
  const leaseLost = () => q.log.warn({ deliveryId: row.id }, 'delivery lease lost before the result was stored');
  const recovered = (healed: number): (() => void)[] => {
    if (outcome.kind !== 'ok' || !(healed || outcome.wasBroken)) return [];
    // A success resets the breaker; it is a recovery when the breaker had counted or the destination was broken.
    const { destinationId, accountId } = row;
    const emits = [() => q.events.emit('destination.recovered', { destinationId, accountId })];
    if (healed) emits.push(() => q.events.emit('deliveries.due'));
    return emits;
  };
  const hookChanged = () => q.events.emit('hook.changed', { accountId: row.accountId, hookId: row.hookId });
  const conversionsDue = () => q.events.emit('conversions.due');

  if (outcome.kind === 'ok' && onlyDelivery && !outcome.record) {
    const done = await q.successes.store({ row, outcome, startedAt, durationMs });
    if (!done.stored) return leaseLost();
    for (const emit of [...recovered(done.healed ? 1 : 0), hookChanged]) emit();
    if (done.conversions) conversionsDue();
    return;
  }
  await q.db.transaction(async (tx) => {
    const [counts] = rowsOf<{ stored: number; healed: number; conversions: number }>(await store(tx));
    if (!counts?.stored) return leaseLost();
    if (counts.conversions) events.push(conversionsDue);
    if (outcome.kind === 'ok' && outcome.record) await outcome.record(tx);
    if (failedMessage) {
      await tx
        .insert(errorRecords)
        .values({ accountId: row.accountId, deliveryId: row.id, message: failedMessage.slice(0, MAX_MESSAGE) })
        .onConflictDoUpdate({
          target: errorRecords.deliveryId,
          set: { message: failedMessage.slice(0, MAX_MESSAGE), createdAt: now, restartedAt: null },
        });
    }
    if (outcome.kind === 'retryable') events.push(...(await recordFailure(q, tx, row, outcome.message, now)));
    events.push(...recovered(counts.healed));
    if (outcome.kind === 'permanent' && AUTH_FAILURES.has(outcome.code ?? '')) {
      const reason = outcome.message.slice(0, MAX_MESSAGE);
      events.push(() =>
        q.events.emit('destination.broken', {
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
async function recordFailure(
  q: FinishContext,
  tx: Executor,
  row: DeliveryRow,
  message: string,
  now: Date,
): Promise<(() => void)[]> {
  await tx
    .insert(destinationHealth)
    .values({ destinationId: row.destinationId, consecutiveFailures: 1, updatedAt: now })
    .onConflictDoUpdate({
      target: destinationHealth.destinationId,
      set: { consecutiveFailures: sql`${destinationHealth.consecutiveFailures} + 1`, updatedAt: now },
    });
  const { threshold, basePauseMs, maxPauseMs } = q.breaker;
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
  q.log.warn({ destinationId: row.destinationId, pausedUntil }, 'destination paused');
  return [
    () =>
      q.events.emit('destination.paused', {
        destinationId: row.destinationId,
        accountId: row.accountId,
        pausedUntil,
        reason,
      }),
  ];
}

/**
 * A deferral: due again at `until`, its attempt given back (the claim counted one) and, when it was
 * the first, its 72-hour window not started yet; the reason stays as the delivery's note. No attempt
 * row, no breaker, the hook stays pending.
 */
async function defer(q: FinishContext, row: DeliveryRow, outcome: Extract<Outcome, { kind: 'deferred' }>) {
  const updated = await q.db.execute(sql`
    update deliveries set status = 'pending', next_attempt_at = ${iso(outcome.until)}::timestamptz,
      attempts = greatest(attempts - 1, 0),
      first_attempt_at = case when attempts <= 1 then null else first_attempt_at end,
      last_error = ${outcome.message.slice(0, MAX_MESSAGE)}, lease_until = null, leased_by = null
    where id = ${row.id} and leased_by = ${q.workerId} and status = 'running'
    returning id`);
  if (!rowsOf(updated).length) {
    q.log.warn({ deliveryId: row.id }, 'delivery lease lost before the result was stored');
    return;
  }
  q.events.emit('hook.changed', { accountId: row.accountId, hookId: row.hookId });
}

export function classify(error: unknown): Outcome {
  if (error instanceof DeferredError) return { kind: 'deferred', until: error.until, message: error.message };
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
