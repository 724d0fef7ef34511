// Sending conversion events (issue 33) on the engine's job loop (the one deliveries and Meta's
// leadgen events run on): woken at once by `conversions.due` (a delivered lead's initial event, made
// in the delivery's own statement; a CRM stage change), from any process through NOTIFY, and polls.
// A claim takes the due events of a few sources under a lease (next_attempt_at moved past it, so a
// sender that dies leaves them due again); each source's events go in requests of at most
// CAPI_MAX_EVENTS, outside any transaction, and each answer is stored in its own short statement.
// Retries and the breaker are the delivery engine's policies (delivery/policy.ts): a RetryableError
// waits (backoff with jitter, or the platform's own wait) and the event fails 72 h after it was
// made; five retryable failures of a source in a row pause it (30 s, doubling to 30 min). A
// PermanentError fails the events with its code; a reason the connector names in `holdOn` (a lost
// permission, the dataset gone, a refused token) marks the source integration broken (the
// browsers hear it, the account is mailed, the guardian opens its access alert) and holds its
// events until the settings are saved again or a try every 30 min succeeds, which marks it ok.
// event_id is stable per lead and stage, so a request sent twice is deduplicated by the platform.
// An hourly access check (conversionAccessTask) holds a source whose access is gone before any
// event needs it, and releases one whose access is back.
import { randomInt } from 'node:crypto';
import {
  CAPI_MAX_EVENTS,
  type ConnectorConversions,
  type CrmEvent,
  capiOf,
  crmEvent,
  crmEventId,
  PermanentError,
  RetryableError,
} from '@leadrelay/connectors';
import { and, eq, inArray, sql } from 'drizzle-orm';
import { rowsOf } from '../../db/client';
import {
  type ConversionEventRow,
  type ConversionSettingsRow,
  conversionEvents,
  conversionSettings,
  type IntegrationRow,
  integrations,
  leads,
} from '../../db/schema';
import { JobLoop } from '../../delivery/job-loop';
import type { PeriodicTask } from '../../delivery/periodic';
import { DEFAULT_BREAKER, DEFAULT_RETRY, nextRetryAt, pauseLength } from '../../delivery/policy';
import { AppError } from '../../lib/app-error';
import type { EngineEventBus } from '../../lib/events';
import { settleWithin } from '../../lib/settle-within';
import type { ConnectionDeps } from '../connections';
import { onDestinationBroken, onDestinationRecovered } from '../integrations';
import { connectionOf, conversionsOf, eventNameOf } from './conversions.service';

/** The engine event that wakes the sender. */
export const CONVERSIONS_WAKE = 'conversions.due';
/** A held source is tried again after this long even unfixed (a permission given back at the platform). */
export const HOLD_MS = 30 * 60_000;
const MAX_MESSAGE = 500;
/** Sources claimed at once, and events per source per claim. */
const SOURCES_PER_CLAIM = 4;
const EVENTS_PER_SOURCE = 5 * CAPI_MAX_EVENTS;

/** How often each switched-on source's access is checked. */
export const ACCESS_CHECK_MS = 60 * 60_000;

/**
 * The hourly access check: the switched-on sources are read under the task's lock (one node at a
 * time); the platform is asked after the commit, outside any transaction.
 */
export const conversionAccessTask = (sender: ConversionSender): PeriodicTask => ({
  name: 'conversion-access',
  everyMs: ACCESS_CHECK_MS,
  run: async (tx) =>
    (
      await tx
        .select({ id: conversionSettings.integrationId })
        .from(conversionSettings)
        .innerJoin(integrations, eq(integrations.id, conversionSettings.integrationId))
        .where(and(eq(conversionSettings.enabled, true), eq(integrations.active, true)))
    ).map((r) => r.id),
  afterCommit: (ids) => void sender.checkAccess(ids as string[]),
});

/** One source's claimed events. */
interface Batch {
  integrationId: string;
  events: ConversionEventRow[];
}

export interface ConversionSenderOptions {
  pollMs?: number;
  leaseMs?: number;
  now?: () => Date;
  random?: () => number;
}

