import type { Invoice, Order, PaymentMethod, Plan } from '@leadrelay/shared';
import { vi } from 'vitest';
import { jsonResponse } from './render';

const now = '2026-01-01T00:00:00.000Z';

export function makePlan(
  id: string,
  uk: string,
  en: string,
  monthly: number,
  annual: number,
  over: Partial<Plan> = {},
): Plan {
  return {
    _id: id,
    title: { uk, en },
    monthlyAmount: monthly,
    annualAmount: annual,
    active: true,
    limits: { leadsPerMonth: 500, integrations: 3, destinationsPerSource: 2 },
    createdAt: now,
    updatedAt: now,
    ...over,
  };
}

export function makeOrder(over: Partial<Order> = {}): Order {
  return {
    _id: 'o-1',
    number: 'LR-000001',
    kind: 'checkout',
    status: 'pending',
    planId: 'p-business',
    planTitle: { uk: 'Бізнес', en: 'Business' },
    period: 'month',
    amount: 29,
    creditUsed: 0,
    charged: 29,
    currency: 'USD',
    errorCode: null,
    createdAt: '2026-03-02T10:15:00.000Z',
    paidAt: null,
    ...over,
  };
}

export function makeInvoice(over: Partial<Invoice> = {}): Invoice {
  return {
    _id: 'inv-1',
    number: 'LR-2026-000001',
    orderId: 'o-1',
    status: 'paid',
    planTitle: { uk: 'Бізнес', en: 'Business' },
    period: 'month',
    periodFrom: '2026-03-02',
    periodTo: '2026-04-02',
    amount: 29,
    creditUsed: 0,
    charged: 29,
    currency: 'USD',
    usdRate: 41.5,
    issuedAt: '2026-03-02T10:16:00.000Z',
    ...over,
  };
}

export const visa: PaymentMethod = {
  _id: 'pm-1',
  card: { mask: '424242******4242', type: 'visa', expiry: '12/29' },
  createdAt: '2026-03-02T10:16:00.000Z',
};

export interface Call {
  method: string;
  path: string;
  query: URLSearchParams;
  body: unknown;
  headers: Record<string, string>;
}

type Handler = (call: Call) => Response | Promise<Response>;

/**
 * A fetch stub: `routes` maps "METHOD /path" to an answer (a handler or a JSON body); the currency
 * is answered by default; anything else is a 404. Every call is recorded.
 */
export function fakeApi(routes: Record<string, Handler | object | null>) {
  const calls: Call[] = [];
  const all: Record<string, Handler | object | null> = {
    'GET /api/legacy/api/currency': { USD: 41.36, UAH: 1, updatedAt: now, source: 'nbu', rateDate: '2026-01-02' },
    ...routes,
  };
  const fetchMock = vi.fn(async (input: string, init: RequestInit = {}) => {
    const url = new URL(input, 'http://localhost');
    const method = init.method ?? 'GET';
    const body = typeof init.body === 'string' ? JSON.parse(init.body) : undefined;
    const call = {
      method,
      path: url.pathname,
      query: url.searchParams,
      body,
      headers: (init.headers ?? {}) as Record<string, string>,
    };
    calls.push(call);
    const key = `${method} ${url.pathname}`;
    if (!(key in all)) return jsonResponse(404, { code: 'NOT_FOUND', message: key });
    const answer = all[key];
    return typeof answer === 'function' ? (answer as Handler)(call) : jsonResponse(200, answer);
  });
  vi.stubGlobal('fetch', fetchMock);
  return { calls, fetchMock, writes: () => calls.filter((c) => c.method !== 'GET') };
}
