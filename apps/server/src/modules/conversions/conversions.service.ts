// Conversion events (issue 33): a source integration's settings (the switch, the dataset, the stage →
// event mapping), the datasets its account connection reaches, the events the CRM's stage changes
// make (crm-events calls queueStageConversion for every change it records), the lead log's part and
// the dashboard's count. Sending is conversions.sender.ts. Which connectors take part is theirs to
// declare (ConnectorDefinition.conversions); none is named here.
import {
  type CapiDataset,
  type ConnectorConversions,
  type CrmStage,
  capiOf,
  crmEventId,
  getConnector,
  PermanentError,
} from '@leadrelay/connectors';
import {
  CONVERSION_ANY_PIPELINE,
  CONVERSION_INITIAL_EVENT,
  CONVERSION_INITIAL_STAGE,
  type ConversionDataset,
  type ConversionEvents,
  type ConversionSettings,
  type ConversionSettingsBody,
  type ConversionStatistic,
  type ConversionView,
  type ErrorCode,
  ownValue,
} from '@leadrelay/shared';
import { and, desc, eq, inArray, ne, sql } from 'drizzle-orm';
import type { Executor } from '../../db/client';
import {
  type ConversionSettingsRow,
  connectorConnections,
  conversionEvents,
  conversionSettings,
  type IntegrationRow,
  integrations,
  leads,
} from '../../db/schema';
import { accountTimeZone } from '../../lib/account-zone';
import { AppError } from '../../lib/app-error';
import { isKnownCode } from '../../lib/error-codes';
import { type ConnectionDeps, callFor, connectionConnector, connectionTokenOf } from '../connections';
import { type Actor, ownRow } from '../integrations';

/** What the connector of an integration's type declares for conversions, if anything. */
export function conversionsOf(type: string): ConnectorConversions | undefined {
  return getConnector(type)?.conversions;
}

const SETTINGS_DEFAULT: Omit<ConversionSettings, 'heldReason'> = { enabled: false, datasetId: null, events: {} };

const view = (row: ConversionSettingsRow | undefined): ConversionSettings =>
  row
    ? { enabled: row.enabled, datasetId: row.datasetId, events: row.events, heldReason: row.heldReason }
    : { ...SETTINGS_DEFAULT, heldReason: null };

/** The account's integration whose connector sends conversions, or INTEGRATION_NOT_FOUND / CONVERSIONS_NOT_AVAILABLE. */
async function ownSource(
  db: Executor,
  actor: Actor,
  id: string,
): Promise<{ row: IntegrationRow; spec: ConnectorConversions }> {
  const row = await ownRow(db, actor, id);
  const spec = conversionsOf(row.type);
  if (!spec) throw new AppError('CONVERSIONS_NOT_AVAILABLE');
  return { row, spec };
}

export async function getConversionSettings(db: Executor, actor: Actor, id: string): Promise<ConversionSettings> {
  const { row } = await ownSource(db, actor, id);
  const [settings] = await db.select().from(conversionSettings).where(eq(conversionSettings.integrationId, row.id));
  return view(settings);
}

/**
 * Stores the settings. Switching on needs a dataset (the one set-up step). Saving clears a hold:
 * the person has seen it and chose (or reconnected); the next run tries again.
 */
export async function putConversionSettings(
  db: Executor,
  actor: Actor,
  id: string,
  body: ConversionSettingsBody,
  now = new Date(),
): Promise<ConversionSettings> {
  const { row } = await ownSource(db, actor, id);
  if (body.enabled && !body.datasetId) throw new AppError('CONVERSIONS_DATASET_REQUIRED');
  return db.transaction(async (tx) => {
    const [before] = await tx
      .select()
      .from(conversionSettings)
      .where(eq(conversionSettings.integrationId, row.id))
      .for('update');
    const enabledAt = body.enabled ? (before?.enabled && before.enabledAt ? before.enabledAt : now) : null;
    const values = {
      enabled: body.enabled,
      datasetId: body.datasetId,
      events: body.events,
      enabledAt,
      heldReason: null,
      heldUntil: null,
      updatedAt: now,
    };
    const [saved] = await tx
      .insert(conversionSettings)
      .values({ integrationId: row.id, accountId: row.accountId, ...values })
      .onConflictDoUpdate({ target: conversionSettings.integrationId, set: values })
      .returning();
    return view(saved);
  });
}

