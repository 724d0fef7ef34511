// The durable path of the events a connection's service sends (a Meta leadgen notification): an event
// is written to connector_inbound_events before the service is answered 200, so an event the service
// stops retrying is never lost if the process dies; the processor fetches each event's item with the
// asset token of every connection whose integrations take that asset (and form) and ingests the
// connector's payload through each integration's own mapping, filters, dedupe and destinations
// (ingestWebhook, the path of our own webhook URL). It runs on the engine's job loop (the one the
// deliveries run on): woken at once by `connections.inbound` (in process, or NOTIFY from an API node),
// and polls. One row per connector and event id dedupes the service's retries, duplicates and the
// backfill. An event is fetched once per connection, may wait for a new login, and becomes one lead
// per integration, each with its own deliveries.
import { randomBytes } from 'node:crypto';
import type { InboundEventInput } from '@leadrelay/connectors';
import { and, eq, sql } from 'drizzle-orm';
import { type Db, type Executor, rowsOf } from '../../db/client';
import {
  type ConnectorInboundEventRow,
  connectorInboundEvents,
  integrations,
  type StoredRequest,
} from '../../db/schema';
import { JobLoop } from '../../delivery/job-loop';
import { AppError } from '../../lib/app-error';
import type { EngineEventBus } from '../../lib/events';
import { ingestWebhook } from '../ingest';
import {
  type ConnectionConnector,
  type ConnectionDeps,
  callFor,
  connectionConnector,
  connectionConnectors,
} from './connection-deps';
import { markConnectionBroken, markConnectionOk, reasonOf } from './connection-health';
import { assetTokenOf } from './connection-store';

/** The engine event that wakes the processor. */
export const INBOUND_WAKE = 'connections.inbound';
const SECOND = 1_000;
const MINUTE = 60 * SECOND;
const HOUR = 60 * MINUTE;
/** Transient failures retry with growing waits up to this, for this long. */
const MAX_BACKOFF_MS = 30 * MINUTE;
const GIVE_UP_AFTER_MS = 72 * HOUR;
/** A waiting event (refused token) is tried again this often even while its connection stays broken. */
const WAITING_RETRY_MS = 30 * MINUTE;
const MAX_REASON = 300;
/** Rows per insert statement (a big batch goes in a few statements of one transaction). */
const INSERT_CHUNK = 500;

/**
 * Stores events as pending; an id already stored (the service's retry or duplicate, or the sweep's
 * find) is left as it is. Returns how many were new.
 */
export async function storeInboundEvents(
  db: Executor,
  type: string,
  events: InboundEventInput[],
  origin: 'webhook' | 'sweep',
  now = new Date(),
): Promise<number> {
  const byId = new Map<string, InboundEventInput>();
  for (const e of events) if (!byId.has(e.externalId)) byId.set(e.externalId, e);
  const rows = [...byId.values()].map((e) => ({
    type,
    externalId: e.externalId,
    assetId: e.assetId,
    data: e.data ?? {},
    origin,
    nextAt: now,
    receivedAt: now,
    updatedAt: now,
  }));
  let stored = 0;
  for (let i = 0; i < rows.length; i += INSERT_CHUNK) {
    const inserted = await db
      .insert(connectorInboundEvents)
      .values(rows.slice(i, i + INSERT_CHUNK))
      .onConflictDoNothing({ target: [connectorInboundEvents.type, connectorInboundEvents.externalId] })
      .returning({ id: connectorInboundEvents.id });
    stored += inserted.length;
  }
  return stored;
}

export interface InboundProcessorOptions {
  pollMs?: number;
  /** A claimed event is due again after this long if its processor died. */
  leaseMs?: number;
  /** Events claimed at once. */
  batch?: number;
  /** Events fetched and ingested at the same time. */
  concurrency?: number;
  now?: () => Date;
}

/** An active integration that takes the event's asset, with the asset row of its connection. */
interface Target {
  integrationId: string;
  accountId: string;
  formId: string | null;
  hookToken: string | null;
  connectionId: string;
  connectionStatus: 'ok' | 'broken';
  assetRowId: string;
  assetToken: unknown;
}

type Outcome = { kind: 'done' } | { kind: 'retry' | 'waiting' | 'failed'; reason: string };

