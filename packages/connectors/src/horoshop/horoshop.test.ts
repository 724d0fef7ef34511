// The Horoshop client against its emulator: tokens renewed before they lapse and once on
// UNAUTHORIZED (one renewal across concurrent calls), a token given alone, orders by time with
// paging, webhooks, and every failure classified with no secret in it.
import Fastify from 'fastify';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { PermanentError, RetryableError } from '../kit/errors';
import { memoryAuthStore } from '../kit/memory-auth';
import { createSafeFetch } from '../kit/safe-fetch';
import type { ConnectorLogger } from '../kit/types';
import {
  checkAccess,
  type HoroshopAuth,
  type HoroshopContext,
  orderStatuses,
  ordersPage,
  ordersSince,
  shopDateTime,
  shopWordsOf,
  signIn,
  subscribe,
  TOKEN_TTL_MS,
  unsubscribe,
} from './client';
import { type HoroshopEmulator, startHoroshopEmulator } from './emulator';
import { horoshop } from './index';
import { parseOrdersBody } from './mapping';

const MINUTE = 60_000;
let emu: HoroshopEmulator;
let logged: { level: string; obj: object; msg?: string }[] = [];
const logger: ConnectorLogger = {
  debug: (obj, msg) => logged.push({ level: 'debug', obj, msg }),
  info: (obj, msg) => logged.push({ level: 'info', obj, msg }),
  warn: (obj, msg) => logged.push({ level: 'warn', obj, msg }),
};

function ctxFor(auth: HoroshopAuth, extra: Partial<HoroshopContext> = {}): HoroshopContext {
  return {
    auth,
    settings: { shopUrl: emu.url },
    fetch: createSafeFetch({ allowPrivate: true, timeoutMs: 2000 }),
    logger,
    signal: new AbortController().signal,
    ...extra,
  };
}
const passwordAuth = (): HoroshopAuth => ({ login: emu.login, password: emu.password });
const calls = (fn?: string) => emu.requests.filter((r) => !fn || r.fn === fn);

async function failure(promise: Promise<unknown>): Promise<PermanentError | RetryableError> {
  try {
    await promise;
  } catch (error) {
    if (error instanceof PermanentError || error instanceof RetryableError) return error;
    throw error;
  }
  throw new Error('expected a failure');
}

beforeAll(async () => {
  emu = await startHoroshopEmulator();
});
afterAll(() => emu.close());
afterEach(() => {
  emu.reset();
  logged = [];
});

describe('signing in', () => {
  it('gets a token that lives 600 s from when it was asked for, sent in the JSON body to /api/auth/', async () => {
    const before = Date.now();
    const auth = await signIn(ctxFor(passwordAuth()));
    expect(auth.token).toMatch(/^[0-9a-f]{32}$/);
    expect(auth.tokenExpiresAt).toBeGreaterThanOrEqual(before + TOKEN_TTL_MS);
    expect(auth.tokenExpiresAt).toBeLessThanOrEqual(Date.now() + TOKEN_TTL_MS);
    expect(calls()[0]).toMatchObject({ method: 'POST', path: '/api/auth/', body: { login: 'api' } });
  });

  it('a wrong password is a permanent AUTH failure that names neither the password nor a token', async () => {
    const error = await failure(signIn(ctxFor({ login: emu.login, password: 'wrong-password-123' })));
    expect(error).toBeInstanceOf(PermanentError);
    expect(error.code).toBe('AUTH');
    expect(error.message).toContain('Incorrect login or password');
    expect(JSON.stringify({ error, message: error.message, logged })).not.toContain('wrong-password-123');
  });
});