const codeOf = (error: unknown, fallback: string) => {
  const code = (error as { code?: unknown })?.code;
  return typeof code === 'string' && code ? code : fallback;
};
const messageOf = (error: unknown) => (error instanceof Error ? error.message : String(error)).slice(0, MAX_MESSAGE);
const ids = (rows: readonly { id: string }[]) => rows.map((r) => r.id);

export class ConversionSender {
  private readonly leaseMs: number;
  private readonly now: () => Date;
  private readonly random: () => number;
  private readonly loop: JobLoop<Batch>;
  private readonly checks = new Set<Promise<void>>();

  constructor(
    private readonly deps: ConnectionDeps,
    private readonly events: EngineEventBus,
    options: ConversionSenderOptions = {},
  ) {
    this.leaseMs = options.leaseMs ?? 2 * 60_000;
    this.now = options.now ?? (() => new Date());
    this.random = options.random ?? (() => randomInt(0, 1_000_000) / 1_000_000);
    this.loop = new JobLoop({
      name: 'conversion events',
      log: deps.log,
      concurrency: SOURCES_PER_CLAIM,
      pollMs: options.pollMs ?? 15_000,
      claim: (limit) => this.claim(limit),
      process: (batch) => this.process(batch),
      describe: (batch) => ({ integrationId: batch.integrationId, events: batch.events.length }),
    });
  }

  start(): void {
    if (this.loop.isRunning) return;
    this.events.on(CONVERSIONS_WAKE, this.loop.wake);
    this.loop.start();
  }

  async stop(graceMs = 5_000): Promise<void> {
    this.events.off(CONVERSIONS_WAKE, this.loop.wake);
    await Promise.all([this.loop.stop(graceMs), settleWithin(this.checks, graceMs)]);
  }

  /** Claim now (and once more after a claim under way); a no-op until started. */
  readonly wake = (): void => this.loop.wake();

  /** Runs until nothing is due (tests). */
  drain(maxRuns = 100): Promise<number> {
    return this.loop.drain(maxRuns);
  }

  /**
   * The due events of up to `limit` sources that send (switched on, with a dataset, neither held
   * nor paused), oldest first, leased: next_attempt_at moves past the lease.
   */
  private async claim(limit: number): Promise<Batch[]> {
    const now = this.now().toISOString();
    const leaseEnd = new Date(this.now().getTime() + this.leaseMs).toISOString();
    const claimed = rowsOf<{ id: string }>(
      await this.deps.db.execute(sql`
        with sources as (
          select s.integration_id from conversion_settings s
          where s.enabled and s.dataset_id is not null
            and (s.held_until is null or s.held_until <= ${now}::timestamptz)
            and exists (select 1 from conversion_events e where e.integration_id = s.integration_id
              and e.state = 'pending' and e.next_attempt_at <= ${now}::timestamptz)
          limit ${limit}
        ), due as (
          select x.id from sources, lateral (
            select e.id from conversion_events e
            where e.integration_id = sources.integration_id and e.state = 'pending'
              and e.next_attempt_at <= ${now}::timestamptz
            order by e.next_attempt_at
            limit ${EVENTS_PER_SOURCE}
            for update skip locked
          ) x
        )
        update conversion_events e set next_attempt_at = ${leaseEnd}::timestamptz
        from due where e.id = due.id
        returning e.id`),
    );
    if (!claimed.length) return [];
    const rows = await this.deps.db
      .select()
      .from(conversionEvents)
      .where(inArray(conversionEvents.id, ids(claimed)))
      .orderBy(conversionEvents.at, conversionEvents.createdAt);
    const bySource = new Map<string, ConversionEventRow[]>();
    for (const r of rows) bySource.set(r.integrationId, [...(bySource.get(r.integrationId) ?? []), r]);
    return [...bySource].map(([integrationId, events]) => ({ integrationId, events }));
  }

