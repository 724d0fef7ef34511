import type { Order } from '@leadrelay/shared';
import { screen } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { jsonResponse, makeUser, renderPage } from '../../test/render';
import { CheckoutModal } from './checkout-modal';

const order: Order = {
  _id: 'o1',
  number: 'LR-000001',
  kind: 'checkout',
  status: 'pending',
  planId: 'p1',
  planTitle: { uk: 'Старт', en: 'Start' },
  period: 'month',
  amount: 9,
  creditUsed: 0,
  charged: 9,
  currency: 'USD',
  errorCode: null,
  createdAt: '2026-11-28T10:00:00.000Z',
  paidAt: null,
};

afterEach(() => vi.unstubAllGlobals());

describe('the checkout modal', () => {
  it('keeps waiting on an expired checkout, which a late callback still settles, and then says why it failed', async () => {
    // The order is listed as abandoned first (its lifetime passed), then the provider's late decline arrives.
    const answers: Order['status'][] = ['expired', 'failed'];
    vi.stubGlobal(
      'fetch',
      vi.fn(async (url: string) => {
        if (url.startsWith('/api/orders')) {
          const status = answers.length > 1 ? answers.shift()! : answers[0]!;
          return jsonResponse(200, {
            data: { data: [{ ...order, status, errorCode: status === 'failed' ? 'limit' : null }], total: 1 },
          });
        }
        return jsonResponse(404, { code: 'NOT_FOUND', message: 'no' });
      }),
    );
    vi.spyOn(HTMLFormElement.prototype, 'submit').mockImplementation(() => {});
    renderPage(
      <CheckoutModal
        order={order}
        checkout={{ action: 'https://checkout.example/api/3/checkout', fields: { data: 'x', signature: 'y' } }}
        onClose={() => {}}
        onPaid={() => {}}
        onRetry={() => {}}
        retrying={false}
      />,
      { user: makeUser(), locale: 'en', path: '/en/admin/plan' },
    );
    // The checkout page in the frame says it is done.
    window.postMessage({ liqpay: 'done', status: 'failure', orderId: 'o1' }, '*');
    expect(await screen.findByText('The payment did not go through', {}, { timeout: 6_000 })).toBeTruthy();
  }, 15_000);
});
