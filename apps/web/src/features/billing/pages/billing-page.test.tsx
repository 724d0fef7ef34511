import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { resetAuthForTests, setToken } from '../../../lib/auth';
import { fakeApi, makeInvoice, makeOrder, makePlan, visa } from '../../../test/billing-fixtures';
import { fakeJwt, makeUser, renderPage } from '../../../test/render';
import { BillingPage } from './billing-page';

const slow = { timeout: 5000 };
const business = makePlan('p-business', 'Бізнес', 'Business', 29, 290);
const inDays = (n: number) => new Date(Date.now() + n * 86_400_000).toISOString().slice(0, 10);
const onPlan = makeUser({
  planId: 'p-business',
  expDate: inDays(40),
  credit: 5.8,
  subscription: { title: 'Бізнес', planId: 'p-business' },
});
const invoice = makeInvoice({ creditUsed: 4, charged: 25 });
const orders = [
  makeOrder({ _id: 'o-3', number: 'LR-000003', status: 'expired' }),
  makeOrder({ _id: 'o-2', number: 'LR-000002', kind: 'token', status: 'failed', errorCode: 'weird_code_42' }),
  makeOrder({ _id: 'o-1', number: 'LR-000001', status: 'paid', paidAt: '2026-03-02T10:16:00.000Z' }),
];

function server(over: Record<string, unknown> = {}) {
  return fakeApi({
    'GET /api/plans': [business],
    'GET /api/auth/me': onPlan,
    'GET /api/payment/method': { data: visa },
    'DELETE /api/payment/method': { success: true },
    'GET /api/invoices': { data: [invoice], total: 1 },
    'GET /api/orders': { data: { data: orders, total: orders.length } },
    ...over,
  });
}

beforeEach(() => {
  vi.unstubAllGlobals();
});
const { createObjectURL, revokeObjectURL } = URL;
afterEach(() => {
  vi.restoreAllMocks();
  resetAuthForTests();
  Object.assign(URL, { createObjectURL, revokeObjectURL });
});

