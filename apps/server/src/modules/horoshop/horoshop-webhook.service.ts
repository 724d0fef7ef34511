// What the receiver does with a Horoshop webhook: find the integration by its secret token, read
// the orders out of the body, and take each into the lead flow (horoshop-orders.ts).
import { parseHoroshopOrders } from '@leadrelay/connectors';
import { and, eq } from 'drizzle-orm';
import { horoshopSources, integrations } from '../../db/schema';
import { AppError } from '../../lib/app-error';
import { nestsDeeperThan } from '../../plugins/input';
import { type HoroshopDeps, TYPE } from './horoshop-deps';
import { type Arrival, type OrderOutcome, type ShopSource, takeOrders } from './horoshop-orders';

/** The active Horoshop integration whose ingest token this is; INTEGRATION_NOT_FOUND otherwise. */
async function sourceOf(deps: HoroshopDeps, token: string, activeOnly: boolean): Promise<ShopSource> {
  const [row] = await deps.db
    .select({ id: integrations.id, accountId: integrations.accountId, active: integrations.active })
    .from(integrations)
    .where(and(eq(integrations.hookToken, token), eq(integrations.type, TYPE)));
  if (!row || (activeOnly && !row.active)) throw new AppError('INTEGRATION_NOT_FOUND');
  return { id: row.id, accountId: row.accountId, hookToken: token };
}

/** A body that is not JSON is INVALID_JSON; one with no order in it HOROSHOP_NO_ORDERS. */
function ordersIn(raw: Buffer) {
  let body: unknown;
  try {
    body = JSON.parse(raw.toString('utf8'));
  } catch {
    throw new AppError('INVALID_JSON');
  }
  if (nestsDeeperThan(body)) throw new AppError('BODY_TOO_DEEP');
  // Text PostgreSQL cannot store is cleaned in each order's payload (horoshop-orders.ts), never by walking the whole body.
  const orders = parseHoroshopOrders(body);
  if (orders.length === 0) throw new AppError('HOROSHOP_NO_ORDERS');
  return orders;
}

export async function receiveOrders(
  deps: HoroshopDeps,
  token: string,
  raw: Buffer,
  request: Omit<Arrival, 'via'>,
): Promise<OrderOutcome[]> {
  const source = await sourceOf(deps, token, true);
  const orders = ordersIn(raw);
  // Ingest tells the browsers (hook.changed → HOOK_INFORMER); the integration page's order list listens to it.
  return takeOrders(deps, source, orders, { ...request, via: 'webhook' });
}

/** The shop removed our subscription (a DELETE to the receiver): the page says so, registering again fixes it. */
export async function subscriptionRemoved(deps: HoroshopDeps, token: string): Promise<void> {
  const source = await sourceOf(deps, token, false);
  const now = new Date();
  await deps.db
    .insert(horoshopSources)
    .values({ integrationId: source.id, accountId: source.accountId, webhookStatus: 'removed', webhookRemovedAt: now })
    .onConflictDoUpdate({
      target: horoshopSources.integrationId,
      set: { webhookStatus: 'removed', webhookRemovedAt: now, updatedAt: now },
    });
  deps.log.info({ integrationId: source.id }, 'horoshop removed the order webhook subscription');
}
