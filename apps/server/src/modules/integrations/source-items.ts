// Items → leads, for every source's receivers and poll alike. Each new item goes through ingest
// (the one-statement lead writer: dedupe key, group commit, held leads, deliveries) as the flat
// payload the connector made, with the idempotency key `<items.key>:<id>`: ingest's dedupe keys
// are per source integration, so that is "this integration + the sender's id". An item this
// integration already took (connector_seen) is only counted, not sent to ingest again: a webhook the
// sender repeats and every poll that finds the item again leave the lead log alone. Two copies
// arriving at the same moment both pass that check; ingest's key then makes the second a duplicate.
import type { ConnectorDefinition, SourceItem, SourceItemOutcome, SourceVia } from '@leadrelay/connectors';
import { TEST_LEAD_HEADER } from '@leadrelay/shared';
import { and, eq, inArray, lt, sql } from 'drizzle-orm';
import type { Deps } from '../../config';
import type { Executor } from '../../db/client';
import { connectorSeen, integrations, type StoredRequest } from '../../db/schema';
import type { PeriodicTask } from '../../delivery/periodic';
import { AppError } from '../../lib/app-error';
import { storableText } from '../../lib/storable-text';
import { ingestWebhook } from '../ingest';

type Connector = ConnectorDefinition<unknown, unknown>;

export interface SourceRef {
  id: string;
  accountId: string;
  /** The integration's ingest token (a receiver's URL carries it). */
  hookToken: string;
}

export interface Arrival {
  via: SourceVia;
  /** The receiving request's method and headers (already redacted), for the hook's stored request. */
  method: string;
  headers: Record<string, string>;
  contentType?: string;
  ip?: string;
}

/**
 * Takes the items into the integration's lead flow, in the order given, each id once. Stops with
 * INTEGRATION_NOT_FOUND when the integration was deleted or deactivated meanwhile.
 */
export async function takeItems(
  deps: Pick<Deps, 'db' | 'events' | 'log'>,
  connector: Connector,
  source: SourceRef,
  items: SourceItem[],
  arrival: Arrival,
  now = new Date(),
): Promise<SourceItemOutcome[]> {
  const spec = connector.source?.items;
  if (!spec) throw new AppError('OPERATION_NOT_SUPPORTED');
  // PostgreSQL stores no U+0000 nor a lone surrogate: ids and payloads are cleaned, whatever the sender put in them.
  const clean = items.map((item) => ({
    id: storableText(item.id),
    payload: storableText(item.payload),
    test: item.test === true,
  }));
  const ids = clean.map((item) => item.id);
  if (ids.length === 0) return [];
  const known = new Set(
    (
      await deps.db
        .select({ itemId: connectorSeen.itemId })
        .from(connectorSeen)
        .where(and(eq(connectorSeen.integrationId, source.id), inArray(connectorSeen.itemId, ids)))
    ).map((r) => r.itemId),
  );
  const outcomes: SourceItemOutcome[] = [];
  for (const { id, payload, test } of clean) {
    if (known.has(id)) {
      await seenAgain(deps.db, source.id, id, now);
      outcomes.push({ id, status: 'repeat', hookId: null });
      continue;
    }
    const request: StoredRequest = {
      method: arrival.method,
      contentType: arrival.contentType ?? 'application/json',
      headers: {
        // A sender's own x-leadrelay-* headers were dropped (ingest/request.ts): only the connector says an item is a test.
        ...arrival.headers,
        'x-leadrelay-source': `${connector.slug}-${arrival.via}`,
        [spec.header]: id,
        ...(test ? { [TEST_LEAD_HEADER]: 'true' } : {}),
      },
      body: payload,
      ...(arrival.ip ? { ip: arrival.ip } : {}),
    };
    const result = await ingestWebhook(
      { db: deps.db, events: deps.events, log: deps.log, now: () => now },
      {
        token: source.hookToken,
        body: payload,
        request,
        idempotencyKey: `${spec.key}:${id}`,
        minDedupeWindowHours: spec.dedupeWindowHours,
      },
    );
    await deps.db
      .insert(connectorSeen)
      .values({
        integrationId: source.id,
        accountId: source.accountId,
        itemId: id,
        via: arrival.via,
        hookId: result.hookId,
        summary: storableText(spec.summary?.(payload) ?? {}),
        firstSeenAt: now,
        lastSeenAt: now,
      })
      .onConflictDoUpdate({
        target: [connectorSeen.integrationId, connectorSeen.itemId],
        set: { timesSeen: sql`${connectorSeen.timesSeen} + 1`, lastSeenAt: now },
      });
    known.add(id);
    outcomes.push({ id, status: result.status, hookId: result.hookId });
  }
  return outcomes;
}

async function seenAgain(db: Executor, integrationId: string, itemId: string, now: Date) {
  await db
    .update(connectorSeen)
    .set({ timesSeen: sql`${connectorSeen.timesSeen} + 1`, lastSeenAt: now })
    .where(and(eq(connectorSeen.integrationId, integrationId), eq(connectorSeen.itemId, itemId)));
}

/** INTEGRATION_NOT_FOUND from ingest: the integration went away (deleted, deactivated) while items came. */
export const isGone = (error: unknown) => error instanceof AppError && error.code === 'INTEGRATION_NOT_FOUND';

export const PRUNE_SEEN_TASK = 'prune-connector-seen';

/** Forgets the items each source type took longer ago than it keeps them (ingest's keys outlive its poll's reach). */
export function pruneSeenTask(sources: readonly Connector[]): PeriodicTask[] {
  const keeping = sources.filter((c) => c.source?.items);
  if (!keeping.length) return [];
  return [
    {
      name: PRUNE_SEEN_TASK,
      everyMs: 6 * 3_600_000,
      run: async (tx, now) => {
        for (const connector of keeping) {
          const cutoff = new Date(now.getTime() - connector.source!.items.keepForMs);
          await tx
            .delete(connectorSeen)
            .where(
              and(
                lt(connectorSeen.firstSeenAt, cutoff),
                inArray(
                  connectorSeen.integrationId,
                  tx.select({ id: integrations.id }).from(integrations).where(eq(integrations.type, connector.slug)),
                ),
              ),
            );
        }
      },
    },
  ];
}
