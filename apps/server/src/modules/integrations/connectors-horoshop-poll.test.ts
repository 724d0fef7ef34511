// The poll that covers a webhook that never came: orders since the cursor, page by page, into the
// same lead flow (so poll and webhook never make one order two leads), the token renewed before it
// lapses or once when refused (and stored), and a shop that refuses or fails shown on the page.
import { getConnector } from '@leadrelay/connectors';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import {
  connectedShop,
  connectShop,
  type HoroshopTest,
  hooksOf,
  leadsOf,
  ordersOf,
  receiverPath,
  rewriteAuth,
  rowOf,
  type ShopSetup,
  setCursor,
  shopSource,
  sourceOf,
  startHoroshopTest,
  stateRowOf,
  storedAuth,
} from '../../test/horoshop-kit';
import { callAs } from '../../test/test-app';
import { connectorReason } from './connector-errors';
import { sourceDeps } from './source-deps';
import { pollSource } from './source-poll';

let h: HoroshopTest;
beforeAll(async () => {
  h = await startHoroshopTest();
});
afterAll(() => h?.close());
beforeEach(() => {
  h.shop.setFault(null);
});

const MINUTE = 60_000;
const horoshop = getConnector('horoshop')!;
const HOROSHOP_POLL_TASK = horoshop.source!.poll!.task;
const poll = () => h.t.app.periodic.runNow(HOROSHOP_POLL_TASK);
const signIns = () => h.shop.requests.filter((r) => r.fn === 'auth').length;
const stateOf = async (s: ShopSetup) =>
  (await callAs(h.t, 'GET', `/api/integrations/${s.integrationId}/horoshop`, s.user)).json();
/** Moves the cursor and the connection back, as if the shop was connected and last polled a while ago. */
const cursorAgo = (s: ShopSetup, ms: number) => setCursor(h.t, s.integrationId, new Date(Date.now() - ms));

