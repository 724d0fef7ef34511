import type { Plan, PlanLimitsResponse } from '@leadrelay/shared';
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import { jsonResponse, makeUser, renderPage } from '../../../test/render';
import { PlanPage } from './plan-page';

const slow = { timeout: 5000 };
const now = '2026-01-01T00:00:00.000Z';

function plan(id: string, uk: string, en: string, monthly: number, annual: number, over: Partial<Plan> = {}): Plan {
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

const start = plan('p-start', 'Старт', 'Start', 9, 90);
const business = plan('p-business', 'Бізнес', 'Business', 29, 290, {
  limits: { leadsPerMonth: 3000, integrations: 10, destinationsPerSource: 5 },
});
const pro = plan('p-pro', 'Про', 'Pro', 79, 790, {
  limits: { leadsPerMonth: null, integrations: null, destinationsPerSource: null },
});
const legacy = plan('p-legacy', 'Старий', 'Legacy', 5, 50, { active: false });

const demoLimits: PlanLimitsResponse = {
  planId: null,
  demo: true,
  limits: { leadsPerMonth: 3000, integrations: 10, destinationsPerSource: 5 },
  usage: { leadsThisMonth: 1250, integrations: 4, destinationsPerSource: 1 },
};

function fakeServer(plans: Plan[], limits: PlanLimitsResponse) {
  const fetchMock = vi.fn(async (input: string) => {
    const path = new URL(input, 'http://localhost').pathname;
    if (path === '/api/plans') return jsonResponse(200, plans);
    if (path === '/api/legacy/api/plans/limits') return jsonResponse(200, limits);
    if (path === '/api/legacy/api/currency')
      return jsonResponse(200, { USD: 41.36, UAH: 1, updatedAt: now, source: 'nbu', rateDate: '2026-01-02' });
    return jsonResponse(404, { code: 'NOT_FOUND', message: 'x' });
  });
  vi.stubGlobal('fetch', fetchMock);
  return fetchMock;
}

const inDays = (n: number) => new Date(Date.now() + n * 86_400_000).toISOString().slice(0, 10);

beforeEach(() => {
  vi.unstubAllGlobals();
  localStorage.clear();
});

describe('PlanPage', { timeout: 30_000 }, () => {
  it('shows the active plans with their prices and limits in words, and the demo period', async () => {
    fakeServer([start, business, pro, legacy], demoLimits);
    renderPage(<PlanPage />, { user: makeUser({ expDate: inDays(5) }), locale: 'en', path: '/en/admin/plan' });
    const card = await screen.findByRole('region', { name: 'Business' }, slow);
    expect(within(card).getByText('$29.00')).toBeTruthy();
    expect(within(card).getByText('3,000 leads a month')).toBeTruthy();
    expect(within(card).getByText('10 integrations')).toBeTruthy();
    expect(within(card).getByText('5 destinations per source')).toBeTruthy();
    const proCard = screen.getByRole('region', { name: 'Pro' });
    expect(within(proCard).getByText('Unlimited leads')).toBeTruthy();
    expect(within(proCard).getByText('Unlimited destinations per source')).toBeTruthy();
    expect(screen.getByRole('region', { name: 'Start' })).toBeTruthy();
    // A switched-off plan is not offered to an account that does not have it.
    expect(screen.queryByRole('region', { name: 'Legacy' })).toBeNull();
    const status = screen.getByTestId('plan-status');
    expect(within(status).getByText('Demo period')).toBeTruthy();
    expect(within(status).getByText('5 days left')).toBeTruthy();
    expect(screen.queryByText('Your plan')).toBeNull();
  });

  it('shows the usage against the demo limits', async () => {
    fakeServer([start, business, pro], demoLimits);
    renderPage(<PlanPage />, { user: makeUser(), locale: 'en', path: '/en/admin/plan' });
    expect(await screen.findByText('Usage (demo period limits)', {}, slow)).toBeTruthy();
    expect(within(screen.getByTestId('usage-leadsPerMonth')).getByText('1,250 of 3,000')).toBeTruthy();
    // Its month is the one day boundary in UTC, not the account's time zone: the screen says so.
    expect(within(screen.getByTestId('usage-leadsPerMonth')).getByText(/calendar month in UTC/)).toBeTruthy();
    expect(within(screen.getByTestId('usage-integrations')).getByText('4 of 10')).toBeTruthy();
    expect(within(screen.getByTestId('usage-destinationsPerSource')).getByText('1 of 5')).toBeTruthy();
    const bar = screen.getByTestId('usage-leadsPerMonth').querySelector('[role="progressbar"]');
    expect(bar?.getAttribute('aria-valuenow')).toBe(String((1250 / 3000) * 100));
  });

  it('switches to annual prices with the saving against twelve months', async () => {
    fakeServer([start, business, pro], demoLimits);
    const user = userEvent.setup();
    renderPage(<PlanPage />, { user: makeUser(), locale: 'en', path: '/en/admin/plan' });
    const card = await screen.findByRole('region', { name: 'Business' }, slow);
    expect(within(card).getByText('per month')).toBeTruthy();
    await user.click(screen.getByText('Annually'));
    expect(await within(card).findByText('$290.00', {}, slow)).toBeTruthy();
    expect(within(card).getByText('per year')).toBeTruthy();
    // 12 × 29 − 290 = 58
    expect(within(card).getByText('Save $58.00 compared with paying monthly')).toBeTruthy();
  });

  it('shows hryvnias with the shared display rule and remembers the choice', async () => {
    fakeServer([start, business, pro], demoLimits);
    const user = userEvent.setup();
    const first = renderPage(<PlanPage />, { user: makeUser(), locale: 'uk', path: '/admin/plan' });
    const card = await screen.findByRole('region', { name: 'Бізнес' }, slow);
    expect(within(card).getByText('$29.00')).toBeTruthy();
    await user.click(screen.getByText('₴ Гривня'));
    // 29 × (41.36 × 1.025) × 1.03 = 1266.3… → 1266
    expect(await within(card).findByText('≈ 1266 грн', {}, slow)).toBeTruthy();
    expect(screen.getByText(/^Ціни в гривнях орієнтовні: за курсом НБУ на 2 січ\. 2026/)).toBeTruthy();
    first.unmount();

    renderPage(<PlanPage />, { user: makeUser(), locale: 'en', path: '/en/admin/plan' });
    const again = await screen.findByRole('region', { name: 'Business' }, slow);
    await waitFor(() => expect(within(again).getByText('≈ 1266 грн')).toBeTruthy(), slow);
  });

  it('marks the account’s plan as current, even when it is no longer offered', async () => {
    fakeServer([start, business, pro, legacy], {
      ...demoLimits,
      planId: legacy._id,
      demo: false,
      limits: legacy.limits,
    });
    renderPage(<PlanPage />, {
      user: makeUser({ planId: legacy._id, expDate: inDays(30) }),
      locale: 'uk',
      path: '/admin/plan',
    });
    const card = await screen.findByRole('region', { name: 'Старий' }, slow);
    expect(within(card).getByText('Ваш тариф')).toBeTruthy();
    expect(within(card).getByText('Більше не пропонується')).toBeTruthy();
    expect(within(card).getByText('500 лідів на місяць')).toBeTruthy();
    expect(within(screen.getByRole('region', { name: 'Старт' })).queryByText('Ваш тариф')).toBeNull();
    const status = screen.getByTestId('plan-status');
    expect(within(status).getByText('Старий')).toBeTruthy();
    expect(within(status).getByText('залишилось 30 днів')).toBeTruthy();
    expect(await screen.findByText('Використання', {}, slow)).toBeTruthy();
    expect(within(screen.getByTestId('usage-leadsPerMonth')).getByText(/^1\s250 з 500$/)).toBeTruthy();
    expect(within(screen.getByTestId('usage-leadsPerMonth')).getByText('Ліміт перевищено')).toBeTruthy();
  });
});
