// Horoshop as a lead source, declared for the server's generic machinery (kit/source.ts): an order
// is an item (its id, the flat payload horoshopOrderPayload makes), the shop PUTs order webhooks to
// our receiver, the poll of orders/get covers a webhook that never came, our receiver is subscribed
// to order_created, and the integration page reads the connection, webhook, poll and last orders.
//
// The poll's cursor is {polledUntil}: orders created before it were looked for. Each poll reads
// from POLL_OVERLAP_MS before it. orders/get takes Kyiv wall-clock times (assumed:
// docs/connectors/horoshop.md), so the overlap is longer than Kyiv's offset from UTC: a shop
// reading the time as UTC still misses nothing; orders already taken are only counted.
import { normalizePhone } from '@leadrelay/shared';
import { z } from 'zod';
import { PermanentError } from '../kit/errors';
import { cursorAt, isoOrNull, polledUntilOf, pollState, seenOrder } from '../kit/poll-view';
import type {
  ConnectorErrors,
  ConnectorSource,
  SourceAlias,
  SourceConnect,
  SourceItem,
  SourceView,
} from '../kit/source';
import {
  checkAccess,
  type HoroshopAuth,
  type HoroshopContext,
  hasPassword,
  ordersSince,
  shopWordsOf,
  signIn,
  subscribe,
  unsubscribe,
} from './client';
import { parseOrdersBody } from './mapping';
import {
  type HoroshopAuthBody,
  type HoroshopOrder,
  type HoroshopState,
  horoshopOrderId,
  horoshopOrderPayload,
  horoshopShopUrl,
  ZHoroshopAuthBody,
  ZHoroshopSettings,
  ZHoroshopState,
} from './schema';

type Settings = z.infer<typeof ZHoroshopSettings>;

const MINUTE = 60_000;
/** Each poll reads from this long before the last one started. */
export const POLL_OVERLAP_MS = 4 * 60 * MINUTE;
/** However long polls stopped, they never look back further than this. */
export const MAX_LOOKBACK_MS = 7 * 24 * 60 * MINUTE;
export const POLL_TASK = 'horoshop-poll';
/** Orders the integration page lists. */
export const RECENT_ORDERS = 20;

/** Where the shop sends order webhooks: public, proved by the secret token in the path (Horoshop signs nothing). */
export const RECEIVER_PATH = '/api/horoshop/webhook/:token';

/** An order as an item: its id and the lead's payload; an order without a usable id is none. */
export function orderItems(orders: HoroshopOrder[]): SourceItem[] {
  return orders.flatMap((order) => {
    const id = horoshopOrderId(order.order_id);
    return id ? [{ id, payload: horoshopOrderPayload(order) }] : [];
  });
}

export { polledUntilOf };

const ZReceived = z.object({
  ok: z.literal(true),
  orders: z.array(z.object({ orderId: z.string(), status: z.string(), hookId: z.string().nullable() })),
});

const iso = isoOrNull;

/** The connection (never its password or token), webhook, poll and the last orders with their leads' status. */
export function horoshopState(view: SourceView): HoroshopState {
  const { auth } = view;
  const login = typeof auth.login === 'string' ? auth.login : null;
  const authMode = login && auth.password ? 'password' : auth.token ? 'token' : 'none';
  const settings = ZHoroshopSettings.safeParse(view.settings);
  return {
    shopUrl: (settings.success ? settings.data.shopUrl : undefined) ?? null,
    authMode,
    login: authMode === 'password' ? login : null,
    webhook: {
      status: view.subscription.status,
      registeredAt: iso(view.subscription.registeredAt),
      removedAt: iso(view.subscription.removedAt),
    },
    poll: pollState(view),
    orders: view.seen.map(seenOrder),
  };
}

/**
 * POST .../horoshop/auth: the shop's address and an API admin's login and password (or a token),
 * checked with the shop (a sign-in, then one order asked for) before anything is stored.
 */
const horoshopConnect: SourceConnect<HoroshopAuth, Settings> = {
  body: ZHoroshopAuthBody,
  account: (settings) => {
    const parsed = ZHoroshopSettings.safeParse(settings);
    return parsed.success ? parsed.data.shopUrl : undefined;
  },
  async run(call, input) {
    const body = input as HoroshopAuthBody;
    const shopUrl = horoshopShopUrl(body.domain);
    if (!shopUrl) throw new PermanentError('Not a shop address', { code: 'DOMAIN_INVALID' });
    const given: HoroshopAuth =
      body.login && body.password ? { login: body.login, password: body.password } : { token: body.token ?? '' };
    const ctx: HoroshopContext = { ...call, auth: given, settings: { shopUrl } };
    if (hasPassword(given)) ctx.auth = await signIn(ctx);
    await checkAccess(ctx);
    return { auth: ctx.auth, settings: { shopUrl } };
  },
};

