// A stateful fake of a Horoshop shop's API (external-apis 6.3) for our tests, the demo and the
// end-to-end suite: POST /api/auth/ (600-s tokens on a fake clock), the body-token check answering
// UNAUTHORIZED, orders/get (from/to, ids, status, limit/offset, EMPTY), orders/get_available_statuses,
// orders/update (WARNING with a log), hooks/subscribe (201 {id}, 5 per event) and hooks/unSubscribe
// (410), UNDEFINED_FUNCTION for anything else, and every answer in HTTP 200 as the shop does.
// Control API under /__emulator: make orders, fire their webhook (a PUT with the order as JSON, once
// or twice) at every subscribed target, remove a subscription from the shop's side (a DELETE to its
// target), move the clock, faults (expired token, 429, 5xx, ERROR or EXCEPTION inside a 200),
// latency, reset, and the request log.
import Fastify, { type FastifyReply, type FastifyRequest } from 'fastify';
import { createEmulatorKit, listenEmulator, registerControlRoutes } from '../kit/emulator-kit';
import {
  createShopState,
  type EmulatedSubscription,
  HOOK_EVENTS,
  type NewOrderInput,
  parseShopDate,
  type ShopState,
} from './emulator-state';

export interface EmulatedHoroshopRequest {
  method: string;
  path: string;
  /** The API function (orders/get …), or undefined for other paths. */
  fn?: string;
  body: unknown;
  status: number;
  receivedAt: string;
}

/**
 * A fault for the next `times` API calls (default until cleared), optionally only for one function:
 * an HTTP status (429 with Retry-After, 5xx), `expired-token` (every token stops working and the call
 * answers UNAUTHORIZED), or `error` / `exception` (status ERROR / EXCEPTION inside HTTP 200).
 */
export interface HoroshopFault {
  kind?: 'http' | 'expired-token' | 'error' | 'exception';
  status?: number;
  retryAfter?: number;
  message?: string;
  /** Only this function (e.g. 'orders/get'; 'auth' for the sign-in); default every function. */
  fn?: string;
  times?: number;
}

export interface WebhookShot {
  subscriptionId: number;
  targetUrl: string;
  /** The target's HTTP status, or 0 when it could not be reached. */
  status: number;
  body?: unknown;
}

export interface HoroshopEmulatorOptions {
  port?: number;
  host?: string;
  login?: string;
  password?: string;
  /** Token lifetime in seconds (Horoshop: 600). */
  tokenTtlSeconds?: number;
  /** Subscriptions one event takes (Horoshop: 5); a demo shop every account connects to needs more. */
  maxSubscriptionsPerEvent?: number;
  maxLog?: number;
}

export interface HoroshopEmulator {
  /** The shop's address, what a user types as its domain. */
  url: string;
  port: number;
  login: string;
  password: string;
  requests: EmulatedHoroshopRequest[];
  state: ShopState;
  /** Makes an order (as a customer checking out would); webhooks are fired separately. */
  createOrder(input?: NewOrderInput): ReturnType<ShopState['addOrder']>;
  /** PUTs the order to every target subscribed to `event`, `times` times in a row. */
  fireWebhook(orderId: number, options?: { times?: number; event?: string }): Promise<WebhookShot[]>;
  /** Removes a subscription on the shop's side: a DELETE goes to its target. */
  removeSubscription(id: number): Promise<WebhookShot | null>;
  /** Moves the fake clock (token expiry, order times) forward. */
  advance(ms: number): void;
  now(): number;
  setLatency(ms: number): void;
  setFault(fault: HoroshopFault | null): void;
  reset(): void;
  close(): Promise<void>;
}

const TTL_SECONDS = 600;
const STATUSES = [
  { id: 1, title: { ua: 'Новий', ru: 'Новый' }, is_successful: false },
  { id: 2, title: { ua: 'В обробці', ru: 'В обработке' }, is_successful: false },
  { id: 3, title: { ua: 'Доставлено', ru: 'Доставлен' }, is_successful: true },
  { id: 4, title: { ua: 'Не доставлено', ru: 'Не доставлен' }, is_successful: false },
  { id: 6, title: { ua: 'Доставляється', ru: 'Доставляется' }, is_successful: false },
];

const isRecord = (v: unknown): v is Record<string, unknown> => !!v && typeof v === 'object' && !Array.isArray(v);
const ok = (response: unknown) => ({ status: 'OK', response });
const refused = (status: string, message: string) => ({ status, response: { message } });

async function shoot(method: 'PUT' | 'DELETE', sub: EmulatedSubscription, body: unknown): Promise<WebhookShot> {
  try {
    const res = await fetch(sub.targetUrl, {
      method,
      headers: { 'content-type': 'application/json', 'user-agent': 'Horoshop-Webhooks (emulated)' },
      body: JSON.stringify(body),
      signal: AbortSignal.timeout(10_000),
    });
    const text = await res.text();
    let parsed: unknown = text;
    try {
      parsed = text ? JSON.parse(text) : undefined;
    } catch {
      // kept as text
    }
    return { subscriptionId: sub.id, targetUrl: sub.targetUrl, status: res.status, body: parsed };
  } catch {
    return { subscriptionId: sub.id, targetUrl: sub.targetUrl, status: 0 };
  }
}

