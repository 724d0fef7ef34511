import { getConnector } from '@leadrelay/connectors';
import { count, eq, ne } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEFAULT_CHECKOUT_LIFETIME_SECONDS } from '../../config';
import { invoices, orders, paymentEvents, paymentMethods, plans, renewals, users } from '../../db/schema';
import { freePort } from '../../test/free-port';
import { createDestination, createSource } from '../../test/routing-fixtures';
import { callAs, createTestApp, expectError, type SignedInUser, signUp, type TestApp } from '../../test/test-app';
import { testDestination } from '../../test/test-destination';
import { EXPIRE_CHECKOUTS_TASK, RENEWAL_TASK } from './payments.renewal';
import { type LiqPayEmulator, startLiqPayEmulator } from './providers/liqpay/liqpay-emulator';
import { encodeData, liqpaySignature } from './providers/liqpay/signature';

let t: TestApp;
let emulator: LiqPayEmulator;
const crm = testDestination();
let informed: { accountId: string; event: string; payload: unknown }[] = [];
/** The periodic tasks' clock. */
let clock = new Date();
/** Other tests' accounts are due about as soon: only this account's renewal is left planned. */
async function onlyRenewalOf(accountId: string) {
  await t.app.db.update(renewals).set({ dueAt: null }).where(ne(renewals.accountId, accountId));
}
async function runRenewalsAt(now: Date) {
  clock = now;
  expect(await t.app.periodic.runNow(RENEWAL_TASK)).toBe('ran');
}
const DAY = 86_400_000;

/** A port free right now: the app listens on it, so the emulator's callbacks reach it as LiqPay's would. */
let base = '';

beforeAll(async () => {
  emulator = await startLiqPayEmulator();
  const port = await freePort();
  base = `http://127.0.0.1:${port}`;
  t = await createTestApp({
    publicUrl: base,
    payment: {
      provider: 'liqpay',
      publicKey: emulator.publicKey,
      privateKey: emulator.privateKey,
      checkoutUrl: emulator.checkoutUrl,
      apiUrl: emulator.apiUrl,
      sandbox: true,
    },
    periodic: { now: () => clock },
    delivery: { getConnector: (slug) => (slug === 'test-crm' ? crm.connector : getConnector(slug)), concurrency: 1 },
  });
  await t.app.listen({ port, host: '127.0.0.1' });
  const emit = t.app.realtime.emitToAccount.bind(t.app.realtime);
  t.app.realtime.emitToAccount = ((accountId: string, event: string, payload: unknown) => {
    informed.push({ accountId, event, payload });
    return (emit as (...a: unknown[]) => void)(accountId, event, payload);
  }) as typeof t.app.realtime.emitToAccount;
});
afterAll(async () => {
  await t.close();
  await emulator.close();
});

async function seededPlan(name: 'Start' | 'Business' | 'Pro') {
  const rows = await t.app.db.select().from(plans);
  return rows.find((p) => p.title.en === name)!;
}
const accountOf = async (user: SignedInUser) =>
  (await t.app.db.select().from(users).where(eq(users.login, user.login)))[0]!;

/** A callback as the provider sends it: the event's fields, base64 JSON, signed with `key`. */
function callback(fields: Record<string, unknown>, key = emulator.privateKey) {
  const data = encodeData({ version: 3, public_key: emulator.publicKey, action: 'pay', currency: 'USD', ...fields });
  return { data, signature: liqpaySignature(key, data) };
}
const postCallback = (body: Record<string, string>) =>
  t.app.inject({
    method: 'POST',
    url: '/api/payment/callback',
    payload: new URLSearchParams(body).toString(),
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
  });

const success = (orderId: string, amount: number, extra: Record<string, unknown> = {}) =>
  callback({
    status: 'success',
    order_id: orderId,
    payment_id: Math.floor(Math.random() * 1e9),
    amount,
    card_token: `tok-${orderId}`,
    sender_card_mask2: '424242*4242',
    sender_card_type: 'visa',
    ...extra,
  });

async function subscribe(user: SignedInUser, planId: string, period: 'month' | 'year' = 'month') {
  const res = await callAs(t, 'POST', '/api/subscriptions/subscribe', user, { planId, period });
  expect(res.statusCode, res.body).toBe(200);
  return res.json().data as {
    order: { _id: string; status: string; charged: number; kind: string; errorCode: string | null };
    checkout: { action: string; fields: Record<string, string> } | null;
  };
}

const addDays = (date: string, days: number) =>
  new Date(Date.parse(`${date}T00:00:00Z`) + days * DAY).toISOString().slice(0, 10);
const addMonths = (date: string, months: number) => {
  const d = new Date(`${date}T00:00:00Z`);
  d.setUTCMonth(d.getUTCMonth() + months);
  return d.toISOString().slice(0, 10);
};

