import type { HookTotals, StatisticDay } from '@leadrelay/shared';
import { screen, within } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { formatNumber } from '../../../lib/format';
import { jsonResponse, makeUser, renderPage } from '../../../test/render';
import { fillDays, formatDay } from '../chart-data';
import { DashboardPage } from './dashboard-page';

const totals: HookTotals = { total: 1234, delivered: 1100, failed: 17, pending: 5, filtered: 90, duplicate: 22 };

function statDay(offsetDays: number, delivered: number, failed: number, pending: number): StatisticDay {
  const id = new Date(Date.now() - offsetDays * 86_400_000).toISOString().slice(0, 10);
  return {
    _id: id,
    date: `${id}T00:00:00.000Z`,
    received: delivered + failed + pending,
    delivered,
    failed,
    pending,
    filtered: 0,
    duplicate: 0,
  };
}

let integrationsTotal = 1;
let fetchMock: ReturnType<typeof vi.fn>;
const stats = [statDay(0, 40, 2, 3), statDay(3, 12, 0, 0)];

beforeEach(() => {
  integrationsTotal = 1;
  fetchMock = vi.fn(async (input: string) => {
    const url = new URL(input, 'http://localhost');
    if (url.pathname === '/api/integrations') {
      return jsonResponse(200, { data: [], total: integrationsTotal, filter: { page: 1, limit: 1 } });
    }
    if (url.pathname === '/api/hook/total') return jsonResponse(200, totals);
    if (url.pathname === '/api/legacy/api/admin/statistic') {
      return jsonResponse(200, { data: stats, limit: 14, page: 1, total: stats.length });
    }
    if (url.pathname === '/api/hook') return jsonResponse(200, { data: [], total: 0 });
    return jsonResponse(404, { code: 'NOT_FOUND', message: 'not found' });
  });
  vi.stubGlobal('fetch', fetchMock);
  // jsdom lays nothing out; give the chart's container the size a browser would.
  const measure = HTMLElement.prototype.getBoundingClientRect;
  vi.spyOn(HTMLElement.prototype, 'getBoundingClientRect').mockImplementation(function (this: HTMLElement) {
    if (this.classList.contains('recharts-responsive-container')) return DOMRect.fromRect({ width: 640, height: 280 });
    return measure.call(this);
  });
});
afterEach(() => {
  vi.restoreAllMocks();
});

const slow = { timeout: 5000 };

describe('DashboardPage', { timeout: 20_000 }, () => {
  it('shows the delivery counters and 14 days of leads, zero where nothing came in', async () => {
    renderPage(<DashboardPage />, { user: makeUser(), locale: 'en', path: '/en/admin' });

    const delivered = await screen.findByTestId('counter-delivered', {}, slow);
    await within(delivered).findByText('1,100', {}, slow);
    expect(within(screen.getByTestId('counter-failed')).getByText('17')).toBeTruthy();
    expect(within(screen.getByTestId('counter-pending')).getByText('5')).toBeTruthy();
    const received = screen.getByTestId('counter-received');
    expect(within(received).getByText('1,234')).toBeTruthy();
    expect(within(received).getByText(/Filtered: 90/)).toBeTruthy();
    expect(within(received).getByText(/Duplicates: 22/)).toBeTruthy();

    const table = await screen.findByTestId('leads-chart-table', {}, slow);
    const rows = within(table).getAllByRole('row').slice(1);
    expect(rows).toHaveLength(14);
    const cells = (i: number) =>
      within(rows[i] as HTMLElement)
        .getAllByRole('cell')
        .map((c) => c.textContent);
    // Today (the last row) and three days ago carry the statistic; the rest are zero.
    expect(cells(13)).toEqual(['40', '2', '3']);
    expect(cells(10)).toEqual(['12', '0', '0']);
    expect(cells(12)).toEqual(['0', '0', '0']);
    expect(cells(0)).toEqual(['0', '0', '0']);
    const today = fillDays([])[13]?.day as string;
    expect(within(rows[13] as HTMLElement).getByRole('rowheader').textContent).toBe(formatDay(today, 'en', 'long'));
    // The chart itself is drawn (one bar group per series).
    expect(screen.getByTestId('leads-chart').querySelectorAll('.recharts-bar').length).toBe(3);
    expect(screen.queryByText('Your integrations will appear here')).toBeNull();
  });

  it('formats the numbers and days in Ukrainian', async () => {
    renderPage(<DashboardPage />, { user: makeUser(), locale: 'uk', path: '/admin' });
    const delivered = await screen.findByTestId('counter-delivered', {}, slow);
    // Ukrainian groups digits with a no-break space (the matcher sees it as a space).
    await within(delivered).findByText(formatNumber(1100, 'uk').replace(/\s/g, ' '), {}, slow);
    expect(within(delivered).getByText('Доставлено')).toBeTruthy();
    const table = await screen.findByTestId('leads-chart-table', {}, slow);
    const today = fillDays([])[13]?.day as string;
    expect(within(table).getByText(formatDay(today, 'uk', 'long'))).toBeTruthy();
  });

  it('invites to create the first integration only while the account has none', async () => {
    integrationsTotal = 0;
    renderPage(<DashboardPage />, { user: makeUser(), locale: 'en', path: '/en/admin' });
    expect(await screen.findByText('Your integrations will appear here', {}, slow)).toBeTruthy();
    expect(screen.getByRole('link', { name: /Add an integration/ }).getAttribute('href')).toBe(
      '/en/admin/integrations',
    );
    expect(screen.queryByTestId('counter-delivered')).toBeNull();
    expect(screen.queryByTestId('leads-chart')).toBeNull();
    // The account status card stays.
    expect(screen.getByText('Account status')).toBeTruthy();
  });

  it('keeps the ACCOUNT_NOT_ACTIVE alert', async () => {
    renderPage(<DashboardPage />, {
      user: makeUser(),
      locale: 'en',
      path: '/en/admin?error=ACCOUNT_NOT_ACTIVE',
    });
    expect((await screen.findByRole('alert', {}, slow)).textContent).toMatch(/account is not active/);
  });
});
