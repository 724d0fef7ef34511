// A stateful fake of Prom.ua's public API v1 for our tests, the demo and the end-to-end suite:
// GET /api/v1/orders/list (date_from, date_to, last_id, limit ≤ 100, status; newest first) and
// GET /api/v1/orders/{id} ({order}), each with `Authorization: Bearer <token>`: an unknown or
// revoked token answers 401, a token without the orders permission 403.
// Control API under /__emulator: make a store (company) with its token, another token for a store, make orders and change their
// status, revoke a token, faults (429 with Retry-After, 5xx, for `times` calls), latency, reset, state.
import { randomBytes } from 'node:crypto';
import Fastify, { type FastifyReply, type FastifyRequest } from 'fastify';
import { createEmulatorKit, listenEmulator, registerControlRoutes } from '../kit/emulator-kit';
import type { PromOrder, PromOrderLine } from './mapping';

export interface EmulatedPromRequest {
  method: string;
  path: string;
  query: Record<string, string>;
  status: number;
  receivedAt: string;
}

/** A fault for the next `times` API calls (default until cleared): an HTTP status (429 with Retry-After, 5xx). */
export interface PromFault {
  status: number;
  retryAfter?: number;
  times?: number;
}

/** What the control API takes to make an order: any order field, plus short names for the buyer. */
export interface NewPromOrder extends Partial<PromOrder> {
  /** The store's id (default: the demo store, 1). */
  company?: number;
  name?: string;
  lastName?: string;
}

interface Company {
  id: number;
  orders: { order: PromOrder; createdAt: number }[];
}

interface Token {
  company: number;
  isRevoked: boolean;
  canReadOrders: boolean;
}

export interface PromEmulatorOptions {
  port?: number;
  host?: string;
  maxLog?: number;
}

export interface PromEmulator {
  /** The API's base, what PROMUA_API_URL points at (…/api/v1). */
  url: string;
  /** The emulator's own origin (its control API). */
  origin: string;
  /** The demo store's token. */
  token: string;
  requests: EmulatedPromRequest[];
  /** A new store with a token of its own (what one test connects to). */
  createCompany(options?: { canReadOrders?: boolean }): { company: number; token: string };
  /** Another token for a store (the merchant makes a new one after revoking the old). */
  createToken(company: number): string;
  createOrder(input?: NewPromOrder): PromOrder;
  setStatus(id: number, status: string, statusName?: string): boolean;
  revoke(token: string): boolean;
  setFault(fault: PromFault | null): void;
  setLatency(ms: number): void;
  reset(): void;
  close(): Promise<void>;
}

/** The demo store's token: 40 hex characters, as Prom's look. */
export const PROMUA_DEMO_TOKEN = '5f0c2a9e7d41b8c3a6e2f9d0c7b4a1e8d3f6a2b9';
const MAX_LIMIT = 100;
const STATUS_NAMES: ReadonlyMap<string, string> = new Map([
  ['pending', 'Новий'],
  ['received', 'Прийнято'],
  ['delivered', 'Виконано'],
  ['canceled', 'Скасовано'],
  ['paid', 'Оплачено'],
]);
const DEFAULT_LINES: PromOrderLine[] = [
  { id: 1, name: 'Кавоварка CM-200', sku: 'CM-200', quantity: 1, price: '4 200 грн', total_price: '4 200 грн' },
];

const isRecord = (v: unknown): v is Record<string, unknown> => !!v && typeof v === 'object' && !Array.isArray(v);
const money = (n: number) => `${new Intl.NumberFormat('uk-UA').format(n).replace(/\u00a0/g, ' ')} грн`;

/** Prom's date filters: "2015-04-28T12:50:34" (UTC, as assumed), a date alone, or with a zone. */
function parsePromDate(text: string | undefined): number | null | undefined {
  if (text === undefined) return undefined;
  const t = text.trim();
  if (!/^\d{4}-\d{2}-\d{2}([T ]\d{2}:\d{2}(:\d{2}(\.\d+)?)?)?(Z|[+-]\d{2}:?\d{2})?$/.test(t)) return null;
  const hasZone = /(Z|[+-]\d{2}:?\d{2})$/.test(t) && t.length > 10;
  const at = Date.parse(hasZone ? t : `${t.replace(' ', 'T')}${t.length === 10 ? 'T00:00:00' : ''}Z`);
  return Number.isNaN(at) ? null : at;
}