/** The invoice year: the seller's (Kyiv) calendar, as on the invoice itself. */
const kyivYear = (at: Date) => new Intl.DateTimeFormat('en', { timeZone: 'Europe/Kyiv', year: 'numeric' }).format(at);
const MINUTE = 60_000;
/** The app under test keeps the default lifetime of a checkout. */
const CHECKOUT_LIFETIME_MINUTES = DEFAULT_CHECKOUT_LIFETIME_SECONDS / 60;
const listOrders = async (user: SignedInUser) =>
  (await callAs(t, 'GET', '/api/orders', user)).json().data.data as { _id: string; number: string; status: string }[];
const statusOf = async (orderId: string) =>
  (await t.app.db.select({ status: orders.status }).from(orders).where(eq(orders.id, orderId)))[0]?.status;

// First in the file: its database is fresh, so the first invoice it issues is the install's first.
describe('billing tells the truth', () => {
  it('the first invoice of a fresh install is 000001: abandoned and declined orders take no number, and none is skipped', async () => {
    expect((await t.app.db.select({ n: count() }).from(invoices))[0]!.n).toBe(0);
    const user = await signUp(t);
    const business = await seededPlan('Business');
    const abandoned = await subscribe(user, business.id); // LR-000001, never paid
    const declined = await subscribe(user, business.id);
    await postCallback(callback({ status: 'failure', order_id: declined.order._id, amount: 29, err_code: 'limit' }));
    const paid = await subscribe(user, business.id);
    await postCallback(success(paid.order._id, 29));
    // A repeated callback issues nothing more, so it takes no number either.
    await postCallback(success(paid.order._id, 29));
    const again = await subscribe(user, business.id);
    await postCallback(success(again.order._id, 29));

    const list = (await callAs(t, 'GET', '/api/invoices', user)).json();
    const year = kyivYear(new Date());
    expect(list.data.map((i: { number: string; orderId: string }) => [i.number, i.orderId])).toEqual([
      [`LR-${year}-000002`, again.order._id],
      [`LR-${year}-000001`, paid.order._id],
    ]);
    expect(list.total).toBe(2);
    expect(await statusOf(abandoned.order._id)).toBe('pending');
  });

  it(`a checkout left unpaid for ${CHECKOUT_LIFETIME_MINUTES} minutes is expired by the periodic task, and listed so`, async () => {
    const user = await signUp(t);
    const start = await seededPlan('Start');
    const { order } = await subscribe(user, start.id);
    const created = new Date();
    clock = new Date(created.getTime() + (CHECKOUT_LIFETIME_MINUTES - 1) * MINUTE);
    expect(await t.app.periodic.runNow(EXPIRE_CHECKOUTS_TASK)).toBe('ran');
    expect(await statusOf(order._id)).toBe('pending'); // Still within its lifetime: the buyer may be paying.

    clock = new Date(created.getTime() + (CHECKOUT_LIFETIME_MINUTES + 1) * MINUTE);
    expect(await t.app.periodic.runNow(EXPIRE_CHECKOUTS_TASK)).toBe('ran');
    expect(await statusOf(order._id)).toBe('expired');
    expect(await listOrders(user)).toEqual([expect.objectContaining({ _id: order._id, status: 'expired' })]);
    expect((await accountOf(user)).planId).toBeNull();
  });

  it('the billing list expires an abandoned checkout itself, between the task’s runs; a saved-card charge still waiting is not', async () => {
    const user = await signUp(t);
    const start = await seededPlan('Start');
    const { order } = await subscribe(user, start.id);
    const old = new Date(Date.now() - (CHECKOUT_LIFETIME_MINUTES + 5) * MINUTE);
    await t.app.db.update(orders).set({ createdAt: old }).where(eq(orders.id, order._id));
    // A card charge whose answer never came: the money may have moved, so it waits for the provider.
    const [charge] = await t.app.db
      .insert(orders)
      .values({
        accountId: (await accountOf(user)).id,
        kind: 'token',
        planId: start.id,
        planTitle: start.title,
        period: 'month',
        amountCents: 900,
        chargedCents: 900,
        provider: 'liqpay',
        createdAt: old,
      })
      .returning();

    const listed = await listOrders(user);
    expect(listed.find((o) => o._id === order._id)?.status).toBe('expired');
    expect(listed.find((o) => o._id === charge!.id)?.status).toBe('pending');
  });

  it('a late paid callback for an expired checkout is honoured: the plan is paid and invoiced; a late decline says declined', async () => {
    const user = await signUp(t);
    const business = await seededPlan('Business');
    const before = await accountOf(user);
    const late = await subscribe(user, business.id);
    const declined = await subscribe(user, business.id);
    const old = new Date(Date.now() - 2 * CHECKOUT_LIFETIME_MINUTES * MINUTE);
    await t.app.db.update(orders).set({ createdAt: old }).where(eq(orders.accountId, before.id));
    expect((await listOrders(user)).map((o) => o.status)).toEqual(['expired', 'expired']);

    informed = [];
    expect((await postCallback(success(late.order._id, 29))).statusCode).toBe(200);
    expect(await statusOf(late.order._id)).toBe('paid');
    const after = await accountOf(user);
    expect(after.planId).toBe(business.id);
    expect(after.expDate).toBe(addMonths(before.expDate!, 1));
    expect(informed).toContainEqual({
      accountId: after.id,
      event: 'PAYMENT_INFORMER',
      payload: { orderId: late.order._id, status: 'paid' },
    });
    const list = (await callAs(t, 'GET', '/api/invoices', user)).json();
    expect(list.data).toEqual([expect.objectContaining({ orderId: late.order._id, status: 'paid' })]);
    expect(list.data[0].number).toMatch(new RegExp(`^LR-${kyivYear(new Date())}-\\d{6}$`));

    await postCallback(callback({ status: 'failure', order_id: declined.order._id, amount: 29, err_code: 'limit' }));
    expect(await statusOf(declined.order._id)).toBe('failed');
  });

  it('a card paid with again is saved once', async () => {
    const user = await signUp(t);
    const start = await seededPlan('Start');
    const card = { sender_card_mask2: '424242*42', sender_card_type: 'visa' };
    const first = await subscribe(user, start.id);
    await postCallback(success(first.order._id, 9, { ...card, card_token: emulator.createToken() }));
    const second = await subscribe(user, start.id, 'month');
    // The saved card pays by token at once; a new checkout with the same card saves it again.
    const checkout = (await callAs(t, 'GET', `/api/payment/auth?planId=${start.id}&period=month`, user)).json().data;
    await postCallback(success(checkout.order._id, 9, { ...card, card_token: emulator.createToken() }));
    expect(second.order.status).toBe('paid');

    const account = await accountOf(user);
    expect(await t.app.db.select().from(paymentMethods).where(eq(paymentMethods.accountId, account.id))).toHaveLength(
      1,
    );
    const method = (await callAs(t, 'GET', '/api/payment/method', user)).json().data;
    expect(method.card).toEqual({ mask: '424242*42', type: 'visa', expiry: null });
  });
});