  /** One source's claimed events: resolved, then sent in requests of at most CAPI_MAX_EVENTS. */
  private async process(batch: Batch): Promise<void> {
    const [found] = await this.deps.db
      .select({ row: integrations, settings: conversionSettings })
      .from(integrations)
      .innerJoin(conversionSettings, eq(conversionSettings.integrationId, integrations.id))
      .where(eq(integrations.id, batch.integrationId));
    const spec = found && conversionsOf(found.row.type);
    if (!found || !spec || !found.settings.enabled || !found.settings.datasetId) {
      // Switched off meanwhile: the events wait, unclaimed, for it to be switched on again.
      await this.release(batch.events);
      return;
    }
    const events = await this.resolve(found.settings, spec, batch.events);
    if (!events.length) return;
    let connection: Awaited<ReturnType<typeof connectionOf>>;
    try {
      connection = await connectionOf(this.deps, found.row, spec);
    } catch (error) {
      // The connection is gone or its token unreadable: the person connects again; the events wait.
      await this.hold(found.row, events, error instanceof AppError ? error.code : 'INTEGRATION_NOT_CONNECTED');
      return;
    }
    const client = capiOf(connection.call);
    for (let i = 0; i < events.length; i += CAPI_MAX_EVENTS) {
      const chunk = events.slice(i, i + CAPI_MAX_EVENTS);
      const built = await this.build(chunk);
      if (!built.length) continue;
      const now = this.now();
      try {
        const answer = await client.sendCrmEvents(
          connection.token,
          found.settings.datasetId,
          built.map((b) => b.event),
          { now: now.getTime() },
        );
        await this.sent(found.row, spec, built, answer, now);
      } catch (error) {
        const rest = events.slice(i + CAPI_MAX_EVENTS);
        const stop = await this.failed(found.row, found.settings, spec, ids(chunk), error, now);
        if (stop) {
          // Held or paused: what this claim took and did not try is due again when it ends.
          await this.release(rest);
          return;
        }
      }
    }
  }

  /**
   * Reads what the delivery's statement could not (an initial event's name, the lead's id at the
   * platform, the event id). An event with no platform id (a test lead), or whose mapping sends
   * nothing, is `skipped`: never sent, never shown. Answers the events to send.
   */
  private async resolve(
    settings: ConversionSettingsRow,
    spec: ConnectorConversions,
    events: ConversionEventRow[],
  ): Promise<ConversionEventRow[]> {
    const unresolved = events.filter((e) => e.eventId === null);
    if (!unresolved.length) return events;
    const raws = await this.deps.db
      .select({ id: leads.id, raw: leads.raw })
      .from(leads)
      .where(inArray(leads.id, [...new Set(unresolved.map((e) => e.leadId))]));
    const rawOf = new Map(raws.map((r) => [r.id, r.raw]));
    const ready = new Map<string, ConversionEventRow>();
    const skipped: string[] = [];
    for (const e of unresolved) {
      const externalLeadId = spec.leadIdOf(rawOf.get(e.leadId));
      const eventName = eventNameOf(settings.events, { id: e.stage });
      if (!externalLeadId || eventName === null) {
        skipped.push(e.id);
        continue;
      }
      const [made] = await this.deps.db
        .update(conversionEvents)
        .set({ eventName, externalLeadId, eventId: crmEventId(externalLeadId, e.stage) })
        .where(eq(conversionEvents.id, e.id))
        .returning();
      if (made) ready.set(made.id, made);
    }
    if (skipped.length) {
      await this.deps.db
        .update(conversionEvents)
        .set({ state: 'skipped' })
        .where(inArray(conversionEvents.id, skipped));
    }
    return events.flatMap((e) => (e.eventId !== null ? [e] : ready.has(e.id) ? [ready.get(e.id)!] : []));
  }

  /** The events as the platform takes them; one the builder refuses fails alone, with its code. */
  private async build(chunk: ConversionEventRow[]) {
    const built: { row: ConversionEventRow; event: CrmEvent }[] = [];
    for (const r of chunk) {
      try {
        built.push({
          row: r,
          event: crmEvent({
            leadgenId: r.externalLeadId ?? '',
            stage: r.stage,
            at: r.at,
            eventName: r.eventName ?? '',
            eventId: r.eventId ?? '',
          }),
        });
      } catch (error) {
        await this.fail([r.id], codeOf(error, 'VALIDATION_ERROR'), messageOf(error), this.now());
      }
    }
    return built;
  }