describe('BillingPage', { timeout: 30_000 }, () => {
  it('shows the plan and until when it is paid, the bonus balance, the saved card, invoices and payments', async () => {
    server();
    renderPage(<BillingPage />, { user: onPlan, locale: 'en', path: '/en/admin/billing' });
    const plan = screen.getByTestId('billing-plan');
    expect(await within(plan).findByText('Business', {}, slow)).toBeTruthy();
    expect(within(plan).getByText('Paid until')).toBeTruthy();
    expect(within(plan).getByText(/40 days left/)).toBeTruthy();
    expect(within(plan).getByRole('button', { name: 'Renew now' })).toBeTruthy();
    expect(within(screen.getByTestId('billing-credit')).getByText('$5.80')).toBeTruthy();
    const card = screen.getByTestId('billing-card');
    expect(await within(card).findByText('Visa ··4242', {}, slow)).toBeTruthy();
    expect(within(card).getByText('Expires 12/29')).toBeTruthy();
    // One card is named once: not a second time in the provider's raw mask.
    expect(within(card).queryByText(/424242/)).toBeNull();
    expect(within(card).getAllByText(/4242/)).toHaveLength(1);

    const invoices = screen.getByTestId('invoices');
    const row = await within(invoices).findByRole('row', { name: /LR-2026-000001/ }, slow);
    expect(within(row).getByText('$29.00')).toBeTruthy();
    expect(within(row).getByText('$4.00 from the bonus balance')).toBeTruthy();
    expect(within(row).getByText('2 Mar 2026 – 2 Apr 2026')).toBeTruthy();
    expect(within(row).getByText('Paid')).toBeTruthy();

    const payments = screen.getByTestId('orders');
    const failed = await within(payments).findByRole('row', { name: /LR-000002/ }, slow);
    expect(within(failed).getByText('Declined')).toBeTruthy();
    expect(within(failed).getByText('Saved card')).toBeTruthy();
    expect(within(within(payments).getByRole('row', { name: /LR-000001/ })).getByText('Paid')).toBeTruthy();
    // An abandoned checkout says so; nothing reads as a charge still waiting.
    const abandoned = within(payments).getByRole('row', { name: /LR-000003/ });
    expect(within(abandoned).getByText('Checkout abandoned')).toBeTruthy();
    expect(within(payments).queryByText('Awaiting payment')).toBeNull();
  });

  it('shows invoice amounts in hryvnias at the rate of the day they were paid', async () => {
    server();
    localStorage.setItem('currency', 'UAH');
    renderPage(<BillingPage />, { user: onPlan, locale: 'uk', path: '/admin/billing' });
    const row = await within(screen.getByTestId('invoices')).findByRole('row', { name: /LR-2026-000001/ }, slow);
    // 29 × (41.5 × 1.025) × 1.03 = 1270.6… → 1271 (the invoice's own rate, not today's 41.36)
    expect(within(row).getByText('≈ 1271 грн')).toBeTruthy();
    // A payment has no rate of its own: today's. 29 × (41.36 × 1.025) × 1.03 → 1266
    const order = await within(screen.getByTestId('orders')).findByRole('row', { name: /LR-000001/ }, slow);
    expect(within(order).getByText('≈ 1266 грн')).toBeTruthy();
  });

  it('back from a checkout left unpaid, the page says it was not completed and how to pay', async () => {
    server();
    renderPage(<BillingPage />, { user: onPlan, locale: 'uk', path: '/admin/billing?order=o-3' });
    expect(
      await screen.findByText(
        'Оплату не завершено. Якщо ви все ж оплатили, платіж зарахується сам; інакше почніть знову на сторінці «Тариф»',
        {},
        slow,
      ),
    ).toBeTruthy();
  });

  it('removing the card says that automatic renewals stop, and asks first', async () => {
    const api = server();
    const user = userEvent.setup();
    renderPage(<BillingPage />, { user: onPlan, locale: 'uk', path: '/admin/billing' });
    const card = screen.getByTestId('billing-card');
    await user.click(await within(card).findByRole('button', { name: 'Видалити картку' }, slow));
    expect(await screen.findByText(/Автоматичне продовження припиниться/, {}, slow)).toBeTruthy();
    expect(api.writes()).toHaveLength(0);
    const dialog = screen.getAllByText('Видалити збережену картку?').at(-1)?.closest('[role="dialog"]') as HTMLElement;
    await user.click(within(dialog).getByRole('button', { name: 'Видалити картку' }));
    expect(await screen.findByText('Картку видалено. Автоматичне продовження вимкнено', {}, slow)).toBeTruthy();
    expect(api.writes()).toEqual([expect.objectContaining({ method: 'DELETE', path: '/api/payment/method' })]);
  });

  it('downloads an invoice’s PDF with the session’s token', async () => {
    const api = server({
      'GET /api/invoices/inv-1/pdf': () =>
        new Response('%PDF-1.7 test', {
          status: 200,
          headers: {
            'Content-Type': 'application/pdf',
            'Content-Disposition': 'attachment; filename="LR-2026-000001.pdf"',
          },
        }),
    });
    setToken(fakeJwt({ sub: 'u1', exp: Date.now() / 1000 + 900 }));
    const created = vi.fn((_b: Blob) => 'blob:invoice');
    // jsdom has no object URLs; the test reads what the link would have saved.
    Object.assign(URL, { createObjectURL: created, revokeObjectURL: vi.fn() });
    const clicks: HTMLAnchorElement[] = [];
    vi.spyOn(HTMLAnchorElement.prototype, 'click').mockImplementation(function (this: HTMLAnchorElement) {
      clicks.push(this);
    });
    const user = userEvent.setup();
    renderPage(<BillingPage />, { user: onPlan, locale: 'en', path: '/en/admin/billing' });
    await user.click(await screen.findByRole('button', { name: 'Download invoice LR-2026-000001 (PDF)' }, slow));
    await waitFor(() => expect(clicks).toHaveLength(1), slow);
    expect(clicks[0]?.download).toBe('LR-2026-000001.pdf');
    expect(clicks[0]?.href).toBe('blob:invoice');
    const saved = created.mock.calls[0]?.[0];
    expect(await saved?.text()).toMatch(/^%PDF/);
    const call = api.calls.find((c) => c.path === '/api/invoices/inv-1/pdf');
    expect(call?.headers.Authorization).toMatch(/^Bearer /);
  });

  it('a demo account without payments is offered a plan, and the lists say there is nothing yet', async () => {
    server({
      'GET /api/payment/method': { data: null },
      'GET /api/invoices': { data: [], total: 0 },
      'GET /api/orders': { data: { data: [], total: 0 } },
    });
    renderPage(<BillingPage />, { user: makeUser({ expDate: inDays(9) }), locale: 'uk', path: '/admin/billing' });
    const plan = screen.getByTestId('billing-plan');
    expect(within(plan).getByText('Демо-період')).toBeTruthy();
    expect(within(plan).getByText(/залишилось 9 днів/)).toBeTruthy();
    expect(within(plan).queryByRole('button', { name: 'Продовжити зараз' })).toBeNull();
    expect(within(plan).getAllByRole('link', { name: 'Обрати тариф' }).length).toBeGreaterThan(0);
    expect(await screen.findByText(/Рахунків ще немає/, {}, slow)).toBeTruthy();
    expect(await screen.findByText('Платежів ще не було.', {}, slow)).toBeTruthy();
    expect(await screen.findByText(/Збереженої картки немає/, {}, slow)).toBeTruthy();
  });

  it('a declined payment with a code we do not know reads as a bank decline, the code in small print', async () => {
    server();
    const user = userEvent.setup();
    renderPage(<BillingPage />, { user: onPlan, locale: 'en', path: '/en/admin/billing' });
    const failed = await within(screen.getByTestId('orders')).findByRole('row', { name: /LR-000002/ }, slow);
    await user.hover(within(failed).getByText('Declined'));
    expect(await screen.findByText('The bank declined the payment. Code: weird_code_42', {}, slow)).toBeTruthy();
  });
});