describe('paying for a plan', () => {
  it('a demo account pays by checkout: plan, subscription and a month after the demo, one invoice, the card saved, PAYMENT_INFORMER', async () => {
    const user = await signUp(t);
    const business = await seededPlan('Business');
    const before = await accountOf(user);
    const { order, checkout } = await subscribe(user, business.id);
    expect(order).toMatchObject({ status: 'pending', kind: 'checkout', charged: 29 });
    expect(checkout!.action).toBe(`${emulator.url}/api/3/checkout`);
    const sent = JSON.parse(Buffer.from(checkout!.fields.data!, 'base64').toString());
    expect(sent).toMatchObject({ order_id: order._id, amount: 29, currency: 'USD', recurringbytoken: '1' });
    expect(sent.server_url).toBe(`${base}/api/payment/callback`);

    informed = [];
    const res = await postCallback(success(order._id, 29));
    expect(res.statusCode, res.body).toBe(200);
    const after = await accountOf(user);
    expect(after.planId).toBe(business.id);
    expect(after.subscription).toMatchObject({ planId: business.id, period: 'month', title: 'Бізнес' });
    expect(after.expDate).toBe(addMonths(before.expDate!, 1));
    expect(informed).toContainEqual({
      accountId: after.id,
      event: 'PAYMENT_INFORMER',
      payload: { orderId: order._id, status: 'paid' },
    });

    const list = (await callAs(t, 'GET', '/api/invoices', user)).json();
    expect(list.total).toBe(1);
    expect(list.data[0]).toMatchObject({
      orderId: order._id,
      amount: 29,
      charged: 29,
      periodFrom: before.expDate,
      periodTo: after.expDate,
      status: 'paid',
    });
    const method = (await callAs(t, 'GET', '/api/payment/method?lang=uk', user)).json();
    expect(method.data.card).toMatchObject({ mask: '424242*4242', type: 'visa' });
    const me = (await callAs(t, 'GET', '/api/orders', user)).json();
    expect(me.data.total).toBe(1);
    expect(me.data.data[0]).toMatchObject({ _id: order._id, status: 'paid' });
    const [renewal] = await t.app.db.select().from(renewals).where(eq(renewals.accountId, after.id));
    expect(renewal!.dueAt!.toISOString().slice(0, 10)).toBe(addDays(after.expDate!, -3));
  });

  it('a repeated, replayed or late callback changes nothing; a forged one is refused and logged', async () => {
    const user = await signUp(t);
    const start = await seededPlan('Start');
    const { order } = await subscribe(user, start.id);
    const paid = success(order._id, 9);
    expect((await postCallback(paid)).statusCode).toBe(200);
    const once = await accountOf(user);

    expect((await postCallback(paid)).statusCode).toBe(200); // the provider repeats itself
    expect((await postCallback(success(order._id, 9))).statusCode).toBe(200); // a second success
    expect(
      (await postCallback(callback({ status: 'failure', order_id: order._id, amount: 9, err_code: 'limit' })))
        .statusCode,
    ).toBe(200); // late
    const forged = callback({ status: 'success', order_id: order._id, amount: 9 }, 'not-the-key');
    expectError(await postCallback(forged), 400, 'SIGNATURE_INVALID');
    expectError(
      await postCallback({ data: paid.data.replace(/.$/, 'A'), signature: paid.signature }),
      400,
      'SIGNATURE_INVALID',
    );
    expectError(await postCallback({ data: 'bm90IGpzb24', signature: 'x' }), 400, 'SIGNATURE_INVALID');
    // Text PostgreSQL cannot store is cleaned at the input boundary: a body without a signature is forged.
    expectError(await postCallback({ junk: '\u0000\ud800' }), 400, 'SIGNATURE_INVALID');

    const twice = await accountOf(user);
    expect(twice.expDate).toBe(once.expDate);
    const rows = await t.app.db.select().from(invoices).where(eq(invoices.orderId, order._id));
    expect(rows).toHaveLength(1);
    const [row] = await t.app.db.select().from(orders).where(eq(orders.id, order._id));
    expect(row!.status).toBe('paid');
    const events = await t.app.db.select().from(paymentEvents).where(eq(paymentEvents.orderId, order._id));
    expect(events.map((e) => e.result).sort()).toEqual(['applied', 'duplicate', 'duplicate', 'stale'].sort());
    const forgedRows = (await t.app.db.select().from(paymentEvents)).filter((e) => e.result === 'forged');
    expect(forgedRows.length).toBeGreaterThanOrEqual(3);
  });

  it('a signed callback whose fields hold a NUL or half a UTF-16 pair is applied, its event kept cleaned', async () => {
    const user = await signUp(t);
    const start = await seededPlan('Start');
    const { order } = await subscribe(user, start.id);
    const res = await postCallback(
      success(order._id, 9, { sender_first_name: 'Ta\u0000ras', description: 'Start \ud800', 'ke\u0000y': 'v' }),
    );
    expect(res.statusCode, res.body).toBe(200);
    const [row] = await t.app.db.select().from(orders).where(eq(orders.id, order._id));
    expect(row!.status).toBe('paid');
    const [event] = await t.app.db.select().from(paymentEvents).where(eq(paymentEvents.orderId, order._id));
    expect(event!.body).toMatchObject({ sender_first_name: 'Taras', description: 'Start \ufffd', key: 'v' });
  });

  it('a decline fails the order and leaves the account as it was; a later success (3-D Secure finished) still pays', async () => {
    const user = await signUp(t);
    const start = await seededPlan('Start');
    const before = await accountOf(user);
    const { order } = await subscribe(user, start.id);
    await postCallback(callback({ status: 'failure', order_id: order._id, amount: 9, err_code: '3ds_failed' }));
    const [failed] = await t.app.db.select().from(orders).where(eq(orders.id, order._id));
    expect(failed).toMatchObject({ status: 'failed', errorCode: '3ds_failed' });
    expect((await accountOf(user)).planId).toBeNull();
    expect((await accountOf(user)).expDate).toBe(before.expDate);

    await postCallback(success(order._id, 9));
    expect((await accountOf(user)).planId).toBe(start.id);
  });

  it('a success for another amount or an unknown order changes nothing', async () => {
    const user = await signUp(t);
    const pro = await seededPlan('Pro');
    const { order } = await subscribe(user, pro.id);
    expect((await postCallback(success(order._id, 1))).statusCode).toBe(200);
    expect((await accountOf(user)).planId).toBeNull();
    expect((await postCallback(success('00000000-0000-4000-8000-000000000000', 79))).statusCode).toBe(200);
    const results = (await t.app.db.select().from(paymentEvents)).map((e) => e.result);
    expect(results).toContain('amount_mismatch');
    expect(results).toContain('unknown_order');
  });

  it('with the saved card a plan change is charged at once by token; a decline answers the order failed', async () => {
    const user = await signUp(t);
    const start = await seededPlan('Start');
    const pro = await seededPlan('Pro');
    const first = await subscribe(user, start.id);
    await postCallback(success(first.order._id, 9, { card_token: emulator.createToken() }));
    const paidUntil = (await accountOf(user)).expDate!;

    const change = await subscribe(user, pro.id, 'year');
    expect(change.checkout).toBeNull();
    expect(change.order).toMatchObject({ kind: 'token', status: 'paid', charged: 790 });
    const after = await accountOf(user);
    expect(after.planId).toBe(pro.id);
    expect(after.expDate).toBe(addMonths(paidUntil, 12));

    emulator.declineNextCharges(1);
    const declined = await subscribe(user, start.id);
    expect(declined.order).toMatchObject({ kind: 'token', status: 'failed' });
    expect(declined.order.errorCode).toBeTruthy();
    expect((await accountOf(user)).planId).toBe(pro.id);
  });

  it('refuses what cannot be bought with clear keys and writes no order', async () => {
    const user = await signUp(t);
    const business = await seededPlan('Business');
    expectError(
      await callAs(t, 'POST', '/api/subscriptions/subscribe', user, { planId: 'nope', period: 'month' }),
      400,
      'VALIDATION_ERROR',
    );
    expectError(
      await callAs(t, 'POST', '/api/subscriptions/subscribe', user, { planId: business.id, period: 'week' }),
      400,
      'VALIDATION_ERROR',
    );
    expectError(
      await callAs(t, 'POST', '/api/subscriptions/subscribe', user, {
        planId: '00000000-0000-4000-8000-000000000000',
        period: 'month',
      }),
      404,
      'PLAN_NOT_FOUND',
    );
    const [off] = await t.app.db
      .insert(plans)
      .values({
        title: { uk: 'Старий', en: 'Old' },
        monthlyCents: 500,
        annualCents: 5000,
        active: false,
        limits: { leadsPerMonth: 1, integrations: 1, destinationsPerSource: 1 },
      })
      .returning();
    expectError(
      await callAs(t, 'POST', '/api/subscriptions/subscribe', user, { planId: off!.id, period: 'month' }),
      409,
      'PLAN_NOT_AVAILABLE',
    );
    expectError(
      await callAs(t, 'POST', '/api/subscriptions/subscribe', null, { planId: business.id, period: 'month' }),
      401,
      'UNAUTHORIZED',
    );
    const account = await accountOf(user);
    expect(await t.app.db.select().from(orders).where(eq(orders.accountId, account.id))).toEqual([]);
  });

  it('another account sees none of it: its invoice is 404, its orders are not listed', async () => {
    const owner = await signUp(t);
    const other = await signUp(t);
    const { order } = await subscribe(owner, (await seededPlan('Start')).id);
    await postCallback(success(order._id, 9));
    const invoice = (await callAs(t, 'GET', '/api/invoices', owner)).json().data[0];
    expectError(await callAs(t, 'GET', `/api/invoices/${invoice._id}`, other), 404, 'INVOICE_NOT_FOUND');
    expectError(await callAs(t, 'GET', `/api/invoices/${invoice._id}/pdf`, other), 404, 'INVOICE_NOT_FOUND');
    expectError(await callAs(t, 'GET', '/api/invoices/not-an-id', owner), 404, 'INVOICE_NOT_FOUND');
    expect((await callAs(t, 'GET', '/api/invoices', other)).json()).toEqual({ data: [], total: 0 });
    expect((await callAs(t, 'GET', '/api/orders', other)).json()).toEqual({ data: { data: [], total: 0 } });
    expect((await callAs(t, 'GET', `/api/invoices/${invoice._id}`, owner)).json().data._id).toBe(invoice._id);
  });

  it('the invoice downloads as a PDF in the account language', async () => {
    const user = await signUp(t);
    const { order } = await subscribe(user, (await seededPlan('Start')).id);
    await postCallback(success(order._id, 9));
    const invoice = (await callAs(t, 'GET', '/api/invoices', user)).json().data[0];
    const pdf = await callAs(t, 'GET', `/api/invoices/${invoice._id}/pdf`, user);
    expect(pdf.statusCode).toBe(200);
    expect(pdf.headers['content-type']).toBe('application/pdf');
    expect(pdf.headers['content-disposition']).toContain(`${invoice.number}.pdf`);
    expect(pdf.rawPayload.subarray(0, 5).toString()).toBe('%PDF-');
  });
});