  /** The platform's answer: what it took is sent, what was too old failed; the source's breaker and hold are reset. */
  private async sent(
    row: IntegrationRow,
    spec: ConnectorConversions,
    built: { row: ConversionEventRow; event: CrmEvent }[],
    answer: Awaited<ReturnType<ReturnType<typeof capiOf>['sendCrmEvents']>>,
    now: Date,
  ): Promise<void> {
    const took = new Set(answer.sent);
    const tooOld = new Set(answer.tooOld);
    const sentIds = built.filter((b) => took.has(b.event.event_id)).map((b) => b.row.id);
    if (sentIds.length) {
      await this.deps.db
        .update(conversionEvents)
        .set({
          state: 'sent',
          sentAt: now,
          answer: {
            eventsReceived: answer.eventsReceived,
            fbtraceId: answer.fbtraceId ?? null,
            messages: answer.messages,
          },
          attempts: sql`${conversionEvents.attempts} + 1`,
          error: null,
          errorMessage: null,
        })
        .where(inArray(conversionEvents.id, sentIds));
    }
    await this.fail(
      built.filter((b) => tooOld.has(b.event.event_id)).map((b) => b.row.id),
      spec.tooOld,
      null,
      now,
    );
    await this.cleared(row, spec);
  }

  /**
   * The source reached the platform: its breaker and hold are reset, and a broken mark this sender
   * made (one of the connector's hold reasons) is lifted, closing its guardian alert.
   */
  private async cleared(row: IntegrationRow, spec: ConnectorConversions): Promise<void> {
    await this.deps.db
      .update(conversionSettings)
      .set({ heldReason: null, heldUntil: null, failures: 0, pauses: 0 })
      .where(eq(conversionSettings.integrationId, row.id));
    const [current] = await this.deps.db
      .select({ status: integrations.status, statusReason: integrations.statusReason })
      .from(integrations)
      .where(eq(integrations.id, row.id));
    if (current?.status === 'broken' && current.statusReason && spec.holdOn.includes(current.statusReason)) {
      await onDestinationRecovered(this.deps, this.deps.emitIntegrationUpdate, row.id);
    }
  }

  /**
   * The access of switched-on sources, checked before an event needs it (the `conversion-access`
   * task, hourly): the datasets the connection reaches must still hold the one chosen. A refusal
   * (a lost permission, a refused token, the dataset gone) holds the source as a failed send would,
   * so the person hears of it now and not when a lead is won; a source whose access is back is
   * released and marked ok. Anything else (the platform down) waits for the next check or send.
   */
  async checkAccess(integrationIds: readonly string[]): Promise<void> {
    if (!integrationIds.length) return;
    const run = this.checkEach(integrationIds).catch((error) =>
      this.deps.log.error({ err: error }, 'conversion access check failed'),
    );
    this.checks.add(run);
    await run.finally(() => this.checks.delete(run));
  }

  private async checkEach(integrationIds: readonly string[]): Promise<void> {
    const rows = await this.deps.db
      .select({ row: integrations, settings: conversionSettings })
      .from(conversionSettings)
      .innerJoin(integrations, eq(integrations.id, conversionSettings.integrationId))
      .where(and(inArray(conversionSettings.integrationId, [...integrationIds]), eq(conversionSettings.enabled, true)));
    for (const { row, settings } of rows) {
      const spec = conversionsOf(row.type);
      if (!spec || !settings.datasetId) continue;
      let reason: string | undefined;
      try {
        const { call, token } = await connectionOf(this.deps, row, spec);
        const reached = await capiOf(call).connectionDatasets(token);
        if (!reached.some((d) => d.id === settings.datasetId)) reason = spec.datasetGone;
      } catch (error) {
        const code = error instanceof AppError ? error.code : codeOf(error, '');
        if (error instanceof AppError || (error instanceof PermanentError && spec.holdOn.includes(code))) reason = code;
        else continue;
      }
      if (reason) await this.hold(row, [], reason);
      else await this.cleared(row, spec);
    }
  }

