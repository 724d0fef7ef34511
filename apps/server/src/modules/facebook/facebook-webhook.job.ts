// The worker side of Meta leads: claims stored leadgen events (fb_leadgen_events), fetches each lead
// with the page token of every connection whose integrations take that page and form, and ingests
// graphLeadPayload(lead) through each integration's own mapping, filters, dedupe and destinations
// (ingestWebhook, the path of our own webhook URL). It runs on the engine's job loop (the one the
// deliveries run on): woken at once by `facebook.leadgen` (in process, or NOTIFY from an API
// node), and polls. The events keep their own table: a Meta event is fetched once per connection,
// may wait for a reconnect, and becomes one lead per integration, each with its own deliveries.
import { randomBytes } from 'node:crypto';
import { GraphError, type GraphLead } from '@leadrelay/connectors';
import { graphLeadPayload } from '@leadrelay/shared';
import { and, eq, sql } from 'drizzle-orm';
import { type Db, rowsOf } from '../../db/client';
import { type FbLeadgenEventRow, fbLeadgenEvents, integrations, type StoredRequest } from '../../db/schema';
import { JobLoop } from '../../delivery/job-loop';
import { AppError } from '../../lib/app-error';
import type { EngineEventBus } from '../../lib/events';
import { ingestWebhook } from '../ingest';
import { type FacebookDeps, graphFor } from './facebook-deps';
import { graphReason, isAuthFailure, markConnectionBroken, markConnectionOk } from './facebook-health';
import { pageTokenOf } from './facebook-store';

/** Meta retries for 36 h; a lead id counts as seen for at least 7 days (ADR 006). */
export const FB_DEDUPE_WINDOW_HOURS = 7 * 24;
const SECOND = 1_000;
const MINUTE = 60 * SECOND;
const HOUR = 60 * MINUTE;
/** Transient failures retry with growing waits up to this, for this long. */
const MAX_BACKOFF_MS = 30 * MINUTE;
const GIVE_UP_AFTER_MS = 72 * HOUR;
/** A waiting event (refused token) is tried again this often even while its connection stays broken. */
const WAITING_RETRY_MS = 30 * MINUTE;
const MAX_REASON = 300;

export interface LeadgenProcessorOptions {
  pollMs?: number;
  /** A claimed event is due again after this long if its processor died. */
  leaseMs?: number;
  /** Events claimed at once. */
  batch?: number;
  /** Events fetched and ingested at the same time. */
  concurrency?: number;
  now?: () => Date;
}

/** An active facebook integration that takes the event's page, with the page row of its connection. */
interface Target {
  integrationId: string;
  accountId: string;
  formId: string | null;
  hookToken: string | null;
  connectionId: string;
  connectionStatus: 'ok' | 'broken';
  pageRowId: string;
  pageToken: unknown;
}

type Outcome = { kind: 'done' } | { kind: 'retry' | 'waiting' | 'failed'; reason: string };

export function backoffMs(attempts: number): number {
  return Math.min(MAX_BACKOFF_MS, 10 * SECOND * 3 ** Math.max(0, attempts - 1));
}

export class FacebookLeadgenProcessor {
  private readonly leaseMs: number;
  private readonly batch: number;
  private readonly now: () => Date;
  private readonly loop: JobLoop<FbLeadgenEventRow>;

  constructor(
    private readonly deps: FacebookDeps,
    private readonly events: EngineEventBus,
    options: LeadgenProcessorOptions = {},
  ) {
    this.leaseMs = options.leaseMs ?? 2 * MINUTE;
    this.batch = options.batch ?? 50;
    this.now = options.now ?? (() => new Date());
    this.loop = new JobLoop({
      name: 'facebook leadgen event',
      log: deps.log,
      concurrency: options.concurrency ?? 8,
      pollMs: options.pollMs ?? 2_000,
      claim: (limit) => this.claim(Math.min(limit, this.batch)),
      process: (event) => this.process(event),
      describe: (event) => ({ leadgenId: event.leadgenId }),
    });
  }

  start(): void {
    if (this.loop.isRunning) return;
    this.events.on('facebook.leadgen', this.loop.wake);
    this.loop.start();
  }