describe('through the emulator, as a browser and LiqPay would', () => {
  /** Posts the checkout form to the emulator and presses one of its buttons. */
  async function pressOnCheckout(
    checkout: { action: string; fields: Record<string, string> },
    button: 'pay' | 'decline' | '3ds-fail',
  ) {
    const page = await fetch(checkout.action, { method: 'POST', body: new URLSearchParams(checkout.fields) });
    const html = await page.text();
    const action = new RegExp(`action="([^"]+/${button})"`).exec(html)?.[1];
    expect(action, html).toBeTruthy();
    const pressed = await fetch(new URL(action!, checkout.action), { method: 'POST' });
    expect(pressed.status).toBeLessThan(400);
    await emulator.settled();
  }

  it('pay on the checkout page: the signed callback, sent twice, pays the order once and saves the card', async () => {
    const user = await signUp(t);
    const business = await seededPlan('Business');
    const before = await accountOf(user);
    expect((await callAs(t, 'GET', '/api/auth/me', user)).json().paymentInfo).toBeNull();
    const { order, checkout } = await subscribe(user, business.id);
    emulator.duplicateCallbacks(true);
    try {
      await pressOnCheckout(checkout!, 'pay');
    } finally {
      emulator.duplicateCallbacks(false);
    }
    const mine = emulator.sentCallbacks.filter((c) => c.payload.order_id === order._id);
    expect(mine.map((c) => c.answer)).toEqual([200, 200]);
    const after = await accountOf(user);
    expect(after.planId).toBe(business.id);
    expect(after.expDate).toBe(addMonths(before.expDate!, 1));
    expect(await t.app.db.select().from(invoices).where(eq(invoices.orderId, order._id))).toHaveLength(1);
    const method = (await callAs(t, 'GET', '/api/payment/method', user)).json().data;
    expect(method.card.mask).toBe('424242*42');
    // The user (me) and the account say which card is saved (spec 3, paymentInfo), and nothing secret.
    for (const path of ['/api/auth/me', '/api/account']) {
      const me = await callAs(t, 'GET', path, user);
      expect(me.json().paymentInfo).toEqual({ card: method.card, savedAt: method.createdAt });
      expect(me.body).not.toMatch(/token|sealed|"kid"/i);
    }

    // Renewing early now charges that card with no checkout.
    const renew = (await callAs(t, 'GET', '/api/payment/renew', user)).json().data;
    expect(renew.checkout).toBeNull();
    expect(renew.order).toMatchObject({ kind: 'token', status: 'paid' });
    expect((await accountOf(user)).expDate).toBe(addMonths(before.expDate!, 2));
  });

  it("decline and a failed 3-D Secure check on the checkout page fail the order with the bank's code", async () => {
    const user = await signUp(t);
    const start = await seededPlan('Start');
    for (const button of ['decline', '3ds-fail'] as const) {
      const { order, checkout } = await subscribe(user, start.id);
      await pressOnCheckout(checkout!, button);
      const [row] = await t.app.db.select().from(orders).where(eq(orders.id, order._id));
      expect(row!.status).toBe('failed');
      expect(row!.errorCode).toBeTruthy();
    }
    expect((await accountOf(user)).planId).toBeNull();
  });

  it('a renewal charge with no answer is never charged twice: the next run asks LiqPay first', async () => {
    const user = await signUp(t);
    const start = await seededPlan('Start');
    const first = await subscribe(user, start.id);
    await postCallback(success(first.order._id, 9, { card_token: emulator.createToken() }));
    const account = await accountOf(user);
    const [planned] = await t.app.db.select().from(renewals).where(eq(renewals.accountId, account.id));
    const mails = t.outbox.filter((m) => m.to === user.login).length;
    await onlyRenewalOf(account.id);

    emulator.failNextApiRequests(1);
    await runRenewalsAt(planned!.dueAt!);
    const pending = (await t.app.db.select().from(orders).where(eq(orders.accountId, account.id))).filter(
      (o) => o.kind === 'renewal',
    );
    expect(pending.map((o) => o.status)).toEqual(['pending']);
    expect(t.outbox.filter((m) => m.to === user.login)).toHaveLength(mails); // nothing to tell yet
    const [later] = await t.app.db.select().from(renewals).where(eq(renewals.accountId, account.id));
    expect(later!.dueAt!.getTime()).toBe(planned!.dueAt!.getTime() + 3_600_000);

    await runRenewalsAt(later!.dueAt!);
    const renewalsNow = (await t.app.db.select().from(orders).where(eq(orders.accountId, account.id))).filter(
      (o) => o.kind === 'renewal',
    );
    // LiqPay never saw the first: it is marked so, and one new charge paid the period.
    expect(renewalsNow.map((o) => `${o.status}:${o.errorCode}`).sort()).toEqual(['failed:not_charged', 'paid:null']);
    expect((await accountOf(user)).expDate).toBe(addMonths(account.expDate!, 1));
  });

  it('the owner refunds an order: the period and the referral reward are taken back; a client may not', async () => {
    const owner = await signUp(t);
    await t.app.db.update(users).set({ role: 'owner' }).where(eq(users.login, owner.login));
    const user = await signUp(t);
    const before = await accountOf(user);
    const { order, checkout } = await subscribe(user, (await seededPlan('Start')).id);
    await pressOnCheckout(checkout!, 'pay');
    expect((await accountOf(user)).expDate).toBe(addMonths(before.expDate!, 1));
    expectError(await callAs(t, 'POST', `/api/orders/${order._id}/refund`, user), 403, 'FORBIDDEN');
    const refunded = await callAs(t, 'POST', `/api/orders/${order._id}/refund`, owner);
    expect(refunded.statusCode, refunded.body).toBe(200);
    expect(refunded.json().data.status).toBe('refunded');
    expect((await accountOf(user)).expDate).toBe(before.expDate);
    const invoice = (await callAs(t, 'GET', '/api/invoices', user)).json().data[0];
    expect(invoice.status).toBe('refunded');
    expectError(await callAs(t, 'POST', `/api/orders/${order._id}/refund`, owner), 400, 'VALIDATION_ERROR');
    expectError(await callAs(t, 'POST', '/api/orders/nope/refund', owner), 404, 'ORDER_NOT_FOUND');
  });
});

