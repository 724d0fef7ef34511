// A Prom.ua source end to end on the server, against the emulated Prom API: the token checked before
// it is stored, each new order polled into one lead and delivered, nothing from before the
// connection, Prom's 429/5xx leaving the cursor for the next poll without losing an order, and a
// revoked token breaking the source on its page and in the owner's mail until a new one is connected.

import { type HttpEmulator, startHttpEmulator } from '@leadrelay/connectors/http/emulator';
import { type PromEmulator, startPromEmulator } from '@leadrelay/connectors/promua/emulator';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { connectorState, integrations, leads } from '../../db/schema';
import {
  callAs,
  createTestApp,
  errorOf,
  expectError,
  onUnlimitedPlan,
  type SignedInUser,
  signUp,
  type TestApp,
} from '../../test/test-app';

let t: TestApp;
let prom: PromEmulator;
let crm: HttpEmulator;
beforeAll(async () => {
  prom = await startPromEmulator();
  crm = await startHttpEmulator();
  t = await createTestApp({ allowPrivateDestinations: true, crm: { promua: { apiUrl: prom.url } } });
});
afterAll(async () => {
  await t?.close();
  await prom?.close();
  await crm?.close();
});
beforeEach(() => prom.setFault(null));

interface Setup {
  user: SignedInUser;
  id: string;
  company: number;
  token: string;
}

/** A user with a Prom.ua source sending to an http destination, and a store of its own at Prom. */
async function promSource(): Promise<Setup> {
  const user = await onUnlimitedPlan(t, await signUp(t));
  const destination = await callAs(t, 'POST', '/api/integrations', user, {
    type: 'http',
    name: 'CRM endpoint',
    settings: { url: crm.hookUrl },
  });
  expect(destination.statusCode, destination.body).toBe(201);
  const created = await callAs(t, 'POST', '/api/integrations', user, {
    type: 'promua',
    name: 'Мій магазин на Prom',
    destination: [destination.json()._id],
  });
  expect(created.statusCode, created.body).toBe(201);
  return { user, id: created.json()._id, ...prom.createCompany() };
}
const connect = (s: Setup, token = s.token) =>
  callAs(t, 'POST', `/api/integrations/${s.id}/connect`, s.user, { token });
async function connected(): Promise<Setup> {
  const s = await promSource();
  const res = await connect(s);
  expect(res.statusCode, res.body).toBe(200);
  return s;
}
const stateOf = async (s: Setup) => (await callAs(t, 'GET', `/api/integrations/${s.id}/source`, s.user)).json();
const pollNow = (s: Setup) => callAs(t, 'POST', `/api/integrations/${s.id}/source/poll`, s.user);
const leadsOf = (id: string) => t.app.db.select().from(leads).where(eq(leads.integrationId, id));
const rowOf = async (id: string) => (await t.app.db.select().from(integrations).where(eq(integrations.id, id)))[0]!;
const cursorOf = async (id: string) =>
  (await t.app.db.select().from(connectorState).where(eq(connectorState.integrationId, id)))[0]?.cursor;

describe('connecting the token', () => {
  it('checks it with Prom, stores it sealed and never answers it', async () => {
    const s = await promSource();
    const res = await connect(s);
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json().data.integration).toMatchObject({ _id: s.id, type: 'promua', isConnected: true, status: 'ok' });
    expect(prom.requests.filter((r) => r.path.endsWith('/orders/list')).at(-1)!.query.limit).toBe('1');
    expect(JSON.stringify((await rowOf(s.id)).auth)).not.toContain(s.token);
    const state = await stateOf(s);
    expect(state).toMatchObject({ connected: true, tokenEnd: s.token.slice(-4), orders: [] });
    expect(JSON.stringify(state)).not.toContain(s.token);
    expect(state.poll.polledUntil).toEqual(expect.any(String));
  });

  it('a token Prom refuses is PROMUA_AUTH_FAILED on the token field and nothing is stored', async () => {
    const s = await promSource();
    const res = await connect(s, 'f'.repeat(40));
    expectError(res, 400, 'PROMUA_AUTH_FAILED');
    expect(errorOf(res).errors).toEqual([{ field: 'token', code: 'PROMUA_AUTH_FAILED' }]);
    expect((await rowOf(s.id)).auth).toBeNull();
    expect((await stateOf(s)).connected).toBe(false);
  });

  it('text that cannot be a token is refused before Prom is asked', async () => {
    const s = await promSource();
    const before = prom.requests.length;
    const res = await connect(s, 'two words here');
    expect(res.statusCode).toBe(400);
    expect(errorOf(res).errors).toEqual([expect.objectContaining({ field: 'token', code: 'PROMUA_TOKEN_INVALID' })]);
    expect(prom.requests.length).toBe(before);
  });

  it('another account cannot read or connect the source (404)', async () => {
    const s = await connected();
    const stranger = await signUp(t);
    expectError(await callAs(t, 'GET', `/api/integrations/${s.id}/source`, stranger), 404, 'INTEGRATION_NOT_FOUND');
    expectError(
      await callAs(t, 'POST', `/api/integrations/${s.id}/connect`, stranger, { token: s.token }),
      404,
      'INTEGRATION_NOT_FOUND',
    );
  });
});

