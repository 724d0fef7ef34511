// The polls sources declare (kit/source.ts SourcePoll): what covers a webhook that never came (a
// sender's queue may drop one, a subscription may be gone, a plan may lack webhooks). Each runs as a
// periodic task under the scheduler's advisory lock (one node polls): every active, connected
// integration of the type, a few at a time, gets its items since its cursor, taken like a
// receiver's (source-items.ts), so a poll never makes a second lead of an item a webhook brought,
// nor the other way round. The cursor moves to what a complete run returned.
//
// A poll writes through the pool, not in the lock's transaction: a run waits on senders for seconds
// and must hold no row locks meanwhile (a token renewal writes the integration row), and each
// integration's progress stands once its items are in, whatever happens to the next one.
import { type ConnectorDefinition, connectors } from '@leadrelay/connectors';
import { and, eq, isNotNull } from 'drizzle-orm';
import { destinationPolicy } from '../../config';
import { type ConnectorStateRow, connectorState, type IntegrationRow, integrations } from '../../db/schema';
import { buildConnectorContext } from '../../delivery/connector-context';
import { runtimeExtras } from '../../delivery/connector-runtime';
import type { PeriodicTask } from '../../delivery/periodic';
import { connectorReason, isAuthFailure } from './connector-errors';
import { onDestinationBroken, onDestinationRecovered } from './integration-health';
import type { SourceDeps } from './source-deps';
import { isGone, pruneSeenTask, takeItems } from './source-items';
import { upsertState } from './source-state';

type Connector = ConnectorDefinition<unknown, unknown>;

export interface PollResult {
  sources: number;
  items: number;
  failures: number;
}

export type Polled = { kind: 'ok'; items: number } | { kind: 'failed' } | { kind: 'skipped' };

async function sourcesToPoll(deps: SourceDeps, type: string) {
  return deps.db
    .select({ row: integrations, state: connectorState })
    .from(integrations)
    .leftJoin(connectorState, eq(connectorState.integrationId, integrations.id))
    .where(
      and(
        eq(integrations.type, type),
        eq(integrations.active, true),
        isNotNull(integrations.auth),
        isNotNull(integrations.hookToken),
      ),
    )
    .orderBy(integrations.createdAt);
}

/** One integration: its items since the cursor, into its lead flow; its health from the sender's answer. */
export async function pollSource(
  deps: SourceDeps,
  connector: Connector,
  row: IntegrationRow,
  state: ConnectorStateRow | null | undefined,
  now: Date,
): Promise<Polled> {
  const poll = connector.source?.poll;
  if (!poll) return { kind: 'skipped' };
  const setState = (values: Parameters<typeof upsertState>[4]) => upsertState(deps.db, connector, row, now, values);
  // A source connected before it had a cursor (PUT .../connect) starts from now.
  if (state?.cursor === null || state?.cursor === undefined) {
    await setState({ cursor: poll.start(now), pollFrom: now, lastPollAt: now, lastPollError: null });
    return { kind: 'skipped' };
  }
  let polled: Awaited<ReturnType<typeof poll.run>>;
  try {
    const ctx = buildConnectorContext(connector, row, {
      secrets: deps.secrets,
      extras: runtimeExtras(deps, connector, row.id),
      policy: destinationPolicy(deps.config),
      logger: deps.log.child({ integrationId: row.id, connector: connector.slug }),
      timeoutMs: poll.requestTimeoutMs,
      signal: AbortSignal.timeout(poll.timeoutMs),
    });
    polled = await poll.run(ctx, { cursor: state.cursor, from: state.pollFrom ?? new Date(0), now });
  } catch (error) {
    const reason = connectorReason(connector, error);
    await setState({ lastPollAt: now, lastPollError: reason });
    // The sender refused the login: the user must fix it. (Anything else only stops the poll: a
    // receiver may still bring items, and the next poll tries again.)
    // Broken as a destination is: the browsers told, the owner mailed once per outage in their language.
    if (isAuthFailure(error)) {
      // Also the guardian's `access` alert of the source, until a poll reads again (lib/access-alerts.ts).
      await onDestinationBroken(deps, deps.emitIntegrationUpdate, {
        destinationId: row.id,
        reason,
        retryAt: null,
        access: true,
      });
    }
    deps.log.warn(
      { integrationId: row.id, connector: connector.slug, reason },
      'source poll failed; the next poll tries again',
    );
    return { kind: 'failed' };
  }
  const outcomes = await takeItems(
    deps,
    connector,
    { id: row.id, accountId: row.accountId, hookToken: row.hookToken! },
    polled.items,
    { via: 'poll', method: 'POST', headers: {} },
    now,
  );
  await setState({
    ...(polled.cursor !== undefined ? { cursor: polled.cursor } : {}),
    lastPollAt: now,
    lastPollError: polled.note ?? null,
  });
  if (row.status === 'broken') await onDestinationRecovered(deps, deps.emitIntegrationUpdate, row.id);
  return { kind: 'ok', items: outcomes.filter((o) => o.status !== 'repeat' && o.status !== 'duplicate').length };
}

/** Every connected, active integration of the connector's type, `concurrency` at a time. */
export async function pollSources(deps: SourceDeps, connector: Connector, now: Date): Promise<PollResult> {
  const poll = connector.source?.poll;
  const result: PollResult = { sources: 0, items: 0, failures: 0 };
  if (!poll) return result;
  const list = await sourcesToPoll(deps, connector.slug);
  let next = 0;
  const worker = async () => {
    while (next < list.length) {
      const { row, state } = list[next++]!;
      try {
        const polled = await pollSource(deps, connector, row, state, now);
        if (polled.kind === 'ok') {
          result.sources++;
          result.items += polled.items;
        } else if (polled.kind === 'failed') result.failures++;
      } catch (error) {
        // Deleted or deactivated while polled: nothing takes its items any more.
        if (isGone(error)) continue;
        result.failures++;
        deps.log.error({ err: error, integrationId: row.id, connector: connector.slug }, 'source poll failed');
      }
    }
  };
  await Promise.all(Array.from({ length: Math.min(Math.max(1, poll.concurrency), list.length) }, worker));
  return result;
}

/** The periodic poll of every source that declares one, and forgetting the items they took long ago. */
export function sourceTasks(deps: SourceDeps, list: readonly Connector[] = [...connectors.values()]): PeriodicTask[] {
  const sources = list.filter((c) => c.source);
  const polls = sources.flatMap((connector) => {
    const poll = connector.source?.poll;
    return poll
      ? [
          {
            name: poll.task,
            everyMs: poll.everyMs,
            run: (_tx, now) => pollSources(deps, connector, now),
          } satisfies PeriodicTask,
        ]
      : [];
  });
  return [...polls, ...pruneSeenTask(sources)];
}
