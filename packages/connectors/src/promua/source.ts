// Prom.ua as a lead source, declared for the server's generic machinery (kit/source.ts): an order is
// an item (its id, the flat payload promOrderPayload makes), the poll of orders/list finds new
// orders every few minutes (Prom has no order webhooks for merchants that we could confirm), and
// the integration page reads the connection, the poll and the last orders.
//
// The poll's cursor is {polledUntil}: orders created before it were looked for. Each poll reads from
// POLL_OVERLAP_MS before it (an order whose creation time lags behind its appearance is still
// found; orders already taken are only counted), never from before the connection: the first poll
// takes only orders made since the token was connected. A refused run (429, 5xx, the network)
// leaves the cursor where it was, so the next run reads the same window and no order is lost.
import { normalizePhone } from '@leadrelay/shared';
import { cursorAt, polledUntilOf, pollState, seenOrder } from '../kit/poll-view';
import type { ConnectorErrors, ConnectorSource, SourceConnect, SourceItem, SourceView } from '../kit/source';
import { checkToken, ordersSince, type PromuaContext, promWordsOf } from './client';
import { type PromOrder, promOrderId, promOrderPayload } from './mapping';
import type { PromuaAuth } from './schema';
import {
  type PromuaConnectBody,
  type PromuaSettings,
  type PromuaState,
  ZPromuaConnectBody,
  ZPromuaState,
} from './schema';

const MINUTE = 60_000;
/** Each poll reads from this long before the last one started. */
export const POLL_OVERLAP_MS = 60 * MINUTE;
/** However long polls stopped, they never look back further than this. */
export const MAX_LOOKBACK_MS = 7 * 24 * 60 * MINUTE;
export const POLL_TASK = 'promua-poll';
/** Orders the integration page lists. */
export const RECENT_ORDERS = 20;

/** When Prom says the order was made; undefined when it does not say so readably. */
export function createdAt(order: PromOrder): Date | undefined {
  const raw = order.date_created;
  if (typeof raw !== 'string' || !raw.trim()) return undefined;
  // A time without a zone is read as UTC, as Prom's filters are (assumed: docs/connectors/promua.md).
  const withZone = /(?:Z|[+-]\d{2}:?\d{2})$/i.test(raw.trim()) ? raw.trim() : `${raw.trim()}Z`;
  const at = new Date(withZone);
  return Number.isNaN(at.getTime()) ? undefined : at;
}

/** Orders as items: each with a usable id, made no earlier than `from` when Prom says when. */
export function orderItems(orders: PromOrder[], from?: Date): SourceItem[] {
  return orders.flatMap((order) => {
    const id = promOrderId(order.id);
    if (!id) return [];
    const at = createdAt(order);
    if (from && at && at.getTime() < from.getTime()) return [];
    return [{ id, payload: promOrderPayload(order) }];
  });
}

export { polledUntilOf };

/** The connection (never its token: its last four characters), the poll and the last orders with their leads' status. */
export function promuaState(view: SourceView): PromuaState {
  const token = typeof view.auth.token === 'string' ? view.auth.token : null;
  return {
    connected: !!token,
    tokenEnd: token && token.length >= 12 ? token.slice(-4) : null,
    poll: pollState(view),
    orders: view.seen.map((o) => ({ ...seenOrder(o), orderStatus: o.summary.status ?? null })),
  };
}

/** POST /api/integrations/{id}/connect: the token, checked with Prom (one order asked for) before it is stored. */
const promuaConnect: SourceConnect<PromuaAuth, PromuaSettings> = {
  body: ZPromuaConnectBody,
  async run(call, input) {
    const { token } = input as PromuaConnectBody;
    const ctx: PromuaContext = { ...call, auth: { token }, settings: {} };
    await checkToken(ctx);
    return { auth: { token }, settings: {} };
  },
};

export const promuaSource: ConnectorSource<PromuaAuth, PromuaSettings> = {
  connect: promuaConnect,
  items: {
    // Ingest's dedupe keys are per source integration: "this Prom integration + order id".
    key: 'promua-order',
    header: 'x-promua-order-id',
    // The poll never looks back this far.
    dedupeWindowHours: 30 * 24,
    keepForMs: 90 * 24 * 60 * MINUTE,
    summary: (payload) => ({
      name: payload.name ?? null,
      // As the lead has it (E.164 when it reads as a phone number).
      phone: payload.phone ? (normalizePhone(payload.phone) ?? payload.phone) : null,
      total: payload.total ?? null,
      currency: payload.currency ?? null,
      status: payload.status_name ?? payload.status ?? null,
    }),
  },
  poll: {
    task: POLL_TASK,
    everyMs: 5 * MINUTE,
    concurrency: 4,
    timeoutMs: 2 * MINUTE,
    requestTimeoutMs: 20_000,
    start: cursorAt,
    async run(ctx, { cursor, from, now }) {
      const until = polledUntilOf(cursor) ?? now;
      const since = new Date(
        Math.max(until.getTime() - POLL_OVERLAP_MS, from.getTime(), now.getTime() - MAX_LOOKBACK_MS),
      );
      const polled = await ordersSince(ctx as PromuaContext, since);
      const items = orderItems(polled.orders, from);
      // Pages ran out before the orders did: the cursor stays, the next poll reads the window again.
      return polled.isComplete ? { items, cursor: cursorAt(now) } : { items, note: 'PROMUA_POLL_TRUNCATED' };
    },
  },
  state: { recent: RECENT_ORDERS, schema: ZPromuaState, read: promuaState },
};

/** What a failure tells the user: the key says what they can do (a new token, wait), the message is Prom's words. */
export const promuaErrors: ConnectorErrors = {
  byCode: {
    AUTH: { key: 'PROMUA_AUTH_FAILED', field: 'token' },
    NOT_PROM: 'PROMUA_NOT_PROM',
    REFUSED: 'PROMUA_REFUSED',
  },
  // Network, timeout, 429, 5xx: Prom may answer later.
  otherwise: 'PROMUA_UNAVAILABLE',
  words: promWordsOf,
};