describe('the saved card and renewals', () => {
  async function paidWithCard(planName: 'Start' | 'Business' = 'Start') {
    const user = await signUp(t);
    const plan = await seededPlan(planName);
    const { order } = await subscribe(user, plan.id);
    await postCallback(success(order._id, plan.monthlyCents / 100, { card_token: emulator.createToken() }));
    return { user, plan, account: await accountOf(user) };
  }

  it('renews by the saved card before the end; a decline is retried the next day and mailed; a success extends and mails', async () => {
    const { user, account } = await paidWithCard();
    await onlyRenewalOf(account.id);
    const [planned] = await t.app.db.select().from(renewals).where(eq(renewals.accountId, account.id));
    const at = planned!.dueAt!;
    const run = runRenewalsAt;

    emulator.declineNextCharges(1);
    await run(at);
    const [retry] = await t.app.db.select().from(renewals).where(eq(renewals.accountId, account.id));
    expect(retry).toMatchObject({ failures: 1 });
    expect(retry!.dueAt!.getTime()).toBe(at.getTime() + DAY);
    expect((await accountOf(user)).expDate).toBe(account.expDate);
    expect(t.outbox.filter((m) => m.to === user.login).at(-1)!.subject).toContain('відхилив');

    await run(new Date(at.getTime() + DAY));
    const renewed = await accountOf(user);
    expect(renewed.expDate).toBe(addMonths(account.expDate!, 1));
    expect(t.outbox.filter((m) => m.to === user.login).at(-1)!.subject).toContain('продовжено');
    const list = (await callAs(t, 'GET', '/api/orders', user)).json().data.data;
    expect(list.map((o: { kind: string; status: string }) => `${o.kind}:${o.status}`)).toEqual([
      'renewal:paid',
      'renewal:failed',
      'checkout:paid',
    ]);
    const [next] = await t.app.db.select().from(renewals).where(eq(renewals.accountId, account.id));
    expect(next).toMatchObject({ failures: 0 });
    expect(next!.dueAt!.toISOString().slice(0, 10)).toBe(addDays(renewed.expDate!, -3));
  });

  it('stops after the last retry is declined, and says so', async () => {
    const { user, account } = await paidWithCard();
    await onlyRenewalOf(account.id);
    const [planned] = await t.app.db.select().from(renewals).where(eq(renewals.accountId, account.id));
    let at = planned!.dueAt!.getTime();
    emulator.declineNextCharges(4);
    for (const wait of [1, 2, 3, 0]) {
      await runRenewalsAt(new Date(at));
      at += wait * DAY;
    }
    const [stopped] = await t.app.db.select().from(renewals).where(eq(renewals.accountId, account.id));
    expect(stopped).toMatchObject({ failures: 4, dueAt: null });
    expect(t.outbox.filter((m) => m.to === user.login).at(-1)!.text).toContain('Більше спроб не буде');
  });

  it('a removed card is forgotten and nothing renews', async () => {
    const { user, account } = await paidWithCard();
    const removed = await callAs(t, 'DELETE', '/api/payment/method', user);
    expect(removed.json()).toEqual({ success: true });
    expect((await callAs(t, 'GET', '/api/payment/method', user)).json()).toEqual({ data: null });
    expect((await callAs(t, 'GET', '/api/auth/me', user)).json().paymentInfo).toBeNull();
    expectError(await callAs(t, 'DELETE', '/api/payment/method', user), 404, 'PAYMENT_METHOD_NOT_FOUND');
    const [renewal] = await t.app.db.select().from(renewals).where(eq(renewals.accountId, account.id));
    expect(renewal!.dueAt).toBeNull();
    const renew = await callAs(t, 'GET', '/api/payment/renew', user);
    expect(renew.json().data.checkout).not.toBeNull();
  });
});

