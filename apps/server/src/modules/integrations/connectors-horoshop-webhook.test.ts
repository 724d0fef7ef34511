// The receiver the shop PUTs orders to: one lead per order however often the shop sends it, a
// batch as one lead each, the lead delivered once, and every hostile request a clear 4xx.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  connectedShop,
  type HoroshopTest,
  hooksOf,
  leadsOf,
  ordersOf,
  receiverPath,
  sourceOf,
  startHoroshopTest,
} from '../../test/horoshop-kit';
import { callAs, expectError } from '../../test/test-app';

let h: HoroshopTest;
beforeAll(async () => {
  h = await startHoroshopTest();
});
afterAll(() => h?.close());

const put = async (path: string, body: unknown, headers: Record<string, string> = {}, method = 'PUT') =>
  h.t.app.inject({
    method: method as 'PUT',
    url: path,
    payload: typeof body === 'string' ? body : JSON.stringify(body),
    headers: { 'content-type': 'application/json', ...headers },
  });

describe('an order webhook', () => {
  it('sent twice by the shop makes one lead with the customer and the total, delivered once', async () => {
    const s = await connectedShop(h);
    const order = h.shop.createOrder({
      name: 'Олена Коваленко',
      phone: '067 123 45 67',
      products: [{ title: { ua: 'Кавоварка' }, quantity: 1, price: 4200, total_price: 4200 }],
      utm: { source: 'google', campaign: 23964436493 },
    });
    const shots = await h.shop.fireWebhook(Number(order.order_id), { times: 2 });
    expect(shots.map((x) => [x.status, (x.body as { orders: { status: string }[] }).orders[0]!.status])).toEqual([
      [200, 'pending'],
      [200, 'repeat'],
    ]);

    const leads = await leadsOf(h.t, s.integrationId);
    expect(leads).toHaveLength(1);
    expect(leads[0]!.fields).toMatchObject({
      name: 'Олена Коваленко',
      phone: '+380671234567',
      utm: { source: 'google', campaign: '23964436493' },
      custom: { order_id: String(order.order_id), total: '4200', currency: 'UAH', items: 'Кавоварка × 1 = 4200' },
    });
    expect(leads[0]!.sourceId).toBe(`horoshop-order:${order.order_id}`);
    // The lead log shows it once; the page's order list counts the repeat.
    expect(await hooksOf(h.t, s.integrationId)).toHaveLength(1);
    expect(await ordersOf(h.t, s.integrationId)).toEqual([
      expect.objectContaining({ orderId: String(order.order_id), timesSeen: 2, via: 'webhook', total: '4200' }),
    ]);

    await h.t.app.deliveryWorker.drain();
    const delivered = h.crm.requests.filter(
      (r) => r.rawBody.includes(`horoshop-order:${order.order_id}`) || r.rawBody.includes('Олена'),
    );
    expect(delivered).toHaveLength(1);

    const state = (await callAs(h.t, 'GET', `/api/integrations/${s.integrationId}/horoshop`, s.user)).json();
    expect(state.orders).toEqual([
      expect.objectContaining({
        orderId: String(order.order_id),
        name: 'Олена Коваленко',
        timesSeen: 2,
        status: 'delivered',
      }),
    ]);
  });

  it('carrying a batch makes one lead per order, each once', async () => {
    const s = await connectedShop(h, false);
    const path = await receiverPath(h.t, s.integrationId);
    const orders = [
      h.shop.createOrder({ name: 'A' }),
      h.shop.createOrder({ name: 'B' }),
      h.shop.createOrder({ name: 'C' }),
    ];
    const res = await put(path, { orders: [...orders, orders[0]] });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json().orders.map((o: { status: string }) => o.status)).toEqual(['pending', 'pending', 'pending']);
    expect((await put(path, orders)).json().orders.map((o: { status: string }) => o.status)).toEqual([
      'repeat',
      'repeat',
      'repeat',
    ]);
    expect((await leadsOf(h.t, s.integrationId)).map((l) => l.fields.name).sort()).toEqual(['A', 'B', 'C']);
  });

  it('two copies arriving at the same moment still make one lead (ingest\u2019s dedupe key)', async () => {
    const s = await connectedShop(h, false);
    const path = await receiverPath(h.t, s.integrationId);
    const order = h.shop.createOrder({ name: 'Same moment' });
    const answers = await Promise.all([put(path, order), put(path, order), put(path, order)]);
    expect(answers.map((a) => a.statusCode)).toEqual([200, 200, 200]);
    expect(await leadsOf(h.t, s.integrationId)).toHaveLength(1);
  });

  it('from the shop\u2019s DELETE marks the subscription removed', async () => {
    const s = await connectedShop(h);
    const path = await receiverPath(h.t, s.integrationId);
    const sub = h.shop.state.subscriptions.find((x) => x.targetUrl.endsWith(path));
    const shot = await h.shop.removeSubscription(sub!.id);
    expect(shot?.status).toBe(200);
    expect((await sourceOf(h.t, s.integrationId))?.webhookStatus).toBe('removed');
    const state = (await callAs(h.t, 'GET', `/api/integrations/${s.integrationId}/horoshop`, s.user)).json();
    expect(state.webhook).toMatchObject({ status: 'removed', removedAt: expect.any(String) });
  });
});