describe('the token', () => {
  it('is renewed before it lapses: with under a minute left the call signs in first, never meeting UNAUTHORIZED', async () => {
    const first = await signIn(ctxFor(passwordAuth()));
    const store = memoryAuthStore<HoroshopAuth>({ ...first, tokenExpiresAt: Date.now() + 30_000 });
    emu.requests.length = 0;
    const ctx = ctxFor(store.current(), { rotateAuth: store.rotateAuth });
    await checkAccess(ctx);
    expect(calls().map((r) => r.fn)).toEqual(['auth', 'orders/get']);
    expect(calls().map((r) => r.status)).toEqual([200, 200]);
    expect(store.refreshes()).toBe(1);
    expect(store.current().token).not.toBe(first.token);
    expect(ctx.auth.token).toBe(store.current().token);
  });

  it('a fresh token is used as it is: no sign-in per call', async () => {
    const ctx = ctxFor(await signIn(ctxFor(passwordAuth())));
    emu.requests.length = 0;
    await checkAccess(ctx);
    await checkAccess(ctx);
    expect(calls().map((r) => r.fn)).toEqual(['orders/get', 'orders/get']);
  });

  it('lapsed at the shop (its clock ran on) is renewed once on UNAUTHORIZED and the call goes through', async () => {
    const store = memoryAuthStore<HoroshopAuth>(await signIn(ctxFor(passwordAuth())));
    emu.advance(TOKEN_TTL_MS + 1000);
    emu.createOrder({ name: 'Тарас' });
    emu.requests.length = 0;
    const orders = await ordersPage(ctxFor(store.current(), { rotateAuth: store.rotateAuth }), {
      limit: 10,
      offset: 0,
    });
    expect(orders.map((o) => o.delivery_name)).toEqual(['Тарас']);
    expect(calls().map((r) => [r.fn, (r.body as { token?: string }).token === store.current().token])).toEqual([
      ['orders/get', false],
      ['auth', false],
      ['orders/get', true],
    ]);
    expect(store.refreshes()).toBe(1);
  });

  it('two calls that both find it expired sign in once (the renewal runs under one lock)', async () => {
    const store = memoryAuthStore<HoroshopAuth>({ ...passwordAuth(), token: 'stale', tokenExpiresAt: Date.now() - 1 });
    const a = ctxFor(store.current(), { rotateAuth: store.rotateAuth });
    const b = ctxFor(store.current(), { rotateAuth: store.rotateAuth });
    await Promise.all([checkAccess(a), checkAccess(b)]);
    expect(calls('auth')).toHaveLength(1);
    expect(store.refreshes()).toBe(1);
    expect(a.auth.token).toBe(b.auth.token);
  });

  it('refused for good (the admin was deleted) is a permanent AUTH failure after one sign-in', async () => {
    const ctx = ctxFor({ ...passwordAuth(), token: 'stale', tokenExpiresAt: Date.now() + 5 * MINUTE });
    emu.setFault({ kind: 'expired-token', fn: 'orders/get' });
    const error = await failure(checkAccess(ctx));
    expect([error.constructor, error.code]).toEqual([PermanentError, 'AUTH']);
    expect(calls().map((r) => r.fn)).toEqual(['orders/get', 'auth', 'orders/get']);
  });

  it('given alone works until the shop refuses it, then says a login and password are needed', async () => {
    const { token } = await signIn(ctxFor(passwordAuth()));
    const ctx = ctxFor({ token });
    await checkAccess(ctx);
    emu.advance(TOKEN_TTL_MS);
    const error = await failure(checkAccess(ctx));
    expect([error.constructor, error.code]).toEqual([PermanentError, 'TOKEN_EXPIRED']);
    expect(calls('auth')).toHaveLength(1);
  });
});