describe('referral reward', () => {
  it('credits 20 % of what a referred account pays to the referrer, who spends it on the next payment', async () => {
    const referrer = await signUp(t);
    const code = (await callAs(t, 'GET', '/api/legacy/api/admin/referrals', referrer)).json().code;
    const friendLogin = `friend-${Date.now()}@example.com`;
    const created = await t.app.inject({
      method: 'POST',
      url: '/api/auth/create-account',
      payload: { login: friendLogin, password: 'Abcdefg1', passwordConfirm: 'Abcdefg1', promo: code },
    });
    expect(created.statusCode).toBe(201);
    await t.app.db.update(users).set({ emailConfirmedAt: new Date() }).where(eq(users.login, friendLogin));
    const friend = (
      await t.app.inject({
        method: 'POST',
        url: '/api/auth/login',
        payload: { login: friendLogin, password: 'Abcdefg1' },
      })
    ).json();
    const friendUser = { login: friendLogin, accessToken: friend.accessToken, refreshToken: '' };
    const pro = await seededPlan('Pro');
    const { order } = await subscribe(friendUser, pro.id);
    await postCallback(success(order._id, 79));

    const list = (await callAs(t, 'GET', '/api/legacy/api/admin/referrals', referrer)).json();
    expect(list).toMatchObject({ earned: 15.8, credit: 15.8, rewardShare: 0.2 });
    expect(list.data[0]).toMatchObject({ status: 'paid', paid: 79, reward: 15.8 });

    const start = await seededPlan('Start'); // $9: the balance covers it whole
    const byCredit = await subscribe(referrer, start.id);
    expect(byCredit.order).toMatchObject({ kind: 'credit', status: 'paid', creditUsed: 9, charged: 0 });
    expect(byCredit.checkout).toBeNull();
    expect((await accountOf(referrer)).creditCents).toBe(680);
    const business = await seededPlan('Business'); // $29: $6.80 from the balance, $22.20 by card
    const part = await subscribe(referrer, business.id);
    expect(part.order).toMatchObject({ kind: 'checkout', creditUsed: 6.8, charged: 22.2 });
    await postCallback(success(part.order._id, 22.2));
    expect((await accountOf(referrer)).creditCents).toBe(0);
  });
});