export function backoffMs(attempts: number): number {
  return Math.min(MAX_BACKOFF_MS, 10 * SECOND * 3 ** Math.max(0, attempts - 1));
}

/** Each connector's settings keys of its integrations' connection and asset, and its asset kind, as a table `k`. */
function settingKeys() {
  const rows = connectionConnectors().map(
    (c) => sql`(${c.type}, ${c.spec.settings.connection}, ${c.spec.settings.asset}, ${c.spec.asset.kind})`,
  );
  if (rows.length === 0)
    return sql`(select null::text as type, null::text as connection_key, null::text as asset_key, null::text as asset_kind where false) k`;
  return sql`(values ${sql.join(rows, sql`, `)}) as k(type, connection_key, asset_key, asset_kind)`;
}

export class InboundEventProcessor {
  private readonly leaseMs: number;
  private readonly batch: number;
  private readonly now: () => Date;
  private readonly loop: JobLoop<ConnectorInboundEventRow>;

  constructor(
    private readonly deps: ConnectionDeps,
    private readonly events: EngineEventBus,
    options: InboundProcessorOptions = {},
  ) {
    this.leaseMs = options.leaseMs ?? 2 * MINUTE;
    this.batch = options.batch ?? 50;
    this.now = options.now ?? (() => new Date());
    this.loop = new JobLoop({
      name: 'inbound connection event',
      log: deps.log,
      concurrency: options.concurrency ?? 8,
      pollMs: options.pollMs ?? 2_000,
      claim: (limit) => this.claim(Math.min(limit, this.batch)),
      process: (event) => this.process(event),
      describe: (event) => ({ type: event.type, externalId: event.externalId }),
    });
  }

  start(): void {
    if (this.loop.isRunning) return;
    this.events.on(INBOUND_WAKE, this.loop.wake);
    this.loop.start();
  }

  async stop(graceMs = 5_000): Promise<void> {
    this.events.off(INBOUND_WAKE, this.loop.wake);
    await this.loop.stop(graceMs);
  }

  /** Run now (and once more after a run under way); a no-op until started. */
  readonly wake = (): void => this.loop.wake();

  /** Claims the due events and processes them; how many it claimed. */
  runOnce(): Promise<number> {
    return this.loop.runOnce();
  }

  /** Runs until nothing is due (tests). */
  drain(maxRuns = 100): Promise<number> {
    return this.loop.drain(maxRuns);
  }

  /**
   * Due events: pending ones whose time came, and waiting ones (a refused token) once no broken
   * connection still owes them its integrations' lead (a new login), or at their next try. The claim
   * makes them pending and moves next_at past the lease, so a processor that dies leaves them due
   * again. Which settings name an integration's connection and asset is the event's connector's.
   */
  private async claim(limit: number): Promise<ConnectorInboundEventRow[]> {
    const now = this.now();
    const leaseEnd = new Date(now.getTime() + this.leaseMs);
    const result = await this.deps.db.execute(sql`
      update connector_inbound_events e
      set status = 'pending', next_at = ${leaseEnd.toISOString()}::timestamptz, attempts = e.attempts + 1,
        updated_at = ${now.toISOString()}::timestamptz
      where e.id in (
        select x.id from connector_inbound_events x
        where (x.status = 'pending' and x.next_at <= ${now.toISOString()}::timestamptz)
          or (x.status = 'waiting' and (x.next_at <= ${now.toISOString()}::timestamptz or not exists (
            select 1 from ${settingKeys()}
            join connector_assets p on p.kind = k.asset_kind and p.external_id = x.asset_id
            join connector_connections c on c.id = p.connection_id and c.status = 'broken' and c.type = x.type
            join integrations i on i.account_id = p.account_id and i.type = x.type and i.active
              and i.settings->>k.connection_key = c.id::text and i.settings->>k.asset_key = p.external_id
            where k.type = x.type and not x.done_connections @> jsonb_build_array(c.id::text))))
        order by x.next_at
        limit ${limit}
        for update skip locked
      )
      returning e.id, e.type, e.external_id as "externalId", e.asset_id as "assetId", e.data,
        e.attempts, e.done_connections as "doneConnections", e.received_at as "receivedAt"`);
    return rowsOf<ConnectorInboundEventRow>(result).map((r) => ({ ...r, receivedAt: new Date(r.receivedAt) }));
  }