describe('orders', () => {
  it('come page by page (limit with offset) until a short page', async () => {
    for (let i = 0; i < 25; i++) emu.createOrder({ name: `Покупець ${i}` });
    const ctx = ctxFor(await signIn(ctxFor(passwordAuth())));
    emu.requests.length = 0;
    const { orders, isComplete } = await ordersSince(ctx, new Date(Date.now() - MINUTE), { pageSize: 10 });
    expect(isComplete).toBe(true);
    expect(orders).toHaveLength(25);
    expect(new Set(orders.map((o) => o.order_id)).size).toBe(25);
    expect(calls('orders/get').map((r) => (r.body as { offset: number }).offset)).toEqual([0, 10, 20]);
  });

  it('since a time leave out older orders; the time goes as Kyiv wall-clock time', async () => {
    emu.createOrder({ name: 'Old' });
    emu.advance(30 * MINUTE);
    const since = new Date(emu.now() - MINUTE);
    emu.createOrder({ name: 'New' });
    const ctx = ctxFor(await signIn(ctxFor(passwordAuth())));
    const { orders } = await ordersSince(ctx, since);
    expect(orders.map((o) => o.delivery_name)).toEqual(['New']);
    expect((calls('orders/get')[0]!.body as { from: string }).from).toBe(shopDateTime(since));
    expect(shopDateTime(new Date('2026-07-01T09:30:05Z'))).toBe('2026-07-01 12:30:05');
    expect(shopDateTime(new Date('2026-01-15T22:00:00Z'))).toBe('2026-01-16 00:00:00');
  });

  it('say when the pages ran out before the orders did', async () => {
    for (let i = 0; i < 5; i++) emu.createOrder();
    const ctx = ctxFor(await signIn(ctxFor(passwordAuth())));
    const { orders, isComplete } = await ordersSince(ctx, new Date(Date.now() - MINUTE), { pageSize: 2, maxPages: 2 });
    expect([orders.length, isComplete]).toEqual([4, false]);
  });

  it('none (EMPTY) is an empty list, and the shop\u2019s statuses read in Ukrainian', async () => {
    const ctx = ctxFor(await signIn(ctxFor(passwordAuth())));
    expect(await ordersPage(ctx, { limit: 10, offset: 0 })).toEqual([]);
    expect((await orderStatuses(ctx))[0]).toEqual({ id: '1', title: 'Новий' });
  });
});

describe('failures', () => {
  const fresh = async () => ctxFor(await signIn(ctxFor(passwordAuth())));

  it('429 is retryable with the Retry-After the shop sent; the next call works', async () => {
    const ctx = await fresh();
    emu.setFault({ status: 429, retryAfter: 7, times: 1 });
    const error = await failure(checkAccess(ctx));
    expect(error).toBeInstanceOf(RetryableError);
    expect([error.code, (error as RetryableError).retryAfterMs]).toEqual(['RATE_LIMITED', 7000]);
    await checkAccess(ctx);
  });

  it('5xx and EXCEPTION inside a 200 are retryable; ERROR inside a 200 is permanent with the shop\u2019s words', async () => {
    const ctx = await fresh();
    emu.setFault({ status: 502, times: 1 });
    expect((await failure(checkAccess(ctx))).code).toBe('HTTP_5XX');
    emu.setFault({ kind: 'exception', times: 1 });
    const exception = await failure(checkAccess(ctx));
    expect([exception.constructor, exception.code]).toEqual([RetryableError, 'EXCEPTION']);
    emu.setFault({ kind: 'error', message: 'Недостатньо прав', times: 1 });
    const refused = await failure(checkAccess(ctx));
    expect([refused.constructor, refused.code]).toEqual([PermanentError, 'REFUSED']);
    expect(refused.message).toContain('Недостатньо прав');
    expect(shopWordsOf(refused)).toBe('Недостатньо прав');
  });

  it('a shop slower than the timeout is a retryable failure within the timeout', async () => {
    const ctx = { ...(await fresh()), fetch: createSafeFetch({ allowPrivate: true, timeoutMs: 300 }) };
    emu.setLatency(2000);
    const started = Date.now();
    const error = await failure(checkAccess(ctx));
    expect(error).toBeInstanceOf(RetryableError);
    expect(Date.now() - started).toBeLessThan(1500);
  });

  it('an address that is not a Horoshop API says so', async () => {
    const ctx = { ...ctxFor(passwordAuth()), settings: { shopUrl: `${emu.url}/not-here` } };
    expect((await failure(signIn(ctx))).code).toBe('NOT_A_SHOP');
    const other = Fastify();
    other.all('/*', (_req, reply) => reply.type('text/html').send('<html>Welcome to nginx</html>'));
    const url = await other.listen({ port: 0, host: '127.0.0.1' });
    try {
      const error = await failure(signIn({ ...ctx, settings: { shopUrl: url } }));
      expect([error.constructor, error.code]).toEqual([PermanentError, 'NOT_A_SHOP']);
    } finally {
      await other.close();
    }
  });

  it('a private address is refused by the safe fetch unless private addresses are allowed', async () => {
    const ctx = { ...ctxFor(passwordAuth()), fetch: createSafeFetch({ timeoutMs: 1000 }) };
    const error = await failure(signIn(ctx));
    expect([error.constructor, error.code]).toEqual([PermanentError, 'URL_NOT_ALLOWED']);
  });

  it('never puts the password or a token in an error, a trace or a log line', async () => {
    const store = memoryAuthStore<HoroshopAuth>({ ...passwordAuth(), token: 'x'.repeat(32), tokenExpiresAt: 0 });
    const ctx = ctxFor(store.current(), { rotateAuth: store.rotateAuth });
    await checkAccess(ctx);
    emu.setFault({ kind: 'error', message: `echo ${emu.password} ${ctx.auth.token}`, times: 1 });
    const error = await failure(checkAccess(ctx));
    const seen = JSON.stringify({ message: error.message, trace: error.trace, logged });
    expect(seen).not.toContain(emu.password);
    expect(seen).not.toContain(store.current().token);
  });
});