describe('without provider keys', () => {
  it('paying answers PAYMENT_NOT_CONFIGURED and writes nothing', async () => {
    const bare = await createTestApp();
    try {
      const user = await signUp(bare);
      const [plan] = await bare.app.db.select().from(plans);
      const res = await callAs(bare, 'POST', '/api/subscriptions/subscribe', user, {
        planId: plan!.id,
        period: 'month',
      });
      expectError(res, 409, 'PAYMENT_NOT_CONFIGURED');
      expectError(
        await callAs(bare, 'GET', `/api/payment/auth?planId=${plan!.id}&period=month`, user),
        409,
        'PAYMENT_NOT_CONFIGURED',
      );
      expect(await bare.app.db.select().from(orders)).toEqual([]);
      expectError(
        await bare.app.inject({ method: 'POST', url: '/api/payment/callback', payload: {} }),
        409,
        'PAYMENT_NOT_CONFIGURED',
      );
    } finally {
      await bare.close();
    }
  });
});

describe('held leads and the payment', () => {
  it('an expired account pays: its held leads go out at once in arrival order, before the new ones', async () => {
    const user = await signUp(t);
    const account = await accountOf(user);
    const today = new Date().toISOString().slice(0, 10);
    await t.app.db
      .update(users)
      .set({ expDate: addDays(today, -1) })
      .where(eq(users.id, account.id));
    const source = await createSource(t.app.db, account.id, {
      destinationIds: [await createDestination(t.app.db, account.id)],
    });
    const post = async (name: string) =>
      (await t.app.inject({ method: 'POST', url: source.url, payload: { name } })).json().status as string;
    const statuses = [];
    for (const name of ['First', 'Second', 'Third']) statuses.push(await post(name));
    expect(statuses).toEqual(['held', 'held', 'held']);
    await t.app.deliveryWorker.drain();
    expect(crm.received).toHaveLength(0);

    const { order } = await subscribe(user, (await seededPlan('Start')).id);
    expect((await postCallback(success(order._id, order.charged))).statusCode).toBe(200);
    expect((await accountOf(user)).expDate).toBe(addMonths(today, 1));
    // No periodic check has run: the payment itself let them go.
    expect(await post('After paying')).toBe('pending');
    await t.app.deliveryWorker.drain();
    expect(crm.received.map((r) => r.lead.name)).toEqual(['First', 'Second', 'Third', 'After paying']);
    const totals = (await callAs(t, 'GET', '/api/hook/total', user)).json();
    expect(totals).toMatchObject({ held: 0, hold: null, delivered: 4 });
  });
});