  private async targets(c: ConnectionConnector, event: ConnectorInboundEventRow): Promise<Target[]> {
    const keys = c.spec.settings;
    const form = keys.form ? sql`nullif(i.settings->>${keys.form}, '')` : sql`null`;
    const result = await this.deps.db.execute(sql`
      select i.id as "integrationId", i.account_id as "accountId", ${form} as "formId",
        i.hook_token as "hookToken", c.id as "connectionId", c.status as "connectionStatus",
        p.id as "assetRowId", p.secret as "assetToken"
      from integrations i
      join connector_assets p on p.kind = ${c.spec.asset.kind} and p.external_id = ${event.assetId}
        and p.account_id = i.account_id and p.connection_id::text = i.settings->>${keys.connection}
      join connector_connections c on c.id = p.connection_id
      where i.type = ${c.type} and i.active and i.settings->>${keys.asset} = ${event.assetId}
      order by i.created_at`);
    const done = new Set(event.doneConnections ?? []);
    const eventForm = event.data?.formId;
    return rowsOf<Target>(result).filter(
      (t) => !done.has(t.connectionId) && (!eventForm || !t.formId || t.formId === eventForm),
    );
  }

  private async process(event: ConnectorInboundEventRow): Promise<void> {
    let c: ConnectionConnector;
    try {
      c = connectionConnector(event.type);
    } catch {
      return this.settle(event, 'skipped', { reason: `No connector ${event.type} declares connections` });
    }
    const targets = await this.targets(c, event);
    if (targets.length === 0) {
      const nothingYet = (event.doneConnections ?? []).length === 0;
      return this.settle(event, nothingYet ? 'skipped' : 'done', {
        reason: nothingYet ? `No active ${c.type} integration takes this asset and form` : null,
      });
    }
    const byConnection = new Map<string, Target[]>();
    for (const t of targets) byConnection.set(t.connectionId, [...(byConnection.get(t.connectionId) ?? []), t]);

    const done: string[] = [];
    const outcomes: Outcome[] = [];
    for (const [connectionId, list] of byConnection) {
      // Anything else that fails (the database, a lead it refuses) is a retry like a failed fetch, so
      // the event reaches 'failed' after 72 h instead of being claimed again for ever.
      const outcome = await this.forConnection(c, event, list).catch(
        (error: unknown): Outcome => ({ kind: 'retry', reason: reasonOf(c, error) }),
      );
      outcomes.push(outcome);
      if (outcome.kind === 'done') done.push(connectionId);
    }
    const doneConnections = [...(event.doneConnections ?? []), ...done];
    const first = (kind: Outcome['kind']) => outcomes.find((o) => o.kind === kind) as { reason: string } | undefined;
    const retry = first('retry');
    const waiting = first('waiting');
    const failed = first('failed');
    const now = this.now();
    if (retry) {
      if (now.getTime() - event.receivedAt.getTime() > GIVE_UP_AFTER_MS) {
        return this.settle(event, 'failed', { reason: `Gave up after 72 h: ${retry.reason}`, doneConnections });
      }
      return this.settle(event, 'pending', {
        reason: retry.reason,
        doneConnections,
        nextAt: new Date(now.getTime() + backoffMs(event.attempts)),
      });
    }
    if (waiting) {
      return this.settle(event, 'waiting', {
        reason: waiting.reason,
        doneConnections,
        nextAt: new Date(now.getTime() + WAITING_RETRY_MS),
      });
    }
    if (failed) return this.settle(event, 'failed', { reason: failed.reason, doneConnections });
    return this.settle(event, 'done', { reason: null, doneConnections });
  }