describe('webhooks', () => {
  it('subscribe answers 201 with an id; the shop then PUTs each new order as JSON, once or twice', async () => {
    const target = Fastify();
    const got: { method: string; body: unknown }[] = [];
    target.all('/in', async (req) => {
      got.push({ method: req.method, body: req.body });
      return { ok: true };
    });
    const base = await target.listen({ port: 0, host: '127.0.0.1' });
    try {
      const ctx = ctxFor(await signIn(ctxFor(passwordAuth())));
      const { id } = await subscribe(ctx, `${base}/in`);
      expect(id).toBe('1');
      expect(calls('hooks/subscribe').map((r) => [r.status, r.body])).toEqual([
        [201, expect.objectContaining({ event: 'order_created', target_url: `${base}/in` })],
      ]);
      const order = emu.createOrder({ name: 'Ірина', phone: '0501112233' });
      const shots = await emu.fireWebhook(Number(order.order_id), { times: 2 });
      expect(shots.map((s) => s.status)).toEqual([200, 200]);
      expect(got.map((g) => g.method)).toEqual(['PUT', 'PUT']);
      expect(parseOrdersBody(got[0]!.body).map((o) => o.delivery_name)).toEqual(['Ірина']);

      // Removed on the shop's side: the target hears a DELETE.
      const removed = await emu.removeSubscription(1);
      expect(removed?.status).toBe(200);
      expect(got.at(-1)?.method).toBe('DELETE');
    } finally {
      await target.close();
    }
  });

  it('a sixth subscription to one event is refused inside HTTP 200; unsubscribe is 410 Gone, and a gone one is no error', async () => {
    const ctx = ctxFor(await signIn(ctxFor(passwordAuth())));
    for (let i = 0; i < 5; i++) await subscribe(ctx, `https://example.com/hook/${i}`);
    const error = await failure(subscribe(ctx, 'https://example.com/hook/6'));
    expect([error.code, error.message]).toEqual(['REFUSED', expect.stringContaining('limit')]);
    await unsubscribe(ctx, '1', 'https://example.com/hook/0');
    expect(calls('hooks/unSubscribe').at(-1)?.status).toBe(410);
    await unsubscribe(ctx, '1', 'https://example.com/hook/0');
    expect(emu.state.subscriptions).toHaveLength(4);
  });
});

describe('a webhook body', () => {
  it('gives its orders in any of the shapes a shop may send, each once', () => {
    const order = { order_id: 7, delivery_name: 'A' };
    expect(parseOrdersBody(order)).toEqual([order]);
    expect(parseOrdersBody([order, { order_id: '8' }, order]).map((o) => o.order_id)).toEqual([7, '8']);
    expect(parseOrdersBody({ orders: [order] })).toHaveLength(1);
    expect(parseOrdersBody({ event: 'order_created', data: { order } })).toHaveLength(1);
    expect(parseOrdersBody({ status: 'OK', response: { orders: [order] } })).toHaveLength(1);
  });

  it('gives nothing for junk, and never throws', () => {
    for (const junk of [
      null,
      1,
      'x',
      [],
      {},
      { order_id: -1 },
      { order_id: 'abc' },
      { order_id: 1.5 },
      [[[[[order()]]]]],
    ]) {
      expect(parseOrdersBody(junk)).toEqual([]);
    }
    const deep: Record<string, unknown> = {};
    let at = deep;
    for (let i = 0; i < 10_000; i++) {
      const next: Record<string, unknown> = {};
      at.data = next;
      at = next;
    }
    expect(parseOrdersBody(deep)).toEqual([]);
    function order() {
      return { order_id: 1 };
    }
  });

  it('caps a huge batch', () => {
    const many = Array.from({ length: 2000 }, (_, i) => ({ order_id: i + 1 }));
    expect(parseOrdersBody({ orders: many })).toHaveLength(500);
  });
});

