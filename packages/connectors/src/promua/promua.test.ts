// The Prom.ua source against its emulator: the token checked (401 and 403 are AUTH, with Prom's words
// and never the token), orders read newest first page by page down the ids, 429 and 5xx waited out a
// few times within a call and then left to the next poll, the poll's cursor held when a run fails,
// and an order as a lead's payload.
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { PermanentError, RetryableError } from '../kit/errors';
import { createSafeFetch } from '../kit/safe-fetch';
import type { ConnectorLogger } from '../kit/types';
import { checkToken, ordersSince, type PromuaContext, promDateTime, promWordsOf } from './client';
import { type PromEmulator, startPromEmulator } from './emulator';
import { promua } from './index';
import { PROMUA_SAMPLE_ORDER, promAmount, promOrderPayload } from './mapping';
import { ZPromuaConnectBody } from './schema';
import { orderItems, POLL_OVERLAP_MS, polledUntilOf } from './source';

let emu: PromEmulator;
const logger: ConnectorLogger = { debug: () => {}, info: () => {}, warn: () => {} };
const ctxFor = (token: string): PromuaContext => ({
  auth: { token },
  settings: {},
  baseUrl: emu.url,
  fetch: createSafeFetch({ allowPrivate: true, timeoutMs: 2000 }),
  logger,
  signal: new AbortController().signal,
});
const listCalls = () => emu.requests.filter((r) => r.path.endsWith('/orders/list'));

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
  emu = await startPromEmulator();
});
afterAll(() => emu?.close());
beforeEach(() => emu.reset());

describe('the token', () => {
  it('is sent as a Bearer header and taken when Prom answers orders', async () => {
    const { token } = emu.createCompany();
    await checkToken(ctxFor(token));
    expect(listCalls()).toHaveLength(1);
    expect(listCalls()[0]!.query).toMatchObject({ limit: '1' });
  });

  it('a wrong or revoked one is AUTH with Prom words, never the token itself', async () => {
    const wrong = await failure(checkToken(ctxFor('0123456789abcdef0123')));
    expect(wrong).toBeInstanceOf(PermanentError);
    expect([wrong.code, wrong.httpStatus, promWordsOf(wrong)]).toEqual(['AUTH', 401, 'Invalid token']);

    const { token } = emu.createCompany();
    await checkToken(ctxFor(token));
    emu.revoke(token);
    const revoked = await failure(checkToken(ctxFor(token)));
    expect(revoked.code).toBe('AUTH');
    expect(JSON.stringify({ message: revoked.message, trace: revoked.trace })).not.toContain(token);
  });

  it('one without the orders permission is AUTH too (HTTP 403)', async () => {
    const { token } = emu.createCompany({ canReadOrders: false });
    const refused = await failure(checkToken(ctxFor(token)));
    expect([refused.code, refused.httpStatus]).toEqual(['AUTH', 403]);
  });

  it('the form refuses what cannot be a token before anything is sent', () => {
    expect(ZPromuaConnectBody.safeParse({ token: 'abc def ghi jkl' }).error?.issues[0]?.message).toBe(
      'PROMUA_TOKEN_INVALID',
    );
    expect(ZPromuaConnectBody.safeParse({ token: '   ' }).error?.issues[0]?.message).toBe('REQUIRED');
    expect(ZPromuaConnectBody.safeParse({ token: 'a'.repeat(40), extra: 1 }).success).toBe(false);
    expect(ZPromuaConnectBody.parse({ token: ` ${'a'.repeat(40)} ` })).toEqual({ token: 'a'.repeat(40) });
  });
});

describe('orders', () => {
  it('reads every page of a busy window down the ids, each order once', async () => {
    const { company, token } = emu.createCompany();
    const from = new Date(Date.now() - 1000);
    for (let i = 0; i < 230; i++) emu.createOrder({ company, name: `Покупець ${i}` });
    emu.createOrder({ name: 'Another store' });
    const polled = await ordersSince(ctxFor(token), from);
    expect(polled.isComplete).toBe(true);
    expect(polled.orders).toHaveLength(230);
    expect(new Set(polled.orders.map((o) => o.id)).size).toBe(230);
    const lastIds = listCalls().map((r) => r.query.last_id);
    expect(lastIds[0]).toBeUndefined();
    expect(lastIds.slice(1).every((id) => /^\d+$/.test(id ?? ''))).toBe(true);
    expect(listCalls().every((r) => r.query.date_from === promDateTime(from))).toBe(true);
  });

  it('says when its pages ran out before the orders did', async () => {
    const { company, token } = emu.createCompany();
    for (let i = 0; i < 5; i++) emu.createOrder({ company });
    const polled = await ordersSince(ctxFor(token), new Date(Date.now() - 1000), { pageSize: 2, maxPages: 2 });
    expect(polled).toMatchObject({ isComplete: false });
    // last_id counts itself: the second page repeats the first page's lowest id, kept once.
    expect(polled.orders.map((o) => o.id)).toEqual([300005, 300004, 300003]);
  });

  it('waits out a 429 (Retry-After) and a 503 within the call, then reads the orders', async () => {
    const { company, token } = emu.createCompany();
    emu.createOrder({ company, name: 'Терпляча' });
    emu.setFault({ status: 429, retryAfter: 0, times: 1 });
    expect((await ordersSince(ctxFor(token), new Date(Date.now() - 1000))).orders).toHaveLength(1);
    emu.setFault({ status: 503, retryAfter: 0, times: 2 });
    expect((await ordersSince(ctxFor(token), new Date(Date.now() - 1000))).orders).toHaveLength(1);
    expect(listCalls().map((r) => r.status)).toEqual([429, 200, 503, 503, 200]);
  });

  it('gives up after a few tries, retryable, so the poll keeps its cursor for the next run', async () => {
    const { token } = emu.createCompany();
    emu.setFault({ status: 429, retryAfter: 0 });
    const limited = await failure(ordersSince(ctxFor(token), new Date()));
    expect(limited).toBeInstanceOf(RetryableError);
    expect(limited.code).toBe('RATE_LIMITED');
    expect(listCalls()).toHaveLength(3);
  });
});