export async function startPromEmulator(options: PromEmulatorOptions = {}): Promise<PromEmulator> {
  const app = Fastify({ logger: false, forceCloseConnections: true });
  const kit = createEmulatorKit<PromFault, EmulatedPromRequest>({ maxLog: options.maxLog ?? 10_000 });
  const companies = new Map<number, Company>();
  const tokens = new Map<string, Token>();
  let nextCompany = 1;
  let nextOrder = 300_001;

  const addCompany = (canReadOrders = true, token = randomBytes(20).toString('hex')) => {
    const id = nextCompany++;
    companies.set(id, { id, orders: [] });
    tokens.set(token, { company: id, isRevoked: false, canReadOrders });
    return { company: id, token };
  };
  const seed = () => {
    companies.clear();
    tokens.clear();
    nextCompany = 1;
    nextOrder = 300_001;
    addCompany(true, PROMUA_DEMO_TOKEN);
  };
  seed();

  const findOrder = (id: number) => {
    for (const c of companies.values()) {
      const found = c.orders.find((o) => Number(o.order.id) === id);
      if (found) return found;
    }
    return undefined;
  };

  const emulator: PromEmulator = {
    url: '',
    origin: '',
    token: PROMUA_DEMO_TOKEN,
    requests: kit.requests,
    createCompany: (o = {}) => addCompany(o.canReadOrders ?? true),
    createToken(company) {
      if (!companies.has(company)) throw new Error(`No store ${company}`);
      const token = randomBytes(20).toString('hex');
      tokens.set(token, { company, isRevoked: false, canReadOrders: true });
      return token;
    },
    createOrder(input = {}) {
      const { company = 1, name, lastName, ...fields } = input;
      const store = companies.get(company);
      if (!store) throw new Error(`No store ${company}`);
      const products = fields.products ?? DEFAULT_LINES;
      const sum = products.reduce(
        (acc, l) => acc + (Number(String(l.total_price ?? l.price ?? 0).replace(/[^\d.]/g, '')) || 0),
        0,
      );
      const id = nextOrder++;
      const createdAt = Date.now();
      const status = fields.status ?? 'pending';
      const order: PromOrder = {
        id,
        date_created: new Date(createdAt).toISOString().replace('Z', '+00:00'),
        client_first_name: name ?? 'Олена',
        client_second_name: '',
        client_last_name: lastName ?? 'Коваленко',
        client_id: 700_000 + id,
        phone: '+380671234567',
        email: 'olena@example.com',
        products,
        price: money(sum),
        full_price: money(sum),
        delivery_option: { id: 13013934, name: 'Нова Пошта' },
        delivery_address: 'Київ, Відділення №5: вул. Хрещатик, 22',
        delivery_provider_data: { provider: 'nova_poshta', declaration_number: null },
        delivery_cost: 0,
        payment_option: { id: 7547964, name: 'Оплата при отриманні' },
        client_notes: '',
        status_name: STATUS_NAMES.get(String(status)) ?? String(status),
        source: 'portal',
        ...fields,
        status,
      };
      order.id = id;
      store.orders.push({ order, createdAt });
      return order;
    },
    setStatus(id, status, statusName) {
      const found = findOrder(id);
      if (!found) return false;
      found.order.status = status;
      found.order.status_name = statusName ?? STATUS_NAMES.get(status) ?? status;
      return true;
    },
    revoke(token) {
      const t = tokens.get(token);
      if (!t) return false;
      t.isRevoked = true;
      return true;
    },
    setFault: kit.setFault,
    setLatency: kit.setLatency,
    reset() {
      seed();
      kit.resetSwitches();
    },
    async close() {
      kit.clearTimers();
      await app.close();
    },
  };

  // ---- Control API ----
  registerControlRoutes(app, kit, { reset: () => emulator.reset() });
  app.get('/__emulator/state', async () => ({
    companies: [...companies.values()].map((c) => ({ id: c.id, orders: c.orders.map((o) => o.order) })),
  }));
  app.post('/__emulator/companies', async (req, reply) => {
    const body = isRecord(req.body) ? req.body : {};
    return reply.code(201).send(emulator.createCompany({ canReadOrders: body.canReadOrders !== false }));
  });
  app.post('/__emulator/tokens', async (req, reply) => {
    const company = Number(isRecord(req.body) ? req.body.company : undefined);
    if (!companies.has(company)) return reply.code(404).send({ error: 'No such store' });
    return reply.code(201).send({ company, token: emulator.createToken(company) });
  });
  app.post('/__emulator/orders', async (req, reply) => {
    const body = isRecord(req.body) ? (req.body as NewPromOrder) : {};
    if (body.company !== undefined && !companies.has(Number(body.company))) {
      return reply.code(404).send({ error: 'No such store' });
    }
    return reply.code(201).send(emulator.createOrder({ ...body, company: Number(body.company ?? 1) }));
  });
  app.post('/__emulator/orders/:id/status', async (req, reply) => {
    const body = isRecord(req.body) ? req.body : {};
    const changed = emulator.setStatus(
      Number((req.params as { id: string }).id),
      String(body.status ?? ''),
      typeof body.status_name === 'string' ? body.status_name : undefined,
    );
    return changed ? { ok: true } : reply.code(404).send({ error: 'No such order' });
  });
  app.post('/__emulator/revoke', async (req, reply) => {
    const token = isRecord(req.body) ? req.body.token : undefined;
    return typeof token === 'string' && emulator.revoke(token)
      ? { ok: true }
      : reply.code(404).send({ error: 'No such token' });
  });

  // ---- Prom's API ----
  const entryOf = (req: FastifyRequest) => (req as unknown as { promEntry?: EmulatedPromRequest }).promEntry;
  app.addHook('onRequest', async (req) => {
    if (!req.url.startsWith('/api/')) return;
    (req as unknown as { promEntry?: EmulatedPromRequest }).promEntry = kit.log({
      method: req.method,
      path: req.url.split('?')[0]!,
      query: Object.fromEntries(new URL(req.url, 'http://x').searchParams),
      status: 200,
      receivedAt: new Date().toISOString(),
    });
  });
  app.addHook('onSend', async (req, reply, payload) => {
    const entry = entryOf(req);
    if (entry) entry.status = reply.statusCode;
    return payload;
  });

  /** The caller's store, or the refusal already sent. */
  async function storeOf(req: FastifyRequest, reply: FastifyReply): Promise<Company | null> {
    await kit.delay();
    const fault = kit.takeFault();
    if (fault) {
      if (fault.retryAfter !== undefined) reply.header('retry-after', String(fault.retryAfter));
      await reply.code(fault.status).send({ error: fault.status === 429 ? 'Too many requests' : 'Internal error' });
      return null;
    }
    const header = req.headers.authorization ?? '';
    const m = /^Bearer (\S+)$/.exec(header);
    const token = m ? tokens.get(m[1]!) : undefined;
    if (!token || token.isRevoked) {
      await reply.code(401).send({ error: 'Invalid token' });
      return null;
    }
    if (!token.canReadOrders) {
      await reply.code(403).send({ error: 'Token has no access to orders' });
      return null;
    }
    return companies.get(token.company) ?? null;
  }

  app.get('/api/v1/orders/list', async (req, reply) => {
    const store = await storeOf(req, reply);
    if (!store) return reply;
    const q = req.query as Record<string, string | undefined>;
    const from = parsePromDate(q.date_from);
    const to = parsePromDate(q.date_to);
    if (from === null || to === null) return reply.code(400).send({ error: 'Invalid date format' });
    const limit = q.limit === undefined ? MAX_LIMIT : Number(q.limit);
    if (!Number.isInteger(limit) || limit < 1) return reply.code(400).send({ error: 'Invalid limit' });
    const lastId = q.last_id === undefined ? undefined : Number(q.last_id);
    if (lastId !== undefined && !Number.isInteger(lastId)) return reply.code(400).send({ error: 'Invalid last_id' });
    const orders = store.orders
      .filter((o) => from === undefined || o.createdAt >= from)
      .filter((o) => to === undefined || o.createdAt <= to)
      // Ids no higher than last_id.
      .filter((o) => lastId === undefined || Number(o.order.id) <= lastId)
      .filter((o) => q.status === undefined || o.order.status === q.status)
      .sort((a, b) => Number(b.order.id) - Number(a.order.id))
      .slice(0, Math.min(limit, MAX_LIMIT))
      .map((o) => o.order);
    return { orders };
  });

  app.get('/api/v1/orders/:id', async (req, reply) => {
    const store = await storeOf(req, reply);
    if (!store) return reply;
    const id = Number((req.params as { id: string }).id);
    const found = store.orders.find((o) => Number(o.order.id) === id);
    return found ? { order: found.order } : reply.code(404).send({ error: 'Order not found' });
  });

  app.setNotFoundHandler((_req, reply) => reply.code(404).send({ error: 'Not found' }));

  const listening = await listenEmulator(app, options);
  emulator.origin = listening.url;
  emulator.url = `${listening.url}/api/v1`;
  return emulator;
}