  /**
   * A request that failed: held (a hold reason), paused (the breaker opened) or retried later, or
   * its events failed. True when the source's other events must wait too.
   */
  private async failed(
    row: IntegrationRow,
    settings: ConversionSettingsRow,
    spec: ConnectorConversions,
    eventIds: string[],
    error: unknown,
    now: Date,
  ): Promise<boolean> {
    const code = codeOf(error, error instanceof RetryableError ? 'NETWORK' : 'UNKNOWN');
    if (error instanceof PermanentError && spec.holdOn.includes(code)) {
      const rows = await this.deps.db.select().from(conversionEvents).where(inArray(conversionEvents.id, eventIds));
      await this.hold(row, rows, code);
      return true;
    }
    if (!(error instanceof RetryableError)) {
      await this.fail(eventIds, code, messageOf(error), now);
      return false;
    }
    const rows = await this.deps.db.select().from(conversionEvents).where(inArray(conversionEvents.id, eventIds));
    const retryAfterMs = (error as { retryAfterMs?: number }).retryAfterMs;
    const gaveUp: string[] = [];
    for (const r of rows) {
      const next = nextRetryAt(DEFAULT_RETRY, r.attempts + 1, r.createdAt, now, this.random, retryAfterMs);
      if (!next) {
        gaveUp.push(r.id);
        continue;
      }
      await this.deps.db
        .update(conversionEvents)
        .set({
          attempts: sql`${conversionEvents.attempts} + 1`,
          nextAttemptAt: next,
          error: code,
          errorMessage: messageOf(error),
        })
        .where(eq(conversionEvents.id, r.id));
    }
    await this.fail(gaveUp, code, messageOf(error), now);
    // The breaker: retryable failures in a row pause the whole source.
    const failures = settings.failures + 1;
    const open = failures >= DEFAULT_BREAKER.threshold;
    const pauses = open ? settings.pauses + 1 : settings.pauses;
    await this.deps.db
      .update(conversionSettings)
      .set({
        failures: open ? 0 : failures,
        pauses,
        ...(open ? { heldUntil: new Date(now.getTime() + pauseLength(DEFAULT_BREAKER, pauses)) } : {}),
      })
      .where(eq(conversionSettings.integrationId, row.id));
    settings.failures = open ? 0 : failures;
    settings.pauses = pauses;
    return open;
  }

  /**
   * Holds the source for the reason: its events wait (pending, their attempts kept), it is marked
   * broken with the reason (UPDATE_INTEGRATION, one mail per outage, the guardian's access alert).
   */
  private async hold(row: IntegrationRow, events: ConversionEventRow[], reason: string): Promise<void> {
    const now = this.now();
    await this.deps.db
      .update(conversionSettings)
      .set({ heldReason: reason, heldUntil: new Date(now.getTime() + HOLD_MS) })
      .where(eq(conversionSettings.integrationId, row.id));
    await this.release(events);
    await onDestinationBroken(this.deps, this.deps.emitIntegrationUpdate, {
      destinationId: row.id,
      reason,
      retryAt: null,
      access: true,
    });
  }

  /** Events claimed and not tried: due again now (the source's hold or pause keeps them from a claim). */
  private async release(events: readonly { id: string }[]): Promise<void> {
    if (!events.length) return;
    await this.deps.db
      .update(conversionEvents)
      .set({ nextAttemptAt: this.now() })
      .where(and(inArray(conversionEvents.id, ids(events)), eq(conversionEvents.state, 'pending')));
  }

  private async fail(eventIds: string[], code: string, message: string | null, now: Date): Promise<void> {
    if (!eventIds.length) return;
    await this.deps.db
      .update(conversionEvents)
      .set({ state: 'failed', error: code, errorMessage: message, nextAttemptAt: now })
      .where(inArray(conversionEvents.id, eventIds));
  }
}