export const horoshopSource: ConnectorSource<HoroshopAuth, Settings> = {
  connect: horoshopConnect,
  items: {
    // Ingest's dedupe keys are per source integration: "this shop integration + order id".
    key: 'horoshop-order',
    header: 'x-horoshop-order-id',
    // The poll never looks back this far.
    dedupeWindowHours: 30 * 24,
    // Ingest's keys outlive the poll's reach; the list stays short.
    keepForMs: 90 * 24 * 60 * MINUTE,
    summary: (payload) => ({
      name: payload.name ?? null,
      // As the lead has it (E.164 when it reads as a phone number).
      phone: payload.phone ? (normalizePhone(payload.phone) ?? payload.phone) : null,
      total: payload.total ?? null,
      currency: payload.currency ?? null,
    }),
  },
  receivers: {
    orders: {
      path: RECEIVER_PATH,
      methods: ['PUT', 'POST'],
      summary: 'Horoshop order webhook: each order becomes one lead, a repeated order none',
      // The shop's body is the shop's: any key is data.
      keysAsData: true,
      read: (body) => orderItems(parseOrdersBody(body)),
      // The shop retries; the poll finds the order anyway.
      empty: 'HOROSHOP_NO_ORDERS',
      removal: { summary: 'Horoshop removed the subscription: the integration shows its webhook as removed' },
      reply: {
        schema: ZReceived,
        body: (outcomes) => ({
          ok: true,
          orders: outcomes.map((o) => ({ orderId: o.id, status: o.status, hookId: o.hookId })),
        }),
      },
    },
  },
  poll: {
    task: POLL_TASK,
    everyMs: 5 * MINUTE,
    concurrency: 4,
    timeoutMs: 2 * MINUTE,
    requestTimeoutMs: 20_000,
    start: cursorAt,
    async run(ctx, { cursor, from, now }) {
      // The overlap reaches back, but never before the connection, nor past the longest look back.
      const until = polledUntilOf(cursor) ?? now;
      const since = new Date(
        Math.max(until.getTime() - POLL_OVERLAP_MS, from.getTime(), now.getTime() - MAX_LOOKBACK_MS),
      );
      const polled = await ordersSince(ctx, since);
      // Pages ran out before the orders did: the cursor stays, the next poll reads the window again.
      return polled.isComplete
        ? { items: orderItems(polled.orders), cursor: cursorAt(now) }
        : { items: orderItems(polled.orders), note: 'HOROSHOP_POLL_TRUNCATED' };
    },
  },
  // Only new orders; registering again removes our previous subscription first (5 per event at most).
  subscription: {
    receiver: 'orders',
    subscribe: (ctx, url) => subscribe(ctx, url),
    unsubscribe: (ctx, { id, url }) => unsubscribe(ctx, id, url),
  },
  state: { recent: RECENT_ORDERS, schema: ZHoroshopState, read: horoshopState },
};

/** What a failure tells the user: the key says what they can do (fix the login, the address, wait), the message is the shop's words. */
export const horoshopErrors: ConnectorErrors = {
  byCode: {
    AUTH: 'HOROSHOP_AUTH_FAILED',
    TOKEN_EXPIRED: 'HOROSHOP_TOKEN_EXPIRED',
    NOT_A_SHOP: { key: 'HOROSHOP_NOT_A_SHOP', field: 'domain' },
    URL_NOT_ALLOWED: { key: 'HOROSHOP_DOMAIN_INVALID', field: 'domain' },
    DOMAIN_INVALID: { key: 'HOROSHOP_DOMAIN_INVALID', field: 'domain', bare: true },
    REFUSED: 'HOROSHOP_REFUSED',
    NOT_CONNECTED: { key: 'INTEGRATION_NOT_CONNECTED', bare: true },
  },
  // Network, timeout, 429, 5xx, EXCEPTION: the shop may answer later.
  otherwise: 'HOROSHOP_UNAVAILABLE',
  words: shopWordsOf,
};

/** Spec 7 "Shop" and the integration page's own paths. */
export const horoshopAliases: readonly SourceAlias[] = [
  {
    path: '/api/integrations/:id/horoshop/auth',
    source: 'connect',
    summary: 'Connect the shop: its address and an API admin login and password, or a token',
  },
  {
    path: '/api/integrations/:id/horoshop',
    source: 'state',
    summary: 'The connection, its webhook and poll, the last orders',
  },
  {
    path: '/api/integrations/:id/horoshop/webhooks',
    source: 'subscribe',
    summary: 'Register our receiver for new orders at the shop',
  },
  {
    path: '/api/integrations/:id/horoshop/webhooks',
    source: 'unsubscribe',
    summary: 'Remove our receiver at the shop',
  },
  {
    path: '/api/integrations/:id/horoshop/poll',
    source: 'poll',
    summary: 'Look for orders now (as the poll does every 5 minutes)',
  },
];
