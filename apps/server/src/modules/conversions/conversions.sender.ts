// Sending conversion events (issue 33): a periodic task makes the initial event of each lead of an
// enabled source once it is first delivered (read from the deliveries, so a crash loses nothing),
// then sends the due events in batches per source and dataset (at most CAPI_MAX_EVENTS a request).
// A RetryableError waits (backoff, or the platform's own wait) and tries again, up to MAX_ATTEMPTS;
// a PermanentError fails the events with its code; a reason the connector names in `holdOn` (a lost
// permission, the dataset gone) marks the source integration broken with it, opens its guardian
// access alert, and holds its events (still pending) until the settings are saved again or a later
// try succeeds. event_id is stable per lead and stage, so a batch sent twice is deduplicated by the
// platform as well.
import {
  CAPI_MAX_AGE_S,
  CAPI_MAX_EVENTS,
  type ConnectorConversions,
  type CrmEvent,
  capiOf,
  crmEvent,
  crmEventId,
  PermanentError,
  RetryableError,
} from '@leadrelay/connectors';
import { CONVERSION_INITIAL_STAGE } from '@leadrelay/shared';
import { and, eq, inArray, isNull, lte, or, sql } from 'drizzle-orm';
import { rowsOf } from '../../db/client';
import {
  type ConversionEventRow,
  type ConversionSettingsRow,
  conversionEvents,
  conversionSettings,
  type IntegrationRow,
  integrations,
} from '../../db/schema';
import type { LockedTx, PeriodicTask } from '../../delivery/periodic';
import { closeAccessAlerts, openAccessAlerts } from '../../lib/access-alerts';
import { AppError } from '../../lib/app-error';
import type { ConnectionDeps } from '../connections';
import { connectionOf, conversionsOf, eventNameOf } from './conversions.service';

/** Waits after each failed try (the last one's wait repeats); the platform's own wait wins when longer. */
export const RETRY_MS = [60_000, 5 * 60_000, 15 * 60_000, 60 * 60_000, 3 * 60 * 60_000, 6 * 60 * 60_000];
/** Tries before an event fails for good (within the platform's 7 days). */
export const MAX_ATTEMPTS = 10;
/** A held source is tried again after this long even unfixed (a permission given back at the platform). */
export const HOLD_MS = 30 * 60_000;
/** Leads looked at per run for their initial event, and events sent per run. */
const INITIAL_PER_RUN = 500;
const DUE_PER_RUN = 5 * CAPI_MAX_EVENTS;
const MAX_MESSAGE = 500;

/**
 * The initial event of each lead of an enabled source first delivered since it was switched on
 * (and within the platform's 7 days). A lead with no platform id, or a mapping that sends no initial
 * event, gets a `skipped` row, so it is looked at once.
 */
export async function makeInitialEvents(tx: LockedTx, now: Date): Promise<number> {
  const oldest = new Date(now.getTime() - CAPI_MAX_AGE_S * 1000);
  const found = rowsOf<{
    lead_id: string;
    account_id: string;
    integration_id: string;
    type: string;
    raw: unknown;
    events: ConversionSettingsRow['events'];
    delivered_at: Date | string;
  }>(
    await tx.execute(sql`
      select l.id as lead_id, l.account_id, l.integration_id, i.type, l.raw, s.events, min(d.delivered_at) as delivered_at
      from conversion_settings s
      join integrations i on i.id = s.integration_id
      join hooks h on h.integration_id = s.integration_id and h.created_at >= ${new Date(oldest.getTime() - 4 * 24 * 60 * 60_000)}
      join deliveries d on d.hook_id = h.id and d.status = 'delivered'
      join leads l on l.id = h.lead_id
      where s.enabled and s.dataset_id is not null
        and d.delivered_at >= s.enabled_at and d.delivered_at >= ${oldest}
        and not exists (select 1 from conversion_events e where e.lead_id = l.id and e.stage = ${CONVERSION_INITIAL_STAGE})
      group by l.id, l.account_id, l.integration_id, i.type, l.raw, s.events
      limit ${INITIAL_PER_RUN}`),
  );
  if (!found.length) return 0;
  const values = found.map((r) => {
    const externalLeadId = conversionsOf(r.type)?.leadIdOf(r.raw);
    const eventName = eventNameOf(r.events, { id: CONVERSION_INITIAL_STAGE });
    return {
      accountId: r.account_id,
      integrationId: r.integration_id,
      leadId: r.lead_id,
      stage: CONVERSION_INITIAL_STAGE,
      eventName: eventName ?? '',
      externalLeadId: externalLeadId ?? '',
      eventId: externalLeadId ? crmEventId(externalLeadId, CONVERSION_INITIAL_STAGE) : '',
      at: new Date(r.delivered_at),
      nextAttemptAt: now,
      state: externalLeadId && eventName !== null ? ('pending' as const) : ('skipped' as const),
    };
  });
  const made = await tx
    .insert(conversionEvents)
    .values(values)
    .onConflictDoNothing()
    .returning({ id: conversionEvents.id });
  return made.length;
}

