// What connectors keep (ConnectorDefinition.records), in one generic table: of their deliveries,
// written in the transaction that stores a delivery's result and kept current by each kind's
// periodic refresh; or what an action answered (an action that `keep`s: settings backups), as many
// as the kind keeps. Listed per integration (and per account where a connector declares the spec's
// path for it).
import { randomUUID } from 'node:crypto';
import {
  type ConnectorDefinition,
  type ConnectorRecordKind,
  connectors,
  type DeliveryResult,
  getConnector,
} from '@leadrelay/connectors';
import { ownValue } from '@leadrelay/shared';
import { and, asc, count, desc, eq, gt, inArray, isNull, lt, notInArray, or, sql } from 'drizzle-orm';
import type { Deps } from '../../config';
import type { Db, Executor } from '../../db/client';
import {
  type ConnectorRecordRow,
  connectorRecords,
  type DeliveryRow,
  type IntegrationRow,
  integrations,
} from '../../db/schema';
import { connectorContext } from '../../delivery/connector-context';
import type { PeriodicTask } from '../../delivery/periodic';
import type { DeliveryRecorder } from '../../delivery/worker';
import { AppError } from '../../lib/app-error';
import { type Actor, ownIntegrationOfType } from './integration-rows';

type Kind = ConnectorRecordKind<unknown, unknown>;

/** The record kind `kind` of the connector of `type` (a name from the URL: own entries only). */
export function recordKindOf(type: string, kind: string): Kind | undefined {
  return ownValue(getConnector(type)?.records, kind) as Kind | undefined;
}

/**
 * The worker's bookkeeping of a delivery's result: each entry of `result.records` that one of the
 * connector's kinds reads becomes a record (once per key: a result stored twice keeps one).
 */
async function storeRecords(tx: Executor, delivery: DeliveryRow, type: string, result: DeliveryResult) {
  const kinds = Object.entries(getConnector(type)?.records ?? {});
  if (!kinds.length || !result.records?.length) return;
  const rows = result.records.flatMap((entry) => {
    for (const [kind, spec] of kinds) {
      const record = spec.read?.(entry);
      if (record) {
        return [
          {
            accountId: delivery.accountId,
            integrationId: delivery.destinationId,
            kind,
            key: record.key,
            deliveryId: delivery.id,
            hookId: delivery.hookId,
            leadId: delivery.leadId,
            status: record.status,
            open: record.open,
            data: record.data,
          },
        ];
      }
    }
    return [];
  });
  if (rows.length) await tx.insert(connectorRecords).values(rows).onConflictDoNothing();
}

/** The worker's recorders of every type whose connector keeps records of its deliveries. */
export function connectorRecorders(): Record<string, DeliveryRecorder> {
  return Object.fromEntries(
    [...connectors.values()]
      .filter((c) => Object.values(c.records ?? {}).some((kind) => kind.read))
      .map((c): [string, DeliveryRecorder] => [
        c.slug,
        (tx, delivery, result) => storeRecords(tx, delivery, c.slug, result),
      ]),
  );
}

export interface RecordQuery {
  page: number;
  limit: number;
  status?: string;
  integrationId?: string;
}

function toView(spec: Kind, row: ConnectorRecordRow, integration: { id: string; name: string }) {
  if (spec.view) return spec.view(row) as Record<string, unknown>;
  return {
    // The kind's own fields first: the generic ones always win.
    ...row.data,
    _id: row.id,
    integration: { _id: integration.id, name: integration.name },
    hookId: row.hookId,
    leadId: row.leadId,
    status: row.status,
    createdAt: row.createdAt.toISOString(),
    updatedAt: row.updatedAt.toISOString(),
  };
}

/**
 * Records of `kind` of the actor's integrations of `type`, newest first: one integration's when the
 * query names it (another account's, or another type's: INTEGRATION_NOT_FOUND), else all of them.
 */
export async function listRecords(db: Executor, actor: Actor, type: string, kind: string, query: RecordQuery) {
  const spec = recordKindOf(type, kind);
  if (!spec) throw new AppError('OPERATION_NOT_SUPPORTED');
  if (query.status !== undefined && !spec.statuses.includes(query.status)) {
    throw new AppError('VALIDATION_ERROR', { errors: [{ field: 'status', code: 'VALIDATION_ERROR' }] });
  }
  if (query.integrationId) await ownIntegrationOfType(db, actor, query.integrationId, type);
  const where = and(
    eq(connectorRecords.accountId, actor.id),
    eq(connectorRecords.kind, kind),
    eq(integrations.type, type),
    query.integrationId ? eq(connectorRecords.integrationId, query.integrationId) : undefined,
    query.status ? eq(connectorRecords.status, query.status) : undefined,
  );
  const [rows, [total]] = await Promise.all([
    db
      .select({ r: connectorRecords, integration: { id: integrations.id, name: integrations.name } })
      .from(connectorRecords)
      .innerJoin(integrations, eq(integrations.id, connectorRecords.integrationId))
      .where(where)
      .orderBy(desc(connectorRecords.createdAt), desc(connectorRecords.id))
      .limit(query.limit)
      .offset((query.page - 1) * query.limit),
    db
      .select({ n: count() })
      .from(connectorRecords)
      .innerJoin(integrations, eq(integrations.id, connectorRecords.integrationId))
      .where(where),
  ]);
  return { data: rows.map((r) => toView(spec, r.r, r.integration)), total: Number(total?.n ?? 0) };
}