describe('the poll', () => {
  it('makes each new order one lead with the buyer and the order, delivered once, however often it is polled', async () => {
    const s = await connected();
    const order = prom.createOrder({ company: s.company, name: 'Ірина', lastName: 'Шевчук', phone: '067 555 44 33' });
    expect((await pollNow(s)).statusCode).toBe(200);
    expect((await pollNow(s)).statusCode).toBe(200);
    const found = await leadsOf(s.id);
    expect(found).toHaveLength(1);
    expect(found[0]!.fields).toMatchObject({ name: 'Ірина Шевчук', phone: '+380675554433' });
    const state = await stateOf(s);
    expect(state.orders).toEqual([
      expect.objectContaining({ orderId: String(order.id), via: 'poll', timesSeen: 2, orderStatus: 'Новий' }),
    ]);
    expect(state.poll.lastError).toBeNull();
    await t.app.deliveryWorker.drain();
    const sent = crm.requests.filter((r) => r.rawBody.includes(String(order.id)));
    expect(sent).toHaveLength(1);
    expect(sent[0]!.rawBody).toContain('Кавоварка CM-200 × 1 = 4200');
  });

  it('never takes the orders the store had before it was connected', async () => {
    const s = await promSource();
    prom.createOrder({ company: s.company, name: 'Давнє' });
    await new Promise((r) => setTimeout(r, 1100));
    expect((await connect(s)).statusCode).toBe(200);
    await pollNow(s);
    expect(await leadsOf(s.id)).toHaveLength(0);
  });

  it('when Prom keeps answering 429, says so, keeps its cursor, and the next poll takes the order', async () => {
    const s = await connected();
    const cursor = await cursorOf(s.id);
    prom.createOrder({ company: s.company, name: 'Зачекана' });
    prom.setFault({ status: 429, retryAfter: 0 });
    const res = await pollNow(s);
    expect(res.statusCode).toBe(200);
    expect(res.json().data.poll.lastError).toBe('PROMUA_UNAVAILABLE');
    expect(await cursorOf(s.id)).toEqual(cursor);
    expect((await rowOf(s.id)).status).toBe('ok');

    prom.setFault(null);
    await pollNow(s);
    expect((await leadsOf(s.id)).map((l) => l.fields.name)).toEqual(['Зачекана Коваленко']);
    expect((await stateOf(s)).poll.lastError).toBeNull();
  });
});

describe('a revoked token', () => {
  it('breaks the source on its page and mails the owner once; a new token mends it and no order of the outage is lost', async () => {
    const s = await connected();
    prom.revoke(s.token);
    const sentBefore = t.outbox.filter((m) => m.to === s.user.login).length;
    await pollNow(s);
    await pollNow(s);
    const row = await rowOf(s.id);
    expect([row.status, row.statusReason]).toEqual(['broken', 'PROMUA_AUTH_FAILED: Invalid token']);
    expect((await stateOf(s)).poll.lastError).toBe('PROMUA_AUTH_FAILED: Invalid token');
    const integration = (await callAs(t, 'GET', `/api/integrations/${s.id}`, s.user)).json();
    expect(integration).toMatchObject({ status: 'broken' });
    // One mail for the outage, naming the integration and saying what happened in the owner's words.
    const mails = t.outbox.filter((m) => m.to === s.user.login).slice(sentBefore);
    expect(mails).toHaveLength(1);
    expect(mails[0]!.text).toContain('Мій магазин на Prom');
    expect(mails[0]!.text).toMatch(/Prom\.ua (більше не приймає API-токен|no longer accepts the API token)/);

    // Orders made while the token was refused wait for the new one: the cursor stayed where it was.
    const during = prom.createOrder({ company: s.company, name: 'Під час збою' });
    expect((await connect(s, prom.createToken(s.company))).statusCode).toBe(200);
    expect((await rowOf(s.id)).status).toBe('ok');
    const after = prom.createOrder({ company: s.company, name: 'Після відновлення' });
    await pollNow(s);
    const state = await stateOf(s);
    expect(state.poll.lastError).toBeNull();
    expect(state.orders.map((o: { orderId: string }) => o.orderId).sort()).toEqual(
      [String(during.id), String(after.id)].sort(),
    );
    expect((await leadsOf(s.id)).map((l) => l.fields.name).sort()).toEqual(
      ['Під час збою Коваленко', 'Після відновлення Коваленко'].sort(),
    );
  });
});
