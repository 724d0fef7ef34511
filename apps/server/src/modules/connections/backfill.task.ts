// The backfill sweep (each connector's period, under the periodic scheduler's advisory lock, so one
// node runs it): for each subscribed asset that active integrations take items from, reads the recent
// items of every form concerned (the connector's `backfill.since`) and stores the ones the receiver
// never brought as inbound events, the same rows the receiver writes, so receiver and sweep never
// make a lead twice. The processor then fetches and ingests them like the receiver's.
// And the connections' housekeeping: tokens sealed again after a key rotation, settled events pruned.
import type { ConnectionCall } from '@leadrelay/connectors';
import { eq, sql } from 'drizzle-orm';
import { type Db, type Executor, rowsOf } from '../../db/client';
import { connectorAssets, connectorConnections, connectorCursors } from '../../db/schema';
import type { PeriodicTask } from '../../delivery/periodic';
import type { EngineEventBus } from '../../lib/events';
import { resealRows } from '../../lib/reseal';
import type { SecretBox } from '../../lib/secret-box';
import {
  type ConnectionConnector,
  type ConnectionDeps,
  callFor,
  connectionConnectors,
  isConfigured,
} from './connection-deps';
import { markConnectionBroken, markConnectionOk, reasonOf } from './connection-health';
import { assetTokenOf } from './connection-store';
import { INBOUND_WAKE, pruneInboundEvents, storeInboundEvents } from './inbound-events';

const MINUTE = 60_000;
/** The first sweep of a form looks back this far. */
const FIRST_LOOKBACK_MS = 60 * MINUTE;
/** Each sweep starts this long before the last one ended (clock skew, items indexed late). */
const OVERLAP_MS = 5 * MINUTE;
/** However long the sweeps stopped, they never look back further than the dedupe window. */
const MAX_LOOKBACK_MS = 7 * 24 * 60 * MINUTE;

/** A connection's view of an asset that integrations take items from. */
interface AssetSource {
  assetId: string;
  connectionId: string;
  connectionStatus: 'ok' | 'broken';
  assetRowId: string;
  assetToken: unknown;
  /** The forms its integrations name; null: some integration takes every form of the asset. */
  formIds: string[] | null;
}

export interface SweepResult {
  /** Items found that no receiver call (or earlier sweep) had stored. */
  stored: number;
  forms: number;
  failures: number;
}

async function assetSources(db: Db, c: ConnectionConnector): Promise<AssetSource[]> {
  const keys = c.spec.settings;
  const forms = keys.form
    ? sql`case when bool_or(coalesce(i.settings->>${keys.form}, '') = '') then null
        else jsonb_agg(distinct i.settings->>${keys.form}) end`
    : sql`null`;
  const result = await db.execute(sql`
    select p.external_id as "assetId", c.id as "connectionId", c.status as "connectionStatus",
      p.id as "assetRowId", p.secret as "assetToken", ${forms} as "formIds"
    from integrations i
    join connector_assets p on p.kind = ${c.spec.asset.kind} and p.external_id = i.settings->>${keys.asset}
      and p.account_id = i.account_id and p.connection_id::text = i.settings->>${keys.connection}
    join connector_connections c on c.id = p.connection_id
    where i.type = ${c.type} and i.active and p.subscribed
    group by p.external_id, c.id, c.status, p.id, p.secret
    order by p.external_id, (c.status = 'ok') desc, c.created_at`);
  return rowsOf<AssetSource>(result);
}

/**
 * One sweep of a connector. Runs in the scheduler's locked transaction (`db` is it): every write goes
 * through it, so the run and its lock end together. An asset is read with the first of its
 * connections whose token works; a refused token marks that connection broken and the next one is tried.
 */
export async function sweepConnector(
  deps: ConnectionDeps,
  c: ConnectionConnector,
  db: Db,
  now: Date,
): Promise<SweepResult> {
  const result: SweepResult = { stored: 0, forms: 0, failures: 0 };
  const sources = await assetSources(db, c);
  if (sources.length === 0) return result;
  const call = callFor(deps, c);
  const txDeps: ConnectionDeps = { ...deps, db };
  const cursors = new Map(
    (await db.select().from(connectorCursors).where(eq(connectorCursors.type, c.type))).map(
      (row) => [row.key, row.until.getTime()] as const,
    ),
  );
  const byAsset = new Map<string, AssetSource[]>();
  for (const s of sources) byAsset.set(s.assetId, [...(byAsset.get(s.assetId) ?? []), s]);

  for (const candidates of byAsset.values()) {
    const wanted = candidates.some((s) => s.formIds === null)
      ? null
      : [...new Set(candidates.flatMap((s) => s.formIds ?? []))];
    for (const source of candidates) {
      const outcome = await sweepAsset(txDeps, c, call, source, wanted, cursors, now);
      result.stored += outcome.stored;
      result.forms += outcome.forms;
      if (outcome.kind === 'refused') continue;
      if (outcome.kind === 'failed') result.failures++;
      break;
    }
  }
  return result;
}

type AssetOutcome = { kind: 'ok' | 'refused' | 'failed'; stored: number; forms: number };