describe('the poll', () => {
  const run = promua.source!.poll!.run;

  it('takes orders made since the connection, moves its cursor to the run, and reads again with an overlap', async () => {
    const { company, token } = emu.createCompany();
    emu.createOrder({ company, name: 'Before', date_created: '2020-01-01T10:00:00+00:00' });
    const connectedAt = new Date(Date.now() - 500);
    const order = emu.createOrder({ company, name: 'After' });
    const now = new Date();
    const first = await run(ctxFor(token), { cursor: promua.source!.poll!.start(connectedAt), from: connectedAt, now });
    expect(first.items.map((i) => i.id)).toEqual([String(order.id)]);
    expect(polledUntilOf(first.cursor)).toEqual(now);

    const later = new Date(now.getTime() + 5 * 60_000);
    await run(ctxFor(token), { cursor: first.cursor, from: connectedAt, now: later });
    // Never from before the connection, whatever the overlap.
    const since = listCalls().at(-1)!.query.date_from;
    expect(since).toBe(promDateTime(new Date(Math.max(now.getTime() - POLL_OVERLAP_MS, connectedAt.getTime()))));
  });

  it('fails as a whole when Prom refuses the token (the server marks the source broken)', async () => {
    const { token } = emu.createCompany();
    emu.revoke(token);
    const now = new Date();
    const refused = await failure(run(ctxFor(token), { cursor: { polledUntil: now.toISOString() }, from: now, now }));
    expect(refused.code).toBe('AUTH');
  });

  it('drops an order Prom dates before the connection even when its filter lets it through', () => {
    const from = new Date('2026-11-28T10:00:00Z');
    const items = orderItems(
      [
        { id: 1, date_created: '2026-11-28T09:59:59+00:00' },
        { id: 2, date_created: '2026-11-28T10:00:00.000000+00:00' },
        { id: 3 },
        { id: 'x' },
      ],
      from,
    );
    expect(items.map((i) => i.id)).toEqual(['2', '3']);
  });
});

describe('an order as a lead', () => {
  it('carries the buyer, contacts, items, total, delivery, payment and status in Prom words', () => {
    const payload = promOrderPayload(PROMUA_SAMPLE_ORDER);
    expect(payload).toMatchObject({
      order_id: '312405',
      name: 'Олена Коваленко',
      phone: '+380671234567',
      email: 'olena@example.com',
      items: 'Кавоварка CM-200 × 1 = 4200; Фільтри, 10 шт. × 2 = 300',
      items_count: '2',
      total: '4500',
      currency: 'UAH',
      delivery: 'Нова Пошта, Київ, Відділення №5: вул. Хрещатик, 22',
      payment: 'Оплата при отриманні',
      status: 'pending',
      status_name: 'Новий',
    });
    expect(payload.comment).toBe(
      [
        '#312405',
        payload.items,
        '4500 UAH',
        payload.delivery,
        'Оплата при отриманні',
        'Зателефонуйте перед відправкою',
      ].join('\n'),
    );
  });

  it('keeps names from outside as data and reads Prom money however it is written', () => {
    const payload = promOrderPayload({
      id: 7,
      client_first_name: '__proto__',
      full_price: '1 200,50 грн',
      utm: { utm_source: 'google', constructor: 'x' },
    });
    expect(Object.getPrototypeOf(payload)).toBe(Object.prototype);
    expect(payload).toMatchObject({ name: '__proto__', total: '1200.5', utm_source: 'google' });
    expect([promAmount('350.00'), promAmount(12), promAmount('—'), promAmount(null)]).toEqual([
      350,
      12,
      undefined,
      undefined,
    ]);
  });
});
