// A source's state beside its integration row (connector_state): the poll's cursor and last run,
// and our receiver's subscription at the sender. A row is made by whatever first writes it; one made
// for a connector that polls starts its poll there and then (items made before were not leads of ours).
import type { ConnectorDefinition, SourceView } from '@leadrelay/connectors';
import { eq } from 'drizzle-orm';
import type { PgUpdateSetSource } from 'drizzle-orm/pg-core';
import type { Executor } from '../../db/client';
import { type ConnectorStateRow, connectorState } from '../../db/schema';

type Values = Partial<Omit<typeof connectorState.$inferInsert, 'integrationId' | 'accountId'>>;

export async function stateRow(db: Executor, integrationId: string): Promise<ConnectorStateRow | undefined> {
  const [row] = await db.select().from(connectorState).where(eq(connectorState.integrationId, integrationId));
  return row;
}

/** Writes `values` (`update` instead on an existing row), making the row when there is none. */
export async function upsertState(
  db: Executor,
  connector: Pick<ConnectorDefinition<unknown, unknown>, 'source'>,
  row: { id: string; accountId: string },
  now: Date,
  values: Values,
  update: PgUpdateSetSource<typeof connectorState> = values,
): Promise<void> {
  const poll = connector.source?.poll;
  await db
    .insert(connectorState)
    .values({
      integrationId: row.id,
      accountId: row.accountId,
      ...(poll ? { cursor: poll.start(now), pollFrom: now } : {}),
      ...values,
      updatedAt: now,
    })
    .onConflictDoUpdate({ target: connectorState.integrationId, set: { ...update, updatedAt: now } });
}

/** What a subscription looks like before anything was registered. */
export const NO_SUBSCRIPTION = {
  subscriptionId: null,
  subscriptionStatus: 'none',
  subscriptionRegisteredAt: null,
  subscriptionRemovedAt: null,
} as const;

export function stateView(state: ConnectorStateRow | undefined): Pick<SourceView, 'subscription' | 'poll'> {
  return {
    subscription: {
      status: state?.subscriptionStatus ?? 'none',
      registeredAt: state?.subscriptionRegisteredAt ?? null,
      removedAt: state?.subscriptionRemovedAt ?? null,
    },
    poll: {
      cursor: state?.cursor ?? null,
      lastRunAt: state?.lastPollAt ?? null,
      lastError: state?.lastPollError ?? null,
    },
  };
}