/** The stored connection of the integration and its token, or the error a screen shows. */
export async function connectionOf(deps: ConnectionDeps, row: IntegrationRow, spec: ConnectorConversions) {
  const connectionId = spec.connectionOf(row.settings);
  const c = connectionConnector(row.type);
  if (!connectionId) throw new AppError('INTEGRATION_NOT_CONNECTED');
  const [conn] = await deps.db
    .select()
    .from(connectorConnections)
    .where(
      and(
        eq(connectorConnections.id, connectionId),
        eq(connectorConnections.accountId, row.accountId),
        eq(connectorConnections.type, row.type),
      ),
    );
  if (!conn) throw new AppError('INTEGRATION_NOT_CONNECTED');
  return { call: callFor(deps, c), token: connectionTokenOf(deps.secrets, conn) };
}

/** A refusal of the platform as the API's key: its own 4xx key (a lost permission), else CONNECTION_FAILED. */
export function refusalOf(error: unknown): AppError {
  if (error instanceof AppError) return error;
  const code = (error as { code?: unknown })?.code;
  if (error instanceof PermanentError && typeof code === 'string' && isKnownCode(code)) {
    return new AppError(code as ErrorCode, { message: error.message });
  }
  return new AppError('CONNECTION_FAILED', { message: error instanceof Error ? error.message : String(error) });
}

/** The datasets (pixels) the integration's connection can send to. */
export async function conversionDatasets(deps: ConnectionDeps, actor: Actor, id: string): Promise<ConversionDataset[]> {
  const { row, spec } = await ownSource(deps.db, actor, id);
  const { call, token } = await connectionOf(deps, row, spec);
  let found: CapiDataset[];
  try {
    found = await capiOf(call).connectionDatasets(token);
  } catch (error) {
    throw refusalOf(error);
  }
  return found.map((d) => ({ id: d.id, name: d.name, adAccounts: d.adAccounts }));
}

// ---- Making events ----

/**
 * The event name of a stage by the mapping: the pipeline's own entry, else '*''s, else the default
 * (the initial event's name, or the stage's name in the CRM, or its id). null: not sent.
 */
export function eventNameOf(
  events: ConversionEvents,
  stage: CrmStage | { id: typeof CONVERSION_INITIAL_STAGE; name?: string; pipelineId?: string },
): string | null {
  for (const pipeline of [stage.pipelineId, CONVERSION_ANY_PIPELINE]) {
    if (!pipeline) continue;
    const stages = ownValue(events, pipeline);
    if (!stages || typeof stages !== 'object') continue;
    const name = ownValue(stages, stage.id);
    if (name === null) return null;
    if (typeof name === 'string' && name) return name;
  }
  if (stage.id === CONVERSION_INITIAL_STAGE) return CONVERSION_INITIAL_EVENT;
  return stage.name ?? stage.id;
}

/** The enabled settings of a lead's source, with its connector's declaration and the lead's platform id. */
export async function conversionTarget(db: Executor, leadId: string) {
  const [found] = await db
    .select({
      settings: conversionSettings,
      raw: leads.raw,
      accountId: leads.accountId,
      integrationId: leads.integrationId,
      type: integrations.type,
    })
    .from(leads)
    .innerJoin(conversionSettings, eq(conversionSettings.integrationId, leads.integrationId))
    .innerJoin(integrations, eq(integrations.id, leads.integrationId))
    .where(and(eq(leads.id, leadId), eq(conversionSettings.enabled, true)));
  if (!found?.settings.datasetId) return undefined;
  return found;
}

/**
 * A CRM stage change of a delivered lead (every change, not only the first): its event, once per
 * lead and stage, when the lead's source sends conversions and the mapping does not say null.
 * `nameOf` reads the stage's name from the CRM, only when it is needed. Never throws for the CRM.
 */