const backoff = (attempts: number, retryAfterMs?: number) =>
  Math.max(RETRY_MS[Math.min(attempts, RETRY_MS.length) - 1] ?? RETRY_MS[0]!, retryAfterMs ?? 0);

const codeOf = (error: unknown, fallback: string) => {
  const code = (error as { code?: unknown })?.code;
  return typeof code === 'string' && code ? code : fallback;
};
const messageOf = (error: unknown) => (error instanceof Error ? error.message : String(error)).slice(0, MAX_MESSAGE);

/** Marks the source broken with the reason, opens its guardian access alert, and holds its events. */
async function hold(tx: LockedTx, row: IntegrationRow, reason: string, now: Date): Promise<void> {
  await tx
    .update(conversionSettings)
    .set({ heldReason: reason, heldUntil: new Date(now.getTime() + HOLD_MS) })
    .where(eq(conversionSettings.integrationId, row.id));
  await tx
    .update(integrations)
    .set({ status: 'broken', statusReason: reason, updatedAt: now })
    .where(eq(integrations.id, row.id));
  await openAccessAlerts(tx, [row], reason, now);
}

/** A send went through for a held source: the hold, and the broken mark it made, are lifted. */
async function release(tx: LockedTx, row: IntegrationRow, settings: ConversionSettingsRow, now: Date): Promise<void> {
  if (!settings.heldReason) return;
  await tx
    .update(conversionSettings)
    .set({ heldReason: null, heldUntil: null })
    .where(eq(conversionSettings.integrationId, row.id));
  const lifted = await tx
    .update(integrations)
    .set({ status: 'ok', statusReason: null, updatedAt: now })
    .where(and(eq(integrations.id, row.id), eq(integrations.statusReason, settings.heldReason)))
    .returning({ id: integrations.id });
  if (lifted.length) await closeAccessAlerts(tx, [row.id], now);
}

async function fail(tx: LockedTx, ids: string[], code: string, message: string | null, now: Date) {
  if (!ids.length) return;
  await tx
    .update(conversionEvents)
    .set({ state: 'failed', error: code, errorMessage: message, nextAttemptAt: now })
    .where(inArray(conversionEvents.id, ids));
}

async function retry(tx: LockedTx, rows: ConversionEventRow[], error: unknown, now: Date) {
  const code = codeOf(error, 'NETWORK');
  const retryAfterMs = (error as { retryAfterMs?: number }).retryAfterMs;
  const attempts = (rows[0]?.attempts ?? 0) + 1;
  if (attempts >= MAX_ATTEMPTS) {
    await fail(
      tx,
      rows.map((r) => r.id),
      code,
      messageOf(error),
      now,
    );
    return;
  }
  await tx
    .update(conversionEvents)
    .set({
      attempts: sql`${conversionEvents.attempts} + 1`,
      nextAttemptAt: new Date(now.getTime() + backoff(attempts, retryAfterMs)),
      error: code,
      errorMessage: messageOf(error),
    })
    .where(
      inArray(
        conversionEvents.id,
        rows.map((r) => r.id),
      ),
    );
}