  async stop(graceMs = 5_000): Promise<void> {
    this.events.off('facebook.leadgen', this.loop.wake);
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
   * connection still owes them its integrations' lead (a reconnect), or at their next try. The claim makes them pending and
   * moves next_at past the lease, so a processor that dies leaves them due again.
   */
  private async claim(limit: number): Promise<FbLeadgenEventRow[]> {
    const now = this.now();
    const leaseEnd = new Date(now.getTime() + this.leaseMs);
    const result = await this.deps.db.execute(sql`
      update fb_leadgen_events e
      set status = 'pending', next_at = ${leaseEnd.toISOString()}::timestamptz, attempts = e.attempts + 1,
        updated_at = ${now.toISOString()}::timestamptz
      where e.id in (
        select x.id from fb_leadgen_events x
        where (x.status = 'pending' and x.next_at <= ${now.toISOString()}::timestamptz)
          or (x.status = 'waiting' and (x.next_at <= ${now.toISOString()}::timestamptz or not exists (
            select 1 from fb_pages p
            join fb_connections c on c.id = p.connection_id and c.status = 'broken'
            join integrations i on i.account_id = p.account_id and i.type = 'facebook' and i.active
              and i.settings->>'fbConnectionId' = c.id::text and i.settings->>'fbPageId' = p.page_id
            where p.page_id = x.page_id and not x.done_connections @> jsonb_build_array(c.id::text))))
        order by x.next_at
        limit ${limit}
        for update skip locked
      )
      returning e.id, e.leadgen_id as "leadgenId", e.page_id as "pageId", e.form_id as "formId",
        e.attempts, e.done_connections as "doneConnections", e.received_at as "receivedAt"`);
    return rowsOf<FbLeadgenEventRow>(result).map((r) => ({ ...r, receivedAt: new Date(r.receivedAt) }));
  }

  private async targets(event: FbLeadgenEventRow): Promise<Target[]> {
    const result = await this.deps.db.execute(sql`
      select i.id as "integrationId", i.account_id as "accountId", nullif(i.settings->>'fbFormId', '') as "formId",
        i.hook_token as "hookToken", c.id as "connectionId", c.status as "connectionStatus",
        p.id as "pageRowId", p.page_token as "pageToken"
      from integrations i
      join fb_pages p on p.page_id = ${event.pageId} and p.account_id = i.account_id
        and p.connection_id::text = i.settings->>'fbConnectionId'
      join fb_connections c on c.id = p.connection_id
      where i.type = 'facebook' and i.active and i.settings->>'fbPageId' = ${event.pageId}
      order by i.created_at`);
    const done = new Set(event.doneConnections ?? []);
    return rowsOf<Target>(result).filter(
      (t) => !done.has(t.connectionId) && (!event.formId || !t.formId || t.formId === event.formId),
    );
  }

  private async process(event: FbLeadgenEventRow): Promise<void> {
    const targets = await this.targets(event);
    if (targets.length === 0) {
      const nothingYet = (event.doneConnections ?? []).length === 0;
      return this.settle(event, nothingYet ? 'skipped' : 'done', {
        reason: nothingYet ? 'No active facebook integration takes this page and form' : null,
      });
    }
    const byConnection = new Map<string, Target[]>();
    for (const t of targets) byConnection.set(t.connectionId, [...(byConnection.get(t.connectionId) ?? []), t]);

    const done: string[] = [];
    const outcomes: Outcome[] = [];
    for (const [connectionId, list] of byConnection) {
      // Anything else that fails (the database, a lead it refuses) is a retry like a failed fetch, so
      // the event reaches 'failed' after 72 h instead of being claimed again for ever.
      const outcome = await this.forConnection(event, list).catch(
        (error: unknown): Outcome => ({ kind: 'retry', reason: graphReason(error) }),
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

  /** Fetches the lead with this connection's page token and ingests it into its integrations. */
  private async forConnection(event: FbLeadgenEventRow, targets: Target[]): Promise<Outcome> {
    const [first] = targets;
    if (!first) return { kind: 'done' };
    let lead: GraphLead;
    try {
      const token = pageTokenOf(this.deps.secrets, { id: first.pageRowId, pageToken: first.pageToken as never });
      lead = await graphFor(this.deps).lead(event.leadgenId, token);
    } catch (error) {
      const reason = graphReason(error);
      if (isAuthFailure(error) || (error instanceof AppError && error.code === 'INTEGRATION_AUTH_UNREADABLE')) {
        await markConnectionBroken(this.deps, first.connectionId, reason);
        return { kind: 'waiting', reason };
      }
      if (error instanceof GraphError && error.code === 100) return { kind: 'failed', reason };
      this.deps.log.warn({ leadgenId: event.leadgenId, reason }, 'facebook lead fetch failed; retrying');
      return { kind: 'retry', reason };
    }
    if (first.connectionStatus === 'broken') await markConnectionOk(this.deps, first.connectionId);

    const formId = lead.form_id ?? event.formId;
    const payload = graphLeadPayload(lead);
    for (const target of targets) {
      if (target.formId && formId && target.formId !== formId) continue;
      await this.ingestInto(target, event, payload);
    }
    return { kind: 'done' };
  }

  private async ingestInto(target: Target, event: FbLeadgenEventRow, payload: Record<string, string>): Promise<void> {
    const token = target.hookToken ?? (await this.hookTokenOf(target.integrationId));
    if (!token) return;
    const request: StoredRequest = {
      method: 'POST',
      contentType: 'application/json',
      headers: { 'x-leadrelay-source': 'facebook', 'x-facebook-page-id': event.pageId },
      body: payload,
    };
    try {
      await ingestWebhook(
        { db: this.deps.db, events: this.events, log: this.deps.log, now: this.now },
        {
          token,
          body: payload,
          request,
          // The integration's own dedupe key for this lead: a repeat (a retry after a crash) makes no second lead.
          idempotencyKey: event.leadgenId,
          minDedupeWindowHours: FB_DEDUPE_WINDOW_HOURS,
        },
      );
    } catch (error) {
      // Deleted or deactivated meanwhile: nothing to take the lead.
      if (error instanceof AppError && error.code === 'INTEGRATION_NOT_FOUND') return;
      throw error;
    }
  }

  /** The integration's ingest token (made once, like generateHook; never shown for facebook sources). */
  private async hookTokenOf(integrationId: string): Promise<string | null> {
    const [row] = await this.deps.db
      .update(integrations)
      .set({ hookToken: sql`coalesce(${integrations.hookToken}, ${randomBytes(32).toString('base64url')})` })
      .where(and(eq(integrations.id, integrationId), eq(integrations.type, 'facebook')))
      .returning({ token: integrations.hookToken });
    return row?.token ?? null;
  }

  private async settle(
    event: FbLeadgenEventRow,
    status: FbLeadgenEventRow['status'],
    change: { reason: string | null; doneConnections?: string[]; nextAt?: Date },
  ): Promise<void> {
    const now = this.now();
    await this.deps.db
      .update(fbLeadgenEvents)
      .set({
        status,
        lastError: change.reason ? change.reason.slice(0, MAX_REASON) : null,
        updatedAt: now,
        nextAt: change.nextAt ?? now,
        ...(change.doneConnections ? { doneConnections: change.doneConnections } : {}),
      })
      .where(eq(fbLeadgenEvents.id, event.id));
  }
}

/** Settled events older than this are deleted (the dedupe window is 7 days: this is well past it). */
export const FB_EVENT_RETENTION_MS = 14 * 24 * HOUR;
/** A lead still waiting for a reconnect after this long is given up (Meta keeps leads 90 days; the user was e-mailed). */
const WAITING_GIVE_UP_MS = 30 * 24 * HOUR;

/** Housekeeping: drops settled events past the retention, gives up events waiting too long. */
export async function pruneLeadgenEvents(db: Db, now: Date): Promise<void> {
  const settledBefore = new Date(now.getTime() - FB_EVENT_RETENTION_MS).toISOString();
  await db.execute(sql`
    delete from fb_leadgen_events
    where status in ('done', 'failed', 'skipped') and updated_at < ${settledBefore}::timestamptz`);
  const waitingBefore = new Date(now.getTime() - WAITING_GIVE_UP_MS).toISOString();
  await db.execute(sql`
    update fb_leadgen_events set status = 'failed', last_error = 'Gave up: the connection stayed broken for 30 days',
      updated_at = ${now.toISOString()}::timestamptz
    where status in ('waiting', 'pending') and received_at < ${waitingBefore}::timestamptz`);
}
