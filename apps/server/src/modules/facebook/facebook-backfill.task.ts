// The backfill sweep (every 15 minutes, under the periodic scheduler's advisory lock, so one node
// runs it): for each subscribed page that active facebook integrations take leads from, reads the
// recent leads of every form concerned (GET /{form}/leads filtered by time_created) and stores the
// ones the webhook never brought as leadgen events, the same rows the webhook writes, so webhook and
// sweep never make a lead twice. The worker then fetches and ingests them like webhook leads.
import type { GraphClient } from '@leadrelay/connectors';
import { sql } from 'drizzle-orm';
import { type Db, rowsOf } from '../../db/client';
import { fbBackfillCursors } from '../../db/schema';
import type { PeriodicTask } from '../../delivery/periodic';
import type { EngineEventBus } from '../../lib/events';
import { type FacebookDeps, graphFor } from './facebook-deps';
import { graphReason, isAuthFailure, markConnectionBroken, markConnectionOk } from './facebook-health';
import { resealFacebookTokens } from './facebook-reseal';
import { pageTokenOf } from './facebook-store';
import { pruneLeadgenEvents } from './facebook-webhook.job';
import { storeNotifications } from './facebook-webhook.service';

const MINUTE = 60_000;
export const FB_BACKFILL_TASK = 'facebook-backfill';
export const FB_BACKFILL_EVERY_MS = 15 * MINUTE;
/** The first sweep of a form looks back this far. */
const FIRST_LOOKBACK_MS = 60 * MINUTE;
/** Each sweep starts this long before the last one ended (clock skew, leads indexed late). */
const OVERLAP_MS = 5 * MINUTE;
/** However long the sweeps stopped, they never look back further than the dedupe window. */
const MAX_LOOKBACK_MS = 7 * 24 * 60 * MINUTE;

/** A connection's view of a page that integrations take leads from. */
interface PageSource {
  pageId: string;
  connectionId: string;
  connectionStatus: 'ok' | 'broken';
  pageRowId: string;
  pageToken: unknown;
  /** The forms its integrations name; null: some integration takes every form of the page. */
  formIds: string[] | null;
}

export interface SweepResult {
  /** Leads found that no webhook (or earlier sweep) had stored. */
  stored: number;
  forms: number;
  failures: number;
}

async function pageSources(db: Db): Promise<PageSource[]> {
  const result = await db.execute(sql`
    select p.page_id as "pageId", c.id as "connectionId", c.status as "connectionStatus",
      p.id as "pageRowId", p.page_token as "pageToken",
      case when bool_or(coalesce(i.settings->>'fbFormId', '') = '') then null
        else jsonb_agg(distinct i.settings->>'fbFormId') end as "formIds"
    from integrations i
    join fb_pages p on p.page_id = i.settings->>'fbPageId' and p.account_id = i.account_id
      and p.connection_id::text = i.settings->>'fbConnectionId'
    join fb_connections c on c.id = p.connection_id
    where i.type = 'facebook' and i.active and p.is_subscribed
    group by p.page_id, c.id, c.status, p.id, p.page_token
    order by p.page_id, (c.status = 'ok') desc, c.created_at`);
  return rowsOf<PageSource>(result);
}

/**
 * One sweep. Runs in the scheduler's locked transaction (`db` is it): every write goes through it,
 * so the run and its lock end together. A page is read with the first of its connections whose token works;
 * a refused token marks that connection broken and the next one is tried.
 */