/**
 * Keeps what an action answered as a record of `kind` of the integration (its own key, the kind's
 * first status), and as many of the newest as the kind keeps; answers it as the kind lists it.
 */
export async function keepRecord(db: Db, row: IntegrationRow, kind: string, data: unknown) {
  const spec = recordKindOf(row.type, kind);
  if (!spec) throw new AppError('OPERATION_NOT_SUPPORTED');
  const fields = (data && typeof data === 'object' ? data : { value: data }) as Record<string, unknown>;
  const created = await db.transaction(async (tx) => {
    const key = randomUUID();
    const [created] = await tx
      .insert(connectorRecords)
      .values({
        id: key,
        accountId: row.accountId,
        integrationId: row.id,
        kind,
        key,
        status: spec.statuses[0] ?? 'kept',
        data: fields,
      })
      .returning();
    if (spec.keep !== undefined) {
      const mine = and(eq(connectorRecords.integrationId, row.id), eq(connectorRecords.kind, kind));
      const kept = tx
        .select({ id: connectorRecords.id })
        .from(connectorRecords)
        .where(mine)
        .orderBy(desc(connectorRecords.createdAt), desc(connectorRecords.id))
        .limit(spec.keep);
      await tx.delete(connectorRecords).where(and(mine, notInArray(connectorRecords.id, kept)));
    }
    return created!;
  });
  return toView(spec, created, { id: row.id, name: row.name });
}

type RefreshDeps = Pick<Deps, 'config' | 'log' | 'secrets' | 'locks' | 'db'>;

/**
 * One run of a kind's refresh: its open records, the longest unasked first, handed to the connector
 * in one call per integration. A connection that cannot be called now keeps its records for the next run.
 */
async function refreshRecords(
  deps: RefreshDeps,
  tx: Executor,
  connector: ConnectorDefinition<unknown, unknown>,
  kind: string,
  now: Date,
): Promise<number> {
  const refresh = connector.records?.[kind]?.refresh;
  if (!refresh) return 0;
  const open = await tx
    .select({ r: connectorRecords })
    .from(connectorRecords)
    .innerJoin(integrations, eq(integrations.id, connectorRecords.integrationId))
    .where(
      and(
        eq(connectorRecords.kind, kind),
        eq(connectorRecords.open, true),
        eq(integrations.type, connector.slug),
        or(
          isNull(connectorRecords.checkedAt),
          lt(connectorRecords.checkedAt, new Date(now.getTime() - refresh.recheckMs)),
        ),
        gt(connectorRecords.createdAt, new Date(now.getTime() - refresh.openForMs)),
      ),
    )
    .orderBy(sql`${connectorRecords.checkedAt} asc nulls first`, asc(connectorRecords.createdAt))
    .limit(refresh.batch);
  if (!open.length) return 0;
  const byIntegration = new Map<string, ConnectorRecordRow[]>();
  for (const { r } of open) byIntegration.set(r.integrationId, [...(byIntegration.get(r.integrationId) ?? []), r]);
  const rows = await tx
    .select()
    .from(integrations)
    .where(inArray(integrations.id, [...byIntegration.keys()]));
  let changed = 0;
  for (const row of rows) {
    const records = byIntegration.get(row.id) ?? [];
    let updates: Awaited<ReturnType<typeof refresh.run>>;
    try {
      updates = await refresh.run(
        connectorContext(deps, connector, row),
        records.map((r) => ({ key: r.key, status: r.status, data: r.data, createdAt: r.createdAt })),
      );
    } catch (error) {
      deps.log.warn({ err: error, integrationId: row.id, kind }, 'connector records could not be refreshed');
      continue;
    }
    for (const [i, record] of records.entries()) {
      const update = updates[i];
      const moved = update?.status !== undefined && update.status !== record.status;
      if (moved) changed++;
      await tx
        .update(connectorRecords)
        .set({
          checkedAt: now,
          ...(update?.open !== undefined ? { open: update.open } : {}),
          ...(update?.data && Object.keys(update.data).length ? { data: { ...record.data, ...update.data } } : {}),
          ...(moved ? { status: update.status, updatedAt: now } : {}),
        })
        .where(eq(connectorRecords.id, record.id));
    }
  }
  return changed;
}

/** The periodic refresh of every record kind that declares one. */
export function recordTasks(deps: RefreshDeps): PeriodicTask[] {
  return [...connectors.values()].flatMap((connector) =>
    Object.entries(connector.records ?? {}).flatMap(([kind, spec]) =>
      spec.refresh
        ? [
            {
              name: spec.refresh.task,
              everyMs: spec.refresh.everyMs,
              run: (tx, now) => refreshRecords(deps, tx, connector, kind, now),
            } satisfies PeriodicTask,
          ]
        : [],
    ),
  );
}