export async function queueStageConversion(
  db: Executor,
  input: { leadId: string; stage: CrmStage; at: Date },
  nameOf: () => Promise<string | undefined>,
): Promise<boolean> {
  const target = await conversionTarget(db, input.leadId);
  if (!target) return false;
  const externalLeadId = conversionsOf(target.type)?.leadIdOf(target.raw);
  if (!externalLeadId || input.stage.id === CONVERSION_INITIAL_STAGE) return false;
  const [made] = await db
    .select({ id: conversionEvents.id })
    .from(conversionEvents)
    .where(and(eq(conversionEvents.leadId, input.leadId), eq(conversionEvents.stage, input.stage.id)));
  if (made) return false;
  const stageName = input.stage.name ?? (await nameOf().catch(() => undefined));
  const eventName = eventNameOf(target.settings.events, { ...input.stage, ...(stageName ? { name: stageName } : {}) });
  if (eventName === null) return false;
  const inserted = await db
    .insert(conversionEvents)
    .values({
      accountId: target.accountId,
      integrationId: target.integrationId,
      leadId: input.leadId,
      stage: input.stage.id,
      stageName: stageName ?? null,
      pipelineId: input.stage.pipelineId ?? null,
      eventName,
      externalLeadId,
      eventId: crmEventId(externalLeadId, input.stage.id),
      at: input.at,
    })
    .onConflictDoNothing()
    .returning({ id: conversionEvents.id });
  return inserted.length > 0;
}

// ---- What people see ----

const iso = (d: Date | null) => (d ? d.toISOString() : null);

/** A lead's conversion events, oldest first (the lead log's `conversions`). */
export async function leadConversions(db: Executor, accountId: string, leadId: string): Promise<ConversionView[]> {
  const rows = await db
    .select({ e: conversionEvents, events: conversionSettings.events })
    .from(conversionEvents)
    .leftJoin(conversionSettings, eq(conversionSettings.integrationId, conversionEvents.integrationId))
    .where(
      and(
        eq(conversionEvents.leadId, leadId),
        eq(conversionEvents.accountId, accountId),
        ne(conversionEvents.state, 'skipped'),
      ),
    )
    .orderBy(conversionEvents.createdAt);
  return rows.map(({ e: r, events }) => ({
    stage: r.stage,
    stageName: r.stageName,
    pipelineId: r.pipelineId,
    // An initial event not yet read by the sender is named as the mapping names it.
    eventName: r.eventName ?? eventNameOf(events ?? {}, { id: r.stage }) ?? CONVERSION_INITIAL_EVENT,
    state: r.state as ConversionView['state'],
    attempts: r.attempts,
    nextAttemptAt: r.state === 'pending' ? iso(r.nextAttemptAt) : null,
    sentAt: iso(r.sentAt),
    answer: r.answer,
    error: r.error,
    createdAt: r.createdAt.toISOString(),
  }));
}

/**
 * Events sent per day of the last `days` calendar days of the account's time zone (today and the
 * days before it, from midnight there), and what waits or failed now.
 */
export async function conversionStatistic(
  db: Executor,
  accountId: string,
  days: number,
  now = new Date(),
): Promise<ConversionStatistic> {
  const zone = await accountTimeZone(db, accountId);
  const since = sql`(date_trunc('day', ${now.toISOString()}::timestamptz at time zone ${zone})
    - ${days - 1} * interval '1 day') at time zone ${zone}`;
  const day = sql<string>`to_char(${conversionEvents.sentAt} at time zone ${zone}, 'YYYY-MM-DD')`;
  const [perDay, states] = await Promise.all([
    db
      .select({ day, sent: sql<number>`count(*)::int` })
      .from(conversionEvents)
      .where(
        and(
          eq(conversionEvents.accountId, accountId),
          eq(conversionEvents.state, 'sent'),
          sql`${conversionEvents.sentAt} >= ${since}`,
        ),
      )
      .groupBy(sql`1`)
      .orderBy(desc(sql`1`)),
    db
      .select({ state: conversionEvents.state, n: sql<number>`count(*)::int` })
      .from(conversionEvents)
      .where(and(eq(conversionEvents.accountId, accountId), inArray(conversionEvents.state, ['pending', 'failed'])))
      .groupBy(conversionEvents.state),
  ]);
  const of = (state: string) => states.find((s) => s.state === state)?.n ?? 0;
  return {
    sent: perDay.reduce((a, r) => a + r.sent, 0),
    pending: of('pending'),
    failed: of('failed'),
    days: perDay.map((r) => ({ day: r.day, sent: r.sent })),
  };
}