/** One source's due events, in requests of at most CAPI_MAX_EVENTS; false when it was held. */
async function sendSource(
  deps: ConnectionDeps,
  tx: LockedTx,
  row: IntegrationRow,
  spec: ConnectorConversions,
  settings: ConversionSettingsRow,
  due: ConversionEventRow[],
  now: Date,
): Promise<void> {
  let connection: Awaited<ReturnType<typeof connectionOf>>;
  try {
    connection = await connectionOf(deps, row, spec);
  } catch (error) {
    // The connection is gone or its token unreadable: the person connects again; the events wait.
    await hold(tx, row, error instanceof AppError ? error.code : codeOf(error, 'INTEGRATION_NOT_CONNECTED'), now);
    return;
  }
  const client = capiOf(connection.call);
  for (let i = 0; i < due.length; i += CAPI_MAX_EVENTS) {
    const chunk = due.slice(i, i + CAPI_MAX_EVENTS);
    // An event the builder refuses (no leadgen id, no name) fails alone; the rest go.
    const built: { row: ConversionEventRow; event: CrmEvent }[] = [];
    for (const r of chunk) {
      try {
        built.push({
          row: r,
          event: crmEvent({
            leadgenId: r.externalLeadId,
            stage: r.stage,
            at: r.at,
            eventName: r.eventName,
            eventId: r.eventId,
          }),
        });
      } catch (error) {
        await fail(tx, [r.id], codeOf(error, 'VALIDATION_ERROR'), messageOf(error), now);
      }
    }
    if (!built.length) continue;
    try {
      const answer = await client.sendCrmEvents(
        connection.token,
        settings.datasetId ?? '',
        built.map((b) => b.event),
        {
          now: now.getTime(),
        },
      );
      const sent = new Set(answer.sent);
      const tooOld = new Set(answer.tooOld);
      const stored = {
        eventsReceived: answer.eventsReceived,
        fbtraceId: answer.fbtraceId ?? null,
        messages: answer.messages,
      };
      const sentIds = built.filter((b) => sent.has(b.event.event_id)).map((b) => b.row.id);
      if (sentIds.length) {
        await tx
          .update(conversionEvents)
          .set({
            state: 'sent',
            sentAt: now,
            answer: stored,
            attempts: sql`${conversionEvents.attempts} + 1`,
            error: null,
            errorMessage: null,
          })
          .where(inArray(conversionEvents.id, sentIds));
      }
      await fail(
        tx,
        built.filter((b) => tooOld.has(b.event.event_id)).map((b) => b.row.id),
        spec.tooOld,
        null,
        now,
      );
      await release(tx, row, settings, now);
    } catch (error) {
      const rows = built.map((b) => b.row);
      if (error instanceof RetryableError) {
        await retry(tx, rows, error, now);
        continue;
      }
      const code = codeOf(error, 'UNKNOWN');
      if (error instanceof PermanentError && spec.holdOn.includes(code)) {
        await hold(tx, row, code, now);
        return;
      }
      await fail(
        tx,
        rows.map((r) => r.id),
        code,
        messageOf(error),
        now,
      );
    }
  }
}

/** Sends the due events of every enabled source that is not held; how many were looked at. */
export async function sendDueConversions(deps: ConnectionDeps, tx: LockedTx, now: Date): Promise<number> {
  const due = await tx
    .select({ event: conversionEvents, settings: conversionSettings, integration: integrations })
    .from(conversionEvents)
    .innerJoin(conversionSettings, eq(conversionSettings.integrationId, conversionEvents.integrationId))
    .innerJoin(integrations, eq(integrations.id, conversionEvents.integrationId))
    .where(
      and(
        eq(conversionEvents.state, 'pending'),
        lte(conversionEvents.nextAttemptAt, now),
        eq(conversionSettings.enabled, true),
        or(isNull(conversionSettings.heldUntil), lte(conversionSettings.heldUntil, now)),
      ),
    )
    .orderBy(conversionEvents.nextAttemptAt)
    .limit(DUE_PER_RUN);
  const bySource = new Map<string, typeof due>();
  for (const d of due) bySource.set(d.integration.id, [...(bySource.get(d.integration.id) ?? []), d]);
  for (const rows of bySource.values()) {
    const { integration, settings } = rows[0]!;
    const spec = conversionsOf(integration.type);
    if (!spec) continue;
    // Retried events carry their attempts: a batch retries together, so group by attempts too.
    const byAttempts = new Map<number, ConversionEventRow[]>();
    for (const r of rows) byAttempts.set(r.event.attempts, [...(byAttempts.get(r.event.attempts) ?? []), r.event]);
    for (const events of byAttempts.values()) {
      await sendSource(deps, tx, integration, spec, settings, events, now);
      const [still] = await tx
        .select({ heldUntil: conversionSettings.heldUntil })
        .from(conversionSettings)
        .where(eq(conversionSettings.integrationId, integration.id));
      if (still?.heldUntil && still.heldUntil > now) break;
    }
  }
  return due.length;
}

/** The periodic task: make the initial events, then send what is due. */
export const conversionTasks = (deps: ConnectionDeps): PeriodicTask[] => [
  {
    name: 'conversion-events',
    everyMs: 15_000,
    run: async (tx, now) => ({
      made: await makeInitialEvents(tx, now),
      looked: await sendDueConversions(deps, tx, now),
    }),
  },
];
