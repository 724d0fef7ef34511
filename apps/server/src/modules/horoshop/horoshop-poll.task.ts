// The poll that covers a webhook that never came (Horoshop's queue may drop one, a subscription may
// be gone, a plan may lack webhooks): every 5 minutes, under the periodic scheduler's advisory lock
// (one node polls), each active, connected Horoshop source asks orders/get for the orders created
// since its cursor, page by page, and takes them like webhook orders (horoshop-orders.ts), so a
// poll never makes a second lead of an order the webhook brought, nor the other way round.
//
// The cursor moves to the poll's start once every page was read; each poll starts OVERLAP before
// it. orders/get takes Kyiv wall-clock times (assumed: docs/connectors/horoshop.md), so the overlap
// is longer than Kyiv's offset from UTC: a shop reading the time as UTC still misses nothing.
//
// The poll writes through the pool, not in the lock's transaction: a run waits on shops for seconds
// and must hold no row locks meanwhile (a token renewal writes the integration row), and each shop's
// progress stands once its orders are in, whatever happens to the next shop.
import { horoshopOrdersSince } from '@leadrelay/connectors';
import { and, eq, isNotNull, lt } from 'drizzle-orm';
import { horoshopOrders, horoshopSources, type IntegrationRow, integrations } from '../../db/schema';
import type { PeriodicTask } from '../../delivery/periodic';
import { markBroken, markRecovered } from '../integrations';
import { type HoroshopDeps, horoshopError, horoshopReason, storedContext, TYPE } from './horoshop-deps';
import { HOROSHOP_ORDER_RETENTION_MS, isGone, takeOrders } from './horoshop-orders';

const MINUTE = 60_000;
export const HOROSHOP_POLL_TASK = 'horoshop-poll';
export const HOROSHOP_POLL_EVERY_MS = 5 * MINUTE;
/** Each poll reads from this long before the last one started. */
export const POLL_OVERLAP_MS = 4 * 60 * MINUTE;
/** However long polls stopped, they never look back further than this. */
export const MAX_LOOKBACK_MS = 7 * 24 * 60 * MINUTE;
/** Shops polled at once. */
const CONCURRENCY = 4;
/** One shop's whole poll (all its pages) ends by then; each request by REQUEST_TIMEOUT_MS. */
const SHOP_TIMEOUT_MS = 2 * MINUTE;
const REQUEST_TIMEOUT_MS = 20_000;

export interface PollResult {
  shops: number;
  orders: number;
  failures: number;
}

type Polled = { kind: 'ok'; orders: number } | { kind: 'failed' } | { kind: 'skipped' };

async function sourcesToPoll(deps: HoroshopDeps) {
  return deps.db
    .select({ row: integrations, source: horoshopSources })
    .from(integrations)
    .leftJoin(horoshopSources, eq(horoshopSources.integrationId, integrations.id))
    .where(
      and(
        eq(integrations.type, TYPE),
        eq(integrations.active, true),
        isNotNull(integrations.auth),
        isNotNull(integrations.hookToken),
      ),
    )
    .orderBy(integrations.createdAt);
}

async function setPollState(
  deps: HoroshopDeps,
  row: IntegrationRow,
  values: { polledUntil?: Date; pollFrom?: Date; lastPollAt: Date; lastPollError: string | null },
) {
  await deps.db
    .insert(horoshopSources)
    .values({
      integrationId: row.id,
      accountId: row.accountId,
      polledUntil: values.polledUntil ?? values.lastPollAt,
      pollFrom: values.pollFrom ?? values.lastPollAt,
      ...values,
    })
    .onConflictDoUpdate({ target: horoshopSources.integrationId, set: { ...values, updatedAt: values.lastPollAt } });
}