export async function sweepFacebookLeads(deps: FacebookDeps, db: Db, now: Date): Promise<SweepResult> {
  const result: SweepResult = { stored: 0, forms: 0, failures: 0 };
  const sources = await pageSources(db);
  if (sources.length === 0) return result;
  const graph = graphFor(deps);
  const txDeps: FacebookDeps = { ...deps, db };
  const cursors = new Map(
    (await db.select().from(fbBackfillCursors)).map((c) => [c.formId, c.sweptUntil.getTime()] as const),
  );
  const byPage = new Map<string, PageSource[]>();
  for (const s of sources) byPage.set(s.pageId, [...(byPage.get(s.pageId) ?? []), s]);

  for (const candidates of byPage.values()) {
    const wanted = candidates.some((c) => c.formIds === null)
      ? null
      : [...new Set(candidates.flatMap((c) => c.formIds ?? []))];
    for (const source of candidates) {
      const outcome = await sweepPage(txDeps, graph, source, wanted, cursors, now);
      result.stored += outcome.stored;
      result.forms += outcome.forms;
      if (outcome.kind === 'refused') continue;
      if (outcome.kind === 'failed') result.failures++;
      break;
    }
  }
  return result;
}

type PageOutcome = { kind: 'ok' | 'refused' | 'failed'; stored: number; forms: number };

async function sweepPage(
  deps: FacebookDeps,
  graph: GraphClient,
  source: PageSource,
  wanted: string[] | null,
  cursors: Map<string, number>,
  now: Date,
): Promise<PageOutcome> {
  const out: PageOutcome = { kind: 'ok', stored: 0, forms: 0 };
  try {
    const token = pageTokenOf(deps.secrets, { id: source.pageRowId, pageToken: source.pageToken as never });
    const formIds = wanted ?? (await graph.leadForms(source.pageId, token)).map((f) => f.id);
    for (const formId of formIds) {
      const last = cursors.get(formId);
      const since = Math.max(
        last === undefined ? now.getTime() - FIRST_LOOKBACK_MS : last - OVERLAP_MS,
        now.getTime() - MAX_LOOKBACK_MS,
      );
      const leads = await graph.formLeads(formId, token, Math.floor(since / 1000));
      out.stored += await storeNotifications(
        deps.db,
        leads.map((l) => ({ leadgenId: l.id, pageId: source.pageId, formId: l.form_id ?? formId })),
        'sweep',
        now,
      );
      await deps.db
        .insert(fbBackfillCursors)
        .values({ formId, pageId: source.pageId, sweptUntil: now })
        .onConflictDoUpdate({ target: fbBackfillCursors.formId, set: { pageId: source.pageId, sweptUntil: now } });
      cursors.set(formId, now.getTime());
      out.forms++;
    }
  } catch (error) {
    const reason = graphReason(error);
    if (isAuthFailure(error)) {
      await markConnectionBroken(deps, source.connectionId, reason);
      return { ...out, kind: 'refused' };
    }
    deps.log.warn({ pageId: source.pageId, reason }, 'facebook backfill of a page failed; the next sweep tries again');
    return { ...out, kind: 'failed' };
  }
  if (source.connectionStatus === 'broken') await markConnectionOk(deps, source.connectionId, deps.db);
  return out;
}

/** The periodic tasks of Meta leads: the sweep, and pruning settled leadgen events. */
export function facebookLeadTasks(deps: FacebookDeps, events: EngineEventBus): PeriodicTask[] {
  return [
    {
      // Facebook user and page tokens sealed with ENCRYPTION_KEY_PREVIOUS.
      name: 'reseal-facebook-tokens',
      everyMs: 60 * MINUTE,
      run: (tx) => resealFacebookTokens(tx, deps.secrets, deps.log),
    },
    {
      name: FB_BACKFILL_TASK,
      everyMs: FB_BACKFILL_EVERY_MS,
      run: async (tx, now) => {
        if (!deps.config.facebook.appId || !deps.config.facebook.appSecret) return;
        const swept = await sweepFacebookLeads(deps, tx as unknown as Db, now);
        // The worker's claim sees them once this transaction commits (and polls in any case).
        if (swept.stored > 0) setTimeout(() => events.emit('facebook.leadgen'), 50).unref();
        return swept;
      },
    },
    {
      name: 'prune-facebook-leadgen-events',
      everyMs: 60 * MINUTE,
      run: (tx, now) => pruneLeadgenEvents(tx as unknown as Db, now),
    },
  ];
}