describe('a hostile or broken request', () => {
  it('is a clear 4xx, never a 500, and makes no lead', async () => {
    const s = await connectedShop(h, false);
    const path = await receiverPath(h.t, s.integrationId);
    expectError(await put(path, '{"order_id": 1'), 400, 'INVALID_JSON');
    expectError(await put(path, ''), 400, 'INVALID_JSON');
    expectError(await put(path, { hello: 'world' }), 400, 'HOROSHOP_NO_ORDERS');
    expectError(await put(path, [1, 'two', null]), 400, 'HOROSHOP_NO_ORDERS');
    expectError(await put(path, { order_id: '1; drop table leads' }), 400, 'HOROSHOP_NO_ORDERS');
    expectError(await put(path, '"just a string"'), 400, 'HOROSHOP_NO_ORDERS');
    const deep = `${'{"data":'.repeat(5000)}1${'}'.repeat(5000)}`;
    expectError(await put(path, deep), 400, 'BODY_TOO_DEEP');
    const huge = JSON.stringify({ order_id: 1, delivery_name: 'x'.repeat(1024 * 1024) });
    expectError(await put(path, huge), 413, 'PAYLOAD_TOO_LARGE');
    expect(await leadsOf(h.t, s.integrationId)).toHaveLength(0);

    for (const method of ['GET', 'PATCH', 'HEAD', 'OPTIONS'] as const) {
      const res = await h.t.app.inject({ method, url: path });
      expect([method, res.statusCode, res.headers.allow]).toEqual([method, 405, 'PUT, POST, DELETE']);
    }
    expectError(await put('/api/horoshop/webhook/not-a-token', { order_id: 1 }), 404, 'INTEGRATION_NOT_FOUND');
    // A token past the router's parameter limit is refused before any route (as on every path): 404 in our shape.
    expectError(await put(`/api/horoshop/webhook/${'x'.repeat(300)}`, { order_id: 1 }), 404, 'NOT_FOUND');
    expectError(await put(`/api/horoshop/webhook/${'x'.repeat(99)}`, { order_id: 1 }), 404, 'INTEGRATION_NOT_FOUND');
    expectError(await put('/api/horoshop/webhook/not-a-token', {}, {}, 'DELETE'), 404, 'INTEGRATION_NOT_FOUND');
  });

  it('with keys named __proto__ or constructor is the shop\u2019s data, not refused (the shop cannot change its bodies)', async () => {
    const s = await connectedShop(h, false);
    const path = await receiverPath(h.t, s.integrationId);
    const order = h.shop.createOrder({ name: 'Ключі як дані' });
    const raw = `{"__proto__": {"isAdmin": true}, "constructor": {"prototype": {"x": 1}}, ${JSON.stringify(order).slice(1)}`;
    const res = await put(path, raw);
    expect(res.statusCode, res.body).toBe(200);
    expect((await leadsOf(h.t, s.integrationId)).map((l) => l.fields.name)).toEqual(['Ключі як дані']);
    expect(({} as { isAdmin?: boolean }).isAdmin).toBeUndefined();
  });

  it('in another content type, with NUL characters, is still read as the order it is', async () => {
    const s = await connectedShop(h, false);
    const path = await receiverPath(h.t, s.integrationId);
    const order = { ...h.shop.createOrder(), delivery_name: 'Ta\u0000ras' };
    const res = await put(path, order, { 'content-type': 'text/plain' });
    expect(res.statusCode, res.body).toBe(200);
    expect((await leadsOf(h.t, s.integrationId))[0]!.fields.name).toBe('Taras');
  });

  it('to another type\u2019s or a deactivated integration\u2019s token is 404', async () => {
    const s = await connectedShop(h, false);
    const path = await receiverPath(h.t, s.integrationId);
    const form = await callAs(h.t, 'POST', '/api/integrations', s.user, { type: 'webhook', name: 'Form' });
    const hook = await callAs(h.t, 'GET', `/api/integrations/${form.json()._id}/generateHook`, s.user);
    expectError(await put(`/api/horoshop/webhook/${hook.json().token}`, { order_id: 5 }), 404, 'INTEGRATION_NOT_FOUND');
    await callAs(h.t, 'PUT', `/api/integrations/${s.integrationId}/update`, s.user, { active: false });
    expectError(await put(path, h.shop.createOrder()), 404, 'INTEGRATION_NOT_FOUND');
    expect(await leadsOf(h.t, s.integrationId)).toHaveLength(0);
  });
});