/** One shop: its orders since the cursor, into its lead flow; its health from the shop's answer. */
export async function pollShop(
  deps: HoroshopDeps,
  row: IntegrationRow,
  cursor: { polledUntil: Date | null; pollFrom: Date | null } | undefined,
  now: Date,
): Promise<Polled> {
  // A source connected before it had a cursor (PUT .../connect) starts from now.
  if (!cursor?.polledUntil) {
    await setPollState(deps, row, { polledUntil: now, pollFrom: now, lastPollAt: now, lastPollError: null });
    return { kind: 'skipped' };
  }
  // The overlap reaches back, but never before the connection, nor past the longest look back.
  const since = new Date(
    Math.max(
      cursor.polledUntil.getTime() - POLL_OVERLAP_MS,
      cursor.pollFrom?.getTime() ?? 0,
      now.getTime() - MAX_LOOKBACK_MS,
    ),
  );
  let polled: Awaited<ReturnType<typeof horoshopOrdersSince>>;
  try {
    const ctx = storedContext(deps, row, {
      timeoutMs: REQUEST_TIMEOUT_MS,
      signal: AbortSignal.timeout(SHOP_TIMEOUT_MS),
    });
    polled = await horoshopOrdersSince(ctx, since);
  } catch (error) {
    const reason = horoshopReason(error);
    await setPollState(deps, row, { lastPollAt: now, lastPollError: reason });
    // The shop refused the login and password: the user must fix them. (A token given alone only
    // stops the poll; its webhook still brings orders, so the integration is not broken.)
    const code = horoshopError(error).code;
    if (code === 'HOROSHOP_AUTH_FAILED' || code === 'INTEGRATION_AUTH_UNREADABLE') {
      const changed = await markBroken(deps.db, row.id, reason, now);
      if (changed?.previous === 'ok') {
        deps.emitIntegrationUpdate(row.accountId, { integrationId: row.id, status: 'broken', statusReason: reason });
      }
    }
    deps.log.warn({ integrationId: row.id, reason }, 'horoshop poll failed; the next poll tries again');
    return { kind: 'failed' };
  }
  const outcomes = await takeOrders(
    deps,
    { id: row.id, accountId: row.accountId, hookToken: row.hookToken! },
    polled.orders,
    { via: 'poll', method: 'POST', headers: {} },
    now,
  );
  await setPollState(deps, row, {
    // Pages ran out before the orders did: the cursor stays, the next poll reads the window again.
    ...(polled.isComplete ? { polledUntil: now } : {}),
    lastPollAt: now,
    lastPollError: polled.isComplete ? null : 'HOROSHOP_POLL_TRUNCATED',
  });
  if (row.status === 'broken' && (await markRecovered(deps.db, row.id, now))) {
    deps.emitIntegrationUpdate(row.accountId, { integrationId: row.id, status: 'ok', statusReason: null });
  }
  return { kind: 'ok', orders: outcomes.filter((o) => o.status !== 'repeat' && o.status !== 'duplicate').length };
}

/** Every connected, active Horoshop source, a few at a time. */
export async function pollShops(deps: HoroshopDeps, now: Date): Promise<PollResult> {
  const list = await sourcesToPoll(deps);
  const result: PollResult = { shops: 0, orders: 0, failures: 0 };
  let next = 0;
  const worker = async () => {
    while (next < list.length) {
      const { row, source } = list[next++]!;
      try {
        const polled = await pollShop(deps, row, source ?? undefined, now);
        if (polled.kind === 'ok') {
          result.shops++;
          result.orders += polled.orders;
        } else if (polled.kind === 'failed') result.failures++;
      } catch (error) {
        // Deleted or deactivated while polled: nothing takes its orders any more.
        if (isGone(error)) continue;
        result.failures++;
        deps.log.error({ err: error, integrationId: row.id }, 'horoshop poll of a shop failed');
      }
    }
  };
  await Promise.all(Array.from({ length: Math.min(CONCURRENCY, list.length) }, worker));
  return result;
}

/** The module's periodic tasks: the poll, and forgetting orders past the retention. */
export function horoshopTasks(deps: HoroshopDeps): PeriodicTask[] {
  return [
    { name: HOROSHOP_POLL_TASK, everyMs: HOROSHOP_POLL_EVERY_MS, run: (_tx, now) => pollShops(deps, now) },
    {
      name: 'prune-horoshop-orders',
      everyMs: 6 * 60 * MINUTE,
      run: (tx, now) =>
        tx
          .delete(horoshopOrders)
          .where(lt(horoshopOrders.receivedAt, new Date(now.getTime() - HOROSHOP_ORDER_RETENTION_MS))),
    },
  ];
}