  /** Fetches the item with this connection's asset token and ingests it into its integrations. */
  private async forConnection(
    c: ConnectionConnector,
    event: ConnectorInboundEventRow,
    targets: Target[],
  ): Promise<Outcome> {
    const [first] = targets;
    if (!first) return { kind: 'done' };
    const view = { externalId: event.externalId, assetId: event.assetId, data: event.data ?? {} };
    let item: { form: string | null; payload: Record<string, string> };
    try {
      const token = assetTokenOf(this.deps.secrets, { id: first.assetRowId, secret: first.assetToken });
      item = await c.spec.inbound.fetch(callFor(this.deps, c), view, token);
    } catch (error) {
      const reason = reasonOf(c, error);
      if (c.spec.errors.refused(error) || (error instanceof AppError && error.code === 'INTEGRATION_AUTH_UNREADABLE')) {
        await markConnectionBroken(this.deps, c, first.connectionId, reason);
        return { kind: 'waiting', reason };
      }
      if (c.spec.errors.gone(error)) return { kind: 'failed', reason };
      this.deps.log.warn({ type: c.type, externalId: event.externalId, reason }, 'inbound item fetch failed; retrying');
      return { kind: 'retry', reason };
    }
    if (first.connectionStatus === 'broken') await markConnectionOk(this.deps, c, first.connectionId);

    const formId = item.form;
    for (const target of targets) {
      if (target.formId && formId && target.formId !== formId) continue;
      await this.ingestInto(c, target, view, item.payload);
    }
    return { kind: 'done' };
  }

  private async ingestInto(
    c: ConnectionConnector,
    target: Target,
    event: { externalId: string; assetId: string; data: Record<string, string> },
    payload: Record<string, string>,
  ): Promise<void> {
    const token = target.hookToken ?? (await this.hookTokenOf(c, target.integrationId));
    if (!token) return;
    const request: StoredRequest = {
      method: 'POST',
      contentType: 'application/json',
      headers: c.spec.inbound.headers(event),
      body: payload,
    };
    try {
      await ingestWebhook(
        { db: this.deps.db, events: this.events, log: this.deps.log, now: this.now },
        {
          token,
          body: payload,
          request,
          // The integration's own dedupe key for this item: a repeat (a retry after a crash) makes no second lead.
          idempotencyKey: event.externalId,
          minDedupeWindowHours: c.spec.inbound.dedupeWindowHours,
        },
      );
    } catch (error) {
      // Deleted or deactivated meanwhile: nothing to take the lead.
      if (error instanceof AppError && error.code === 'INTEGRATION_NOT_FOUND') return;
      throw error;
    }
  }

  /** The integration's ingest token (made once, like generateHook; never shown for these sources). */
  private async hookTokenOf(c: ConnectionConnector, integrationId: string): Promise<string | null> {
    const [row] = await this.deps.db
      .update(integrations)
      .set({ hookToken: sql`coalesce(${integrations.hookToken}, ${randomBytes(32).toString('base64url')})` })
      .where(and(eq(integrations.id, integrationId), eq(integrations.type, c.type)))
      .returning({ token: integrations.hookToken });
    return row?.token ?? null;
  }

  private async settle(
    event: ConnectorInboundEventRow,
    status: ConnectorInboundEventRow['status'],
    change: { reason: string | null; doneConnections?: string[]; nextAt?: Date },
  ): Promise<void> {
    const now = this.now();
    await this.deps.db
      .update(connectorInboundEvents)
      .set({
        status,
        lastError: change.reason ? change.reason.slice(0, MAX_REASON) : null,
        updatedAt: now,
        nextAt: change.nextAt ?? now,
        ...(change.doneConnections ? { doneConnections: change.doneConnections } : {}),
      })
      .where(eq(connectorInboundEvents.id, event.id));
  }
}

/** Settled events older than this are deleted (the dedupe window is 7 days: this is well past it). */
export const INBOUND_EVENT_RETENTION_MS = 14 * 24 * HOUR;
/** An event still waiting for a new login after this long is given up (the account was e-mailed). */
const WAITING_GIVE_UP_MS = 30 * 24 * HOUR;

/** Housekeeping: drops settled events past the retention, gives up events waiting too long. */
export async function pruneInboundEvents(db: Db, now: Date): Promise<void> {
  const settledBefore = new Date(now.getTime() - INBOUND_EVENT_RETENTION_MS).toISOString();
  await db.execute(sql`
    delete from connector_inbound_events
    where status in ('done', 'failed', 'skipped') and updated_at < ${settledBefore}::timestamptz`);
  const waitingBefore = new Date(now.getTime() - WAITING_GIVE_UP_MS).toISOString();
  await db.execute(sql`
    update connector_inbound_events set status = 'failed', last_error = 'Gave up: the connection stayed broken for 30 days',
      updated_at = ${now.toISOString()}::timestamptz
    where status in ('waiting', 'pending') and received_at < ${waitingBefore}::timestamptz`);
}
