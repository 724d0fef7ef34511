import type { Order, PlanLimitsResponse } from '@leadrelay/shared';
import { QueryClient } from '@tanstack/react-query';
import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { RealtimeClient, type SocketLike } from '../../../lib/realtime';
import { fakeApi, makeOrder, makePlan, visa } from '../../../test/billing-fixtures';
import { jsonResponse, makeUser, renderPage } from '../../../test/render';
import { PlanPage } from './plan-page';

const slow = { timeout: 5000 };
const start = makePlan('p-start', 'Старт', 'Start', 9, 90);
const business = makePlan('p-business', 'Бізнес', 'Business', 29, 290);
const pro = makePlan('p-pro', 'Про', 'Pro', 79, 790);
const limits: PlanLimitsResponse = {
  planId: null,
  demo: true,
  limits: { leadsPerMonth: 3000, integrations: 10, destinationsPerSource: 5 },
  usage: { leadsThisMonth: 0, integrations: 0, destinationsPerSource: 0 },
};
const checkout = { action: 'http://127.0.0.1:9/liqpay/checkout', fields: { data: 'eyJ9', signature: 'c2ln' } };
const inDays = (n: number) => new Date(Date.now() + n * 86_400_000).toISOString().slice(0, 10);

/** Sends PAYMENT_INFORMER as the server would, through a real-time client on a fake socket. */
function realtime() {
  const handlers = new Map<string, (payload: unknown) => void>();
  const socket: SocketLike = {
    active: true,
    on: (event, listener) => handlers.set(event, listener as (payload: unknown) => void),
    connect: () => undefined,
    disconnect: () => undefined,
  };
  const client = new RealtimeClient({ queryClient: new QueryClient(), io: () => socket, getToken: () => 't' });
  client.start();
  return {
    payment: (orderId: string, status: Order['status']) => handlers.get('PAYMENT_INFORMER')?.({ orderId, status }),
    stop: () => client.stop(),
  };
}

/** The open dialog showing `text` (a closing one may still hold the same title id). */
async function dialogWith(text: string): Promise<HTMLElement> {
  const titles = await screen.findAllByText(text, {}, slow);
  return titles.at(-1)?.closest('[role="dialog"]') as HTMLElement;
}

let posted: HTMLFormElement[] = [];
beforeEach(() => {
  vi.unstubAllGlobals();
  posted = [];
  // jsdom cannot post a form into a frame; the test reads what would have been posted.
  vi.spyOn(HTMLFormElement.prototype, 'submit').mockImplementation(function (this: HTMLFormElement) {
    posted.push(this);
  });
});
afterEach(() => {
  vi.restoreAllMocks();
});

const base = (over: Record<string, unknown> = {}) => ({
  'GET /api/plans': [start, business, pro],
  'GET /api/legacy/api/plans/limits': limits,
  'GET /api/auth/me': makeUser(),
  'GET /api/payment/method': { data: null },
  ...over,
});