async function sweepAsset(
  deps: ConnectionDeps,
  c: ConnectionConnector,
  call: ConnectionCall,
  source: AssetSource,
  wanted: string[] | null,
  cursors: Map<string, number>,
  now: Date,
): Promise<AssetOutcome> {
  const out: AssetOutcome = { kind: 'ok', stored: 0, forms: 0 };
  try {
    const token = assetTokenOf(deps.secrets, { id: source.assetRowId, secret: source.assetToken });
    const formIds = wanted ?? (await c.spec.backfill.forms(call, source.assetId, token));
    for (const formId of formIds) {
      const last = cursors.get(formId);
      const since = Math.max(
        last === undefined ? now.getTime() - FIRST_LOOKBACK_MS : last - OVERLAP_MS,
        now.getTime() - MAX_LOOKBACK_MS,
      );
      const found = await c.spec.backfill.since(call, source.assetId, formId, token, Math.floor(since / 1000));
      out.stored += await storeInboundEvents(deps.db, c.type, found, 'sweep', now);
      await deps.db
        .insert(connectorCursors)
        .values({ type: c.type, key: formId, assetId: source.assetId, until: now })
        .onConflictDoUpdate({
          target: [connectorCursors.type, connectorCursors.key],
          set: { assetId: source.assetId, until: now },
        });
      cursors.set(formId, now.getTime());
      out.forms++;
    }
  } catch (error) {
    const reason = reasonOf(c, error);
    if (c.spec.errors.refused(error)) {
      await markConnectionBroken(deps, c, source.connectionId, reason);
      return { ...out, kind: 'refused' };
    }
    deps.log.warn(
      { type: c.type, assetId: source.assetId, reason },
      'backfill of an asset failed; the next sweep tries again',
    );
    return { ...out, kind: 'failed' };
  }
  if (source.connectionStatus === 'broken') await markConnectionOk(deps, c, source.connectionId, deps.db);
  return out;
}

/**
 * After an encryption key rotation: connection and asset tokens sealed with ENCRYPTION_KEY_PREVIOUS
 * are sealed again with the current key. Each update is conditional on the row still holding what
 * was read, so a new login at the same moment wins.
 */
export async function resealConnectionTokens(
  db: Executor,
  secrets: SecretBox,
  log?: { info(obj: object, msg: string): void; error(obj: object, msg: string): void },
): Promise<{ resealed: number; unreadable: number }> {
  const connections = await db
    .select({ id: connectorConnections.id, token: connectorConnections.secret })
    .from(connectorConnections)
    .where(sql`coalesce(${connectorConnections.secret}->>'kid', '') <> ${secrets.kid}`);
  const assets = (
    await db
      .select({ id: connectorAssets.id, token: connectorAssets.secret })
      .from(connectorAssets)
      .where(
        sql`${connectorAssets.secret} is not null and coalesce(${connectorAssets.secret}->>'kid', '') <> ${secrets.kid}`,
      )
  ).flatMap((row) => (row.token ? [{ id: row.id, token: row.token }] : []));
  const a = await resealRows(secrets, connections, async (row, token) => {
    const done = await db
      .update(connectorConnections)
      .set({ secret: token })
      .where(
        sql`${eq(connectorConnections.id, row.id)} and ${connectorConnections.secret} = ${JSON.stringify(row.token)}::jsonb`,
      )
      .returning({ id: connectorConnections.id });
    return done.length;
  });
  const b = await resealRows(secrets, assets, async (row, token) => {
    const done = await db
      .update(connectorAssets)
      .set({ secret: token })
      .where(sql`${eq(connectorAssets.id, row.id)} and ${connectorAssets.secret} = ${JSON.stringify(row.token)}::jsonb`)
      .returning({ id: connectorAssets.id });
    return done.length;
  });
  const result = { resealed: a.resealed + b.resealed, unreadable: a.unreadable + b.unreadable };
  if (result.resealed)
    log?.info({ resealed: result.resealed }, 'connection tokens sealed with the current encryption key');
  if (result.unreadable) {
    log?.error(
      { count: result.unreadable },
      'connection tokens no configured key opens: check ENCRYPTION_KEY / ENCRYPTION_KEY_PREVIOUS',
    );
  }
  return result;
}

/** The periodic tasks of connections: each connector's sweep, resealing tokens, pruning settled events. */
export function connectionTasks(deps: ConnectionDeps, events: EngineEventBus): PeriodicTask[] {
  const list = connectionConnectors();
  if (list.length === 0) return [];
  return [
    {
      // Connection and asset tokens sealed with ENCRYPTION_KEY_PREVIOUS (every connector's: one task).
      name: 'reseal-connection-tokens',
      everyMs: 60 * MINUTE,
      run: (tx) => resealConnectionTokens(tx, deps.secrets, deps.log),
    },
    ...list.map(
      (c): PeriodicTask => ({
        name: c.spec.backfill.task,
        everyMs: c.spec.backfill.everyMs,
        run: async (tx, now) => {
          if (!isConfigured(deps, c)) return;
          const swept = await sweepConnector(deps, c, tx as unknown as Db, now);
          // The processor's claim sees them once this transaction commits (and polls in any case).
          if (swept.stored > 0) setTimeout(() => events.emit(INBOUND_WAKE), 50).unref();
          return swept;
        },
      }),
    ),
    {
      name: 'prune-connector-inbound-events',
      everyMs: 60 * MINUTE,
      run: (tx, now) => pruneInboundEvents(tx as unknown as Db, now),
    },
  ];
}
