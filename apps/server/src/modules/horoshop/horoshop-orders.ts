// Orders → leads, for the webhook receiver and the poll alike. Each new order goes through ingest
// (the one-statement lead writer: dedupe key, group commit, held leads, deliveries) as the flat
// payload horoshopOrderPayload makes, with the idempotency key `horoshop-order:<id>`: ingest's dedupe
// keys are per source integration, so that is "this shop integration + order id". An order this
// integration already took (horoshop_orders) is only counted, not sent to ingest again: a webhook
// the shop repeats and every poll that finds the order again leave the lead log alone. Two copies
// arriving at the same moment both pass that check; ingest's key then makes the second a duplicate.
import { type HoroshopOrder, horoshopOrderId, horoshopOrderPayload, normalizePhone } from '@leadrelay/shared';
import { and, eq, inArray, sql } from 'drizzle-orm';
import { horoshopOrders, type StoredRequest } from '../../db/schema';
import { AppError } from '../../lib/app-error';
import { storableText } from '../../lib/storable-text';
import { ingestWebhook } from '../ingest';
import type { HoroshopDeps } from './horoshop-deps';

/** How long an order id counts as taken in ingest's own dedupe (the poll never looks back this far). */
export const HOROSHOP_DEDUPE_WINDOW_HOURS = 30 * 24;

export interface ShopSource {
  id: string;
  accountId: string;
  /** The integration's ingest token (the receiver's URL carries it). */
  hookToken: string;
}

export interface OrderOutcome {
  orderId: string;
  /** accepted/pending/held…: a lead was written; duplicate: ingest's key caught a repeat; repeat: known already. */
  status: string;
  hookId: string | null;
}

export interface Arrival {
  via: 'webhook' | 'poll';
  /** The receiving request's method and headers (already redacted), for the hook's stored request. */
  method: string;
  headers: Record<string, string>;
  contentType?: string;
  ip?: string;
}

const key = (orderId: string) => `horoshop-order:${orderId}`;

/**
 * Takes the orders into the integration's lead flow, in the order given. Stops with
 * INTEGRATION_NOT_FOUND when the integration was deleted or deactivated meanwhile.
 */
export async function takeOrders(
  deps: Pick<HoroshopDeps, 'db' | 'events' | 'log'>,
  source: ShopSource,
  orders: HoroshopOrder[],
  arrival: Arrival,
  now = new Date(),
): Promise<OrderOutcome[]> {
  const ids = orders.map((o) => horoshopOrderId(o.order_id)).filter((id): id is string => !!id);
  if (ids.length === 0) return [];
  const known = new Set(
    (
      await deps.db
        .select({ orderId: horoshopOrders.orderId })
        .from(horoshopOrders)
        .where(and(eq(horoshopOrders.integrationId, source.id), inArray(horoshopOrders.orderId, ids)))
    ).map((r) => r.orderId),
  );
  const outcomes: OrderOutcome[] = [];
  for (const order of orders) {
    const orderId = horoshopOrderId(order.order_id);
    if (!orderId) continue;
    if (known.has(orderId)) {
      await seenAgain(deps, source.id, orderId, now);
      outcomes.push({ orderId, status: 'repeat', hookId: null });
      continue;
    }
    // PostgreSQL stores no U+0000 nor a lone surrogate; the payload is cleaned, whatever nests inside the order.
    const payload = storableText(horoshopOrderPayload(order));
    const request: StoredRequest = {
      method: arrival.method,
      contentType: arrival.contentType ?? 'application/json',
      headers: { ...arrival.headers, 'x-leadrelay-source': `horoshop-${arrival.via}`, 'x-horoshop-order-id': orderId },
      body: payload,
      ...(arrival.ip ? { ip: arrival.ip } : {}),
    };
    const result = await ingestWebhook(
      { db: deps.db, events: deps.events, log: deps.log, now: () => now },
      {
        token: source.hookToken,
        body: payload,
        request,
        idempotencyKey: key(orderId),
        minDedupeWindowHours: HOROSHOP_DEDUPE_WINDOW_HOURS,
      },
    );
    await deps.db
      .insert(horoshopOrders)
      .values({
        integrationId: source.id,
        accountId: source.accountId,
        orderId,
        name: payload.name ?? null,
        // As the lead has it (E.164 when it reads as a phone number).
        phone: payload.phone ? (normalizePhone(payload.phone) ?? payload.phone) : null,
        total: payload.total ?? null,
        currency: payload.currency ?? null,
        via: arrival.via,
        hookId: result.hookId,
        receivedAt: now,
        lastSeenAt: now,
      })
      .onConflictDoUpdate({
        target: [horoshopOrders.integrationId, horoshopOrders.orderId],
        set: { timesSeen: sql`${horoshopOrders.timesSeen} + 1`, lastSeenAt: now },
      });
    known.add(orderId);
    outcomes.push({ orderId, status: result.status, hookId: result.hookId });
  }
  return outcomes;
}

async function seenAgain(deps: Pick<HoroshopDeps, 'db'>, integrationId: string, orderId: string, now: Date) {
  await deps.db
    .update(horoshopOrders)
    .set({ timesSeen: sql`${horoshopOrders.timesSeen} + 1`, lastSeenAt: now })
    .where(and(eq(horoshopOrders.integrationId, integrationId), eq(horoshopOrders.orderId, orderId)));
}

/** INTEGRATION_NOT_FOUND from ingest: the integration went away (deleted, deactivated) while orders came. */
export const isGone = (error: unknown) => error instanceof AppError && error.code === 'INTEGRATION_NOT_FOUND';

/** Keeps the list short: orders received longer ago than this are forgotten (ingest's keys outlive the poll's reach). */
export const HOROSHOP_ORDER_RETENTION_MS = 90 * 24 * 3_600_000;