describe('the definition', () => {
  it('is a source whose connection check signs in and reads one order', async () => {
    expect([horoshop.slug, horoshop.kind]).toEqual(['horoshop', 'source']);
    expect(horoshop.auth.safeParse({ login: 'api' }).success).toBe(false);
    expect(horoshop.auth.safeParse({ token: 't' }).success).toBe(true);
    await horoshop.testConnection!(ctxFor(passwordAuth()));
    expect(calls().map((r) => r.fn)).toEqual(['auth', 'orders/get']);
  });
});

describe('the source it declares', () => {
  const source = horoshop.source!;
  const poll = source.poll!;

  it('reads a webhook body into items: each order once, its id and the lead payload; junk gives none', () => {
    const items = source.receivers!.orders!.read({
      orders: [{ order_id: 7, delivery_name: 'Олена' }, { order_id: 'x' }],
    });
    expect(items).toEqual([{ id: '7', payload: expect.objectContaining({ order_id: '7', name: 'Олена' }) }]);
    expect(source.receivers!.orders!.read('junk')).toEqual([]);
    expect(source.items.summary!({ name: 'Олена', phone: '067 123 45 67', total: '10' })).toEqual({
      name: 'Олена',
      phone: '+380671234567',
      total: '10',
      currency: null,
    });
  });

  it('polls from its cursor minus the overlap, never before the connection nor past the longest look back', async () => {
    const now = new Date('2026-07-01T12:00:00Z');
    const run = (cursor: unknown, from: Date) => {
      emu.reset();
      return poll.run(ctxFor(passwordAuth()), { cursor, from, now }).then(() => calls('orders/get')[0]!.body);
    };
    const at = (ms: number) => new Date(now.getTime() - ms);
    expect(await run(poll.start(at(MINUTE)), at(60 * MINUTE))).toMatchObject({ from: shopDateTime(at(60 * MINUTE)) });
    expect(await run(poll.start(at(MINUTE)), at(10 * 24 * 60 * MINUTE))).toMatchObject({
      from: shopDateTime(at(MINUTE + 4 * 60 * MINUTE)),
    });
    expect(await run(poll.start(at(30 * 24 * 60 * MINUTE)), new Date(0))).toMatchObject({
      from: shopDateTime(at(7 * 24 * 60 * MINUTE)),
    });
  });

  it('moves its cursor to the run\u2019s start once every page was read', async () => {
    const now = new Date();
    const done = await poll.run(ctxFor(passwordAuth()), { cursor: poll.start(now), from: new Date(0), now });
    expect(done).toEqual({ items: [], cursor: { polledUntil: now.toISOString() } });
  });

  it('tells its page how it is connected and how far it polled, never the password or token', () => {
    const now = new Date();
    const state = source.state!.read({
      auth: { login: 'api', password: 'secret-password', token: 'secret-token' },
      settings: { shopUrl: emu.url },
      subscription: { status: 'active', registeredAt: now, removedAt: null },
      poll: { cursor: poll.start(now), lastRunAt: now, lastError: null },
      seen: [],
    });
    expect(state).toMatchObject({
      shopUrl: emu.url,
      authMode: 'password',
      login: 'api',
      webhook: { status: 'active', registeredAt: now.toISOString() },
      poll: { polledUntil: now.toISOString() },
    });
    expect(JSON.stringify(state)).not.toContain('secret');
  });
});