describe('the poll', () => {
  it('finds an order whose webhook never came, once; the webhook arriving late makes no second lead', async () => {
    const s = await connectedShop(h);
    const order = h.shop.createOrder({ name: 'Без вебхука', phone: '0931112233' });
    expect(await poll()).toBe('ran');
    const leads = await leadsOf(h.t, s.integrationId);
    expect(leads.map((l) => [l.fields.name, l.fields.phone])).toEqual([['Без вебхука', '+380931112233']]);
    expect(await ordersOf(h.t, s.integrationId)).toEqual([expect.objectContaining({ via: 'poll', timesSeen: 1 })]);

    // The next poll reads the order again (its window overlaps) and the late webhook brings it: no new lead, no new hook.
    expect(await poll()).toBe('ran');
    const shots = await h.shop.fireWebhook(Number(order.order_id));
    expect(shots.map((x) => x.status)).toEqual([200]);
    expect(await leadsOf(h.t, s.integrationId)).toHaveLength(1);
    expect(await hooksOf(h.t, s.integrationId)).toHaveLength(1);
    expect((await ordersOf(h.t, s.integrationId))[0]!.timesSeen).toBe(3);

    await h.t.app.deliveryWorker.drain();
    expect(h.crm.requests.filter((r) => r.rawBody.includes('Без вебхука'))).toHaveLength(1);
    const state = await stateOf(s);
    expect(state.poll).toMatchObject({ lastPollAt: expect.any(String), lastError: null });
  });

  it('never takes orders the shop had before it was connected', async () => {
    h.shop.createOrder({ name: 'Before we met' });
    await new Promise((r) => setTimeout(r, 1100));
    const s = await connectedShop(h, false);
    expect(await poll()).toBe('ran');
    expect(await leadsOf(h.t, s.integrationId)).toHaveLength(0);
  });

  it('reads every page of a busy window (100 per page) and moves its cursor to the poll\u2019s start', async () => {
    const s = await connectedShop(h, false);
    await cursorAgo(s, 2 * MINUTE);
    for (let i = 0; i < 230; i++) h.shop.createOrder({ name: `Покупець ${i}` });
    const before = h.shop.requests.length;
    const started = Date.now();
    expect(await poll()).toBe('ran');
    const names = (await leadsOf(h.t, s.integrationId)).map((l) => l.fields.name ?? '');
    expect(names.filter((n) => n.startsWith('Покупець '))).toHaveLength(230);
    expect(new Set(names).size).toBe(names.length);
    // Every source is polled; this one's pages: offsets 0, 100, 200.
    const mine = h.shop.requests.slice(before).filter((r) => r.fn === 'orders/get');
    expect(mine.map((r) => (r.body as { offset: number }).offset)).toEqual(expect.arrayContaining([0, 100, 200]));
    expect((await sourceOf(h.t, s.integrationId))!.polledUntil!.getTime()).toBeGreaterThanOrEqual(started - 1000);
  });

  it('renews a token about to lapse before asking, under the lock, and stores the new one sealed', async () => {
    const s = await connectedShop(h, false);
    const old = await storedAuth(h.t, s.integrationId);
    await rewriteAuth(h.t, s.integrationId, (a) => ({ ...a, tokenExpiresAt: Date.now() + 20_000 }));
    const before = h.shop.requests.length;
    const row = await rowOf(h.t, s.integrationId);
    const source = await stateRowOf(h.t, s.integrationId);
    const deps = sourceDeps(h.t.app);
    // Two polls of one shop at once (an API "look now" beside the periodic one) sign in once.
    await Promise.all([
      pollSource(deps, horoshop, row, source, new Date()),
      pollSource(deps, horoshop, row, source, new Date()),
    ]);
    const calls = h.shop.requests.slice(before);
    expect(calls.filter((r) => r.fn === 'auth')).toHaveLength(1);
    // Each poll read its window from the first page on, and was not refused. (How many pages depends on
    // the orders of earlier tests in this one shop that fall in the window's first second.)
    const reads = calls.filter((r) => r.fn === 'orders/get');
    expect(reads.filter((r) => (r.body as { offset: number }).offset === 0)).toHaveLength(2);
    expect(reads.every((r) => r.status === 200)).toBe(true);
    const renewed = await storedAuth(h.t, s.integrationId);
    expect(renewed.token).not.toBe(old.token);
    expect(renewed.tokenExpiresAt as number).toBeGreaterThan(Date.now() + 9 * MINUTE);
    expect(JSON.stringify(row.auth)).not.toContain(String(renewed.token));
  });

  it('signs in again once when the shop says the token lapsed (its clock ran ahead)', async () => {
    const s = await connectedShop(h, false);
    h.shop.advance(11 * MINUTE);
    const before = signIns();
    h.shop.createOrder({ name: 'After the clock' });
    expect(await poll()).toBe('ran');
    expect(signIns() - before).toBeGreaterThanOrEqual(1);
    expect((await leadsOf(h.t, s.integrationId)).map((l) => l.fields.name)).toEqual(['After the clock']);
    expect((await stateOf(s)).poll.lastError).toBeNull();
  });

  it('when the shop refuses the login, marks the integration broken with the reason; the next good poll mends it', async () => {
    const s = await connectedShop(h, false);
    await rewriteAuth(h.t, s.integrationId, (a) => ({ ...a, tokenExpiresAt: 0 }));
    h.shop.setFault({ kind: 'error', fn: 'auth', message: 'Incorrect login or password' });
    expect(await poll()).toBe('ran');
    const broken = await rowOf(h.t, s.integrationId);
    expect([broken.status, broken.statusReason]).toEqual([
      'broken',
      'HOROSHOP_AUTH_FAILED: Incorrect login or password',
    ]);
    expect((await stateOf(s)).poll.lastError).toBe('HOROSHOP_AUTH_FAILED: Incorrect login or password');

    h.shop.setFault(null);
    expect(await poll()).toBe('ran');
    expect((await rowOf(h.t, s.integrationId)).status).toBe('ok');
    expect((await stateOf(s)).poll.lastError).toBeNull();
  });

  it('when the shop is down, keeps its cursor and says so, without calling the connection broken', async () => {
    const s = await connectedShop(h, false);
    const cursor = (await sourceOf(h.t, s.integrationId))!.polledUntil;
    h.shop.setFault({ status: 503 });
    const res = await callAs(h.t, 'POST', `/api/integrations/${s.integrationId}/horoshop/poll`, s.user);
    expect(res.statusCode).toBe(200);
    expect(res.json().data.poll.lastError).toBe('HOROSHOP_UNAVAILABLE');
    expect((await sourceOf(h.t, s.integrationId))!.polledUntil).toEqual(cursor);
    expect((await rowOf(h.t, s.integrationId)).status).toBe('ok');
  });

  it('with a token given alone that lapsed, stops and says a login is needed; its webhook still works', async () => {
    const s = await shopSource(h);
    const signIn = await fetch(`${h.shop.url}/api/auth/`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ login: h.shop.login, password: h.shop.password }),
    });
    const { token } = ((await signIn.json()) as { response: { token: string } }).response;
    expect((await connectShop(h, s, { login: undefined, password: undefined, token })).statusCode).toBe(200);
    h.shop.advance(11 * MINUTE);
    expect(await poll()).toBe('ran');
    expect((await stateOf(s)).poll.lastError).toMatch(/^HOROSHOP_TOKEN_EXPIRED/);
    expect((await rowOf(h.t, s.integrationId)).status).toBe('ok');
    const order = h.shop.createOrder({ name: 'Via the webhook' });
    const res = await h.t.app.inject({
      method: 'PUT',
      url: await receiverPath(h.t, s.integrationId),
      payload: order,
    });
    expect(res.statusCode, res.body).toBe(200);
    expect((await leadsOf(h.t, s.integrationId)).map((l) => l.fields.name)).toEqual(['Via the webhook']);
  });

  it('leaves inactive sources alone', async () => {
    const s = await connectedShop(h, false);
    await callAs(h.t, 'PUT', `/api/integrations/${s.integrationId}/update`, s.user, { active: false });
    h.shop.createOrder({ name: 'Nobody takes me' });
    expect(await poll()).toBe('ran');
    expect(await leadsOf(h.t, s.integrationId)).toHaveLength(0);
  });
});

describe('the reason kept for a failed poll', () => {
  it('is text PostgreSQL can store, whatever the shop wrote', () => {
    const refused = Object.assign(new Error('refused'), { shopWords: 'Доступ\u0000 заборонено \ud800' });
    expect(connectorReason(horoshop, refused)).toBe('HOROSHOP_UNAVAILABLE: Доступ заборонено \ufffd');
  });
});