export async function startHoroshopEmulator(options: HoroshopEmulatorOptions = {}): Promise<HoroshopEmulator> {
  const login = options.login ?? 'api';
  const password = options.password ?? 'horoshop-demo-password';
  const ttlMs = (options.tokenTtlSeconds ?? TTL_SECONDS) * 1000;
  const app = Fastify({ logger: false, forceCloseConnections: true, bodyLimit: 5 * 1024 * 1024 });
  const kit = createEmulatorKit<HoroshopFault, EmulatedHoroshopRequest>({ maxLog: options.maxLog ?? 10_000 });
  let clockOffset = 0;
  const now = () => Date.now() + clockOffset;
  const state = createShopState(now, options.maxSubscriptionsPerEvent);

  const emulator: HoroshopEmulator = {
    url: '',
    port: 0,
    login,
    password,
    requests: kit.requests,
    state,
    createOrder: (input) => state.addOrder(input),
    async fireWebhook(orderId, { times = 1, event = 'order_created' } = {}) {
      const found = state.findOrder(orderId);
      if (!found) return [];
      const shots: WebhookShot[] = [];
      for (const sub of state.subscriptions.filter((s) => s.event === event)) {
        for (let i = 0; i < times; i++) shots.push(await shoot('PUT', sub, found.order));
      }
      return shots;
    },
    async removeSubscription(id) {
      const sub = state.subscriptions.find((s) => s.id === id);
      if (!sub) return null;
      state.unsubscribe(sub.id, sub.targetUrl);
      return shoot('DELETE', sub, { id: sub.id, event: sub.event });
    },
    advance(ms) {
      clockOffset += ms;
    },
    now,
    setLatency: kit.setLatency,
    setFault: kit.setFault,
    reset() {
      state.reset();
      kit.resetSwitches();
      clockOffset = 0;
    },
    async close() {
      kit.clearTimers();
      await app.close();
    },
  };

  // ---- Control API ----
  app.get('/__log', async () => ({ requests: kit.requests }));
  registerControlRoutes(app, kit, { reset: () => emulator.reset() });
  app.get('/__emulator/state', async () => ({
    orders: state.orders.map((o) => o.order),
    subscriptions: state.subscriptions,
    tokensIssued: state.tokensIssued(),
    now: new Date(now()).toISOString(),
  }));
  app.post('/__emulator/clock', async (req) => {
    const seconds = Number((req.body as { advanceSeconds?: unknown } | null)?.advanceSeconds ?? 0);
    if (Number.isFinite(seconds) && seconds > 0) emulator.advance(seconds * 1000);
    return { ok: true, now: new Date(now()).toISOString() };
  });
  app.post('/__emulator/orders', async (req, reply) => {
    const body = isRecord(req.body) ? (req.body as NewOrderInput) : {};
    return reply.code(201).send(state.addOrder(body));
  });
  app.post('/__emulator/orders/:id/webhook', async (req, reply) => {
    const id = Number((req.params as { id: string }).id);
    const b = isRecord(req.body) ? req.body : {};
    const times = Math.min(Math.max(Number(b.times ?? 1) || 1, 1), 10);
    if (!state.findOrder(id)) return reply.code(404).send({ message: 'No such order' });
    const shots = await emulator.fireWebhook(id, { times, event: typeof b.event === 'string' ? b.event : undefined });
    return { ok: true, shots };
  });
  app.delete('/__emulator/subscriptions/:id', async (req, reply) => {
    const shot = await emulator.removeSubscription(Number((req.params as { id: string }).id));
    if (!shot) return reply.code(404).send({ message: 'No such subscription' });
    return { ok: true, shot };
  });

  // ---- The shop's API ----
  const entryOf = (req: FastifyRequest) => (req as unknown as { hsEntry?: EmulatedHoroshopRequest }).hsEntry;
  app.addHook('onRequest', async (req) => {
    if (!req.url.startsWith('/api/')) return;
    const fn = req.url
      .split('?')[0]!
      .replace(/^\/api\//, '')
      .replace(/\/+$/, '');
    (req as unknown as { hsEntry?: EmulatedHoroshopRequest }).hsEntry = kit.log({
      method: req.method,
      path: req.url,
      fn,
      body: undefined,
      status: 200,
      receivedAt: new Date().toISOString(),
    });
  });
  app.addHook('onSend', async (req, reply, payload) => {
    const entry = entryOf(req);
    if (entry) entry.status = reply.statusCode;
    return payload;
  });
  // The shop answers a body it cannot read inside HTTP 200, like everything else.
  app.setErrorHandler((error, _req, reply) => {
    const status = (error as { statusCode?: number }).statusCode ?? 500;
    if (status === 400 || status === 415) return reply.code(200).send(refused('ERROR', 'Payload is not JSON'));
    return reply.code(status).send({ message: (error as Error).message });
  });

  /** The fault for this call, if one applies; answers it and returns true. */
  function answerFault(fn: string, reply: FastifyReply): FastifyReply | null {
    const f = kit.takeFault((fault) => !fault.fn || fault.fn === fn);
    if (!f) return null;
    const kind = f.kind ?? (f.status === 401 ? 'expired-token' : 'http');
    if (kind === 'expired-token') {
      state.tokens.clear();
      return reply.send(refused('UNAUTHORIZED', f.message ?? 'Token is expired'));
    }
    if (kind === 'error') return reply.send(refused('ERROR', f.message ?? 'Emulated error'));
    if (kind === 'exception') return reply.send(refused('EXCEPTION', f.message ?? 'Emulated exception'));
    if (f.retryAfter !== undefined) reply.header('retry-after', String(f.retryAfter));
    return reply.code(f.status ?? 500).send(f.status === 429 ? 'Too Many Requests' : { message: 'Emulated fault' });
  }

  app.post('/api/*', async (req, reply) => {
    const entry = entryOf(req);
    if (entry) entry.body = req.body;
    const fn = entry?.fn ?? '';
    const body = isRecord(req.body) ? req.body : {};
    await kit.delay();
    if (answerFault(fn, reply)) return reply;

    if (fn === 'auth') {
      if (body.login === login && body.password === password) return ok({ token: state.issueToken() });
      return refused('ERROR', 'Incorrect login or password');
    }
    if (!state.isTokenValid(body.token, ttlMs)) return refused('UNAUTHORIZED', 'Token is invalid or expired');

    switch (fn) {
      case 'orders/get':
        return ordersGet(body);
      case 'orders/get_available_statuses':
        return ok({ statuses: STATUSES });
      case 'orders/update':
        return ordersUpdate(body);
      case 'hooks/subscribe': {
        const event = body.event;
        const target = body.target_url;
        if (typeof event !== 'string' || !(HOOK_EVENTS as readonly string[]).includes(event)) {
          return refused('ERROR', 'Unknown event');
        }
        if (typeof target !== 'string' || !/^https?:\/\//.test(target)) return refused('ERROR', 'Invalid target_url');
        const sub = state.subscribe(event, target);
        if (sub === 'limit') return refused('ERROR', 'Subscriptions limit for current event has been reached');
        return reply.code(201).send({ id: sub.id });
      }
      case 'hooks/unSubscribe': {
        const removed = state.unsubscribe(Number(body.id), String(body.target_url ?? ''));
        return removed
          ? reply.code(410).send({ id: Number(body.id), removed: true })
          : reply.code(404).send({ message: 'Subscription not found' });
      }
      default:
        return { status: 'UNDEFINED_FUNCTION', response: [] };
    }
  });

  function ordersGet(body: Record<string, unknown>) {
    const from = body.from === undefined ? null : parseShopDate(body.from, 'from');
    const to = body.to === undefined ? null : parseShopDate(body.to, 'to');
    if ((body.from !== undefined && from === null) || (body.to !== undefined && to === null)) {
      return refused('ERROR', 'Invalid date format');
    }
    const ids = Array.isArray(body.ids) ? new Set(body.ids.map(Number)) : null;
    const statuses =
      body.status === undefined
        ? null
        : new Set((Array.isArray(body.status) ? body.status : [body.status]).map(Number));
    let found = state.orders
      .filter((o) => from === null || o.createdAt >= from)
      .filter((o) => to === null || o.createdAt <= to)
      .filter((o) => !ids || ids.has(Number(o.order.order_id)))
      .filter((o) => !statuses || statuses.has(Number(o.order.status)))
      .sort((a, b) => Number(a.order.order_id) - Number(b.order.order_id))
      .map((o) => o.order);
    // offset counts only together with limit.
    const limit = Number(body.limit);
    if (Number.isInteger(limit) && limit > 0) {
      const offset = Math.max(0, Number(body.offset) || 0);
      found = found.slice(offset, offset + Math.min(limit, 1000));
    }
    if (found.length === 0) return { status: 'EMPTY', response: [] };
    return ok({ orders: found });
  }

  function ordersUpdate(body: Record<string, unknown>) {
    const list = Array.isArray(body.orders) ? body.orders.filter(isRecord) : [];
    const log: { order_id: unknown; code: string; message: string }[] = [];
    for (const change of list) {
      const found = state.findOrder(Number(change.order_id));
      if (!found) {
        log.push({ order_id: change.order_id, code: 'NOT_FOUND', message: 'Order not found' });
        continue;
      }
      if (change.status !== undefined) found.order.status = Number(change.status);
      if (change.payed !== undefined) found.order.payed = Number(change.payed);
    }
    return log.length ? { status: 'WARNING', response: { log } } : ok({ message: 'UPDATED' });
  }

  const listening = await listenEmulator(app, options);
  emulator.url = listening.url;
  emulator.port = listening.port;
  return emulator;
}