describe('PlanPage: paying', { timeout: 30_000 }, () => {
  it('a demo account pays in the checkout frame; the server’s PAYMENT_INFORMER closes it with a toast', async () => {
    const order = makeOrder({ _id: 'o-new', period: 'year', amount: 290, charged: 290 });
    const api = fakeApi(base({ 'POST /api/subscriptions/subscribe': { data: { order, checkout } } }));
    const live = realtime();
    const user = userEvent.setup();
    const page = renderPage(<PlanPage />, {
      user: makeUser({ expDate: inDays(5) }),
      locale: 'en',
      path: '/en/admin/plan',
    });
    const card = await screen.findByRole('region', { name: 'Business' }, slow);
    expect(within(screen.getByRole('region', { name: 'Start' })).getByRole('button', { name: 'Pay' })).toBeTruthy();
    await user.click(screen.getByText('Annually'));
    await user.click(within(card).getByRole('button', { name: 'Pay' }));

    const dialog = await screen.findByRole('dialog', { name: 'Payment: Business, 1 year' }, slow);
    expect(api.writes()).toEqual([
      expect.objectContaining({ path: '/api/subscriptions/subscribe', body: { planId: 'p-business', period: 'year' } }),
    ]);
    // Without a saved card nothing is charged before the card is entered: no confirmation first.
    const frame = within(dialog).getByTestId('checkout-frame') as HTMLIFrameElement;
    expect(posted).toHaveLength(1);
    const form = posted[0] as HTMLFormElement;
    expect(form.action).toBe(checkout.action);
    expect(form.method).toBe('post');
    expect(form.target).toBe(frame.name);
    expect(Object.fromEntries(new FormData(form))).toEqual(checkout.fields);

    live.payment('another-order', 'paid');
    expect(screen.getByRole('dialog')).toBeTruthy();
    live.payment('o-new', 'paid');
    expect(await screen.findByText('Payment received: Business is paid. Thank you!', {}, slow)).toBeTruthy();
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull(), slow);
    // The account (the header's plan and days left) is to be asked for again.
    expect(page.client.getQueryState(['me'])?.isInvalidated).toBe(true);
    live.stop();
  });

  it('paid once when the server’s PAYMENT_INFORMER comes while the lookup after “done” is on its way', async () => {
    const order = makeOrder({ _id: 'o-both' });
    const held: { answer?: () => void } = {};
    fakeApi(
      base({
        'POST /api/subscriptions/subscribe': { data: { order, checkout } },
        // The lookup's answer is held until the informer has come.
        'GET /api/orders': () =>
          new Promise<Response>((resolve) => {
            held.answer = () =>
              resolve(jsonResponse(200, { data: { data: [{ ...order, status: 'paid' }], total: 1 } }));
          }),
      }),
    );
    const live = realtime();
    const user = userEvent.setup();
    renderPage(<PlanPage />, { user: makeUser(), locale: 'en', path: '/en/admin/plan' });
    const card = await screen.findByRole('region', { name: 'Business' }, slow);
    await user.click(within(card).getByRole('button', { name: 'Pay' }));
    await screen.findByRole('dialog', { name: 'Payment: Business, 1 month' }, slow);

    fireEvent(window, new MessageEvent('message', { data: { liqpay: 'done', status: 'success' } }));
    await waitFor(() => expect(held.answer).toBeDefined(), slow);
    live.payment('o-both', 'paid');
    held.answer?.();
    expect(await screen.findByText('Payment received: Business is paid. Thank you!', {}, slow)).toBeTruthy();
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull(), slow);
    await new Promise((r) => setTimeout(r, 50));
    expect(screen.getAllByText('Payment received: Business is paid. Thank you!')).toHaveLength(1);
    live.stop();
  });

  it('the checkout page saying it is done only makes the page ask the server; a decline shows why', async () => {
    const order = makeOrder({ _id: 'o-2' });
    let status: Partial<Order> = {};
    fakeApi(
      base({
        'POST /api/subscriptions/subscribe': { data: { order, checkout } },
        'GET /api/orders': () => jsonResponse(200, { data: { data: [{ ...order, ...status }], total: 1 } }),
      }),
    );
    const user = userEvent.setup();
    renderPage(<PlanPage />, { user: makeUser(), locale: 'uk', path: '/admin/plan' });
    const card = await screen.findByRole('region', { name: 'Бізнес' }, slow);
    await user.click(within(card).getByRole('button', { name: 'Оплатити' }));
    const dialog = await screen.findByRole('dialog', { name: 'Оплата: Бізнес, 1 місяць' }, slow);

    // The frame claims success, but the server declined the order: the server wins.
    status = { status: 'failed', errorCode: '3ds_failed' };
    fireEvent(window, new MessageEvent('message', { data: { liqpay: 'done', status: 'success' } }));
    expect(await within(dialog).findByText('Перевірку 3-D Secure картки не пройдено.', {}, slow)).toBeTruthy();
    expect(within(dialog).getByText('Оплата не пройшла')).toBeTruthy();
    expect(within(dialog).getByRole('button', { name: 'Оплатити іншою карткою' })).toBeTruthy();
    expect(screen.queryByText(/Оплату отримано/)).toBeNull();
  });

  it('an account on a plan renews its own and switches to others; the saved card is charged after a confirmation', async () => {
    const declined = makeOrder({ _id: 'o-3', kind: 'token', status: 'failed', errorCode: 'limit', planId: 'p-pro' });
    const again = makeOrder({ _id: 'o-4', planId: 'p-pro', planTitle: pro.title, amount: 79, charged: 79 });
    const api = fakeApi(
      base({
        'GET /api/auth/me': makeUser({ planId: 'p-business', expDate: inDays(20) }),
        'GET /api/payment/method': { data: visa },
        'POST /api/subscriptions/subscribe': { data: { order: declined, checkout: null } },
        'GET /api/payment/auth': { data: { order: again, checkout } },
      }),
    );
    const user = userEvent.setup();
    renderPage(<PlanPage />, {
      user: makeUser({ planId: 'p-business', expDate: inDays(20) }),
      locale: 'en',
      path: '/en/admin/plan',
    });
    const proCard = await screen.findByRole('region', { name: 'Pro' }, slow);
    expect(
      within(screen.getByRole('region', { name: 'Business' })).getByRole('button', { name: 'Renew' }),
    ).toBeTruthy();
    await user.click(within(proCard).getByRole('button', { name: 'Switch' }));

    const confirm = await screen.findByRole('dialog', { name: 'Pay for Pro, 1 month?' }, slow);
    expect(within(confirm).getByText('$79.00 will be charged to the card Visa ··4242.')).toBeTruthy();
    expect(api.writes()).toHaveLength(0);
    await user.click(within(confirm).getByRole('button', { name: 'Pay' }));

    const decline = await dialogWith('The payment did not go through');
    expect(within(decline).getByText("The card's limit or balance is not enough for this payment.")).toBeTruthy();
    await user.click(within(decline).getByRole('button', { name: 'Pay with another card' }));
    await dialogWith('Payment: Pro, 1 month');
    const auth = api.calls.find((c) => c.path === '/api/payment/auth');
    expect(Object.fromEntries(auth?.query ?? [])).toEqual({ planId: 'p-pro', period: 'month', lang: 'en' });
  });

  it('a bonus balance is announced, and a price it covers whole is confirmed as taken from it', async () => {
    const paid = makeOrder({ _id: 'o-5', kind: 'credit', status: 'paid', planId: 'p-start', planTitle: start.title });
    const api = fakeApi(
      base({
        'GET /api/auth/me': makeUser({ credit: 12.5 }),
        'POST /api/subscriptions/subscribe': { data: { order: paid, checkout: null } },
      }),
    );
    const user = userEvent.setup();
    renderPage(<PlanPage />, { user: makeUser({ credit: 12.5 }), locale: 'uk', path: '/admin/plan' });
    expect(await screen.findByText('Бонусний баланс: $12.50 буде враховано', {}, slow)).toBeTruthy();
    const card = await screen.findByRole('region', { name: 'Старт' }, slow);
    await user.click(within(card).getByRole('button', { name: 'Оплатити' }));
    const confirm = await screen.findByRole('dialog', { name: 'Оплатити тариф «Старт», 1 місяць?' }, slow);
    expect(within(confirm).getByText('З бонусного балансу буде враховано $9.00.')).toBeTruthy();
    await user.click(within(confirm).getByRole('button', { name: 'Оплатити' }));
    expect(await screen.findByText('Оплачено з бонусного балансу: тариф «Старт»', {}, slow)).toBeTruthy();
    expect(api.writes()).toHaveLength(1);
  });

  it('a refused payment says why in a toast, in the page’s language', async () => {
    let refusal = { status: 409, code: 'PLAN_NOT_AVAILABLE' };
    fakeApi(
      base({
        'POST /api/subscriptions/subscribe': () =>
          jsonResponse(refusal.status, { statusCode: refusal.status, code: refusal.code, message: 'x' }),
      }),
    );
    const user = userEvent.setup();
    renderPage(<PlanPage />, { user: makeUser(), locale: 'en', path: '/en/admin/plan' });
    const card = await screen.findByRole('region', { name: 'Pro' }, slow);
    await user.click(within(card).getByRole('button', { name: 'Pay' }));
    expect(await screen.findByText('This plan is no longer available. Choose another one', {}, slow)).toBeTruthy();
    expect(screen.queryByRole('dialog')).toBeNull();

    refusal = { status: 409, code: 'PAYMENT_NOT_CONFIGURED' };
    // (jsdom never ends the loading icon's leave animation: it stays in the name)
    await user.click(within(card).getByRole('button', { name: /Pay$/ }));
    expect(
      await screen.findByText('Payments are not set up on this server yet. Contact support', {}, slow),
    ).toBeTruthy();
  });
});
