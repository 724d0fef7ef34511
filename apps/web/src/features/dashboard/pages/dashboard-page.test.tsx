import type { HookTotals, StatisticDay } from '@leadrelay/shared';
import { screen, within } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { calendarDayIn, formatNumber } from '../../../lib/format';
import { jsonResponse, makeUser, renderPage } from '../../../test/render';
import { fillDays, formatDay } from '../chart-data';
import { DashboardPage } from './dashboard-page';

const plainTotals: HookTotals = {
  total: 1234,
  delivered: 1100,
  failed: 17,
  pending: 5,
  filtered: 90,
  duplicate: 22,
  held: 0,
  hold: null,
};
let totals: HookTotals = plainTotals;

function statDay(offsetDays: number, delivered: number, failed: number, pending: number, held = 0): StatisticDay {
  // A day as the server counts it: in the account's zone (makeUser's is Kyiv).
  const id = calendarDayIn(new Date(Date.now() - offsetDays * 86_400_000), 'Europe/Kyiv');
  return {
    _id: id,
    date: `${id}T00:00:00.000Z`,
    received: delivered + failed + pending + held,
    delivered,
    failed,
    pending,
    filtered: 0,
    duplicate: 0,
    held,
  };
}

let integrationsTotal = 1;
let conversions = { sent: 0, pending: 0, failed: 0, days: [] as { day: string; sent: number }[] };
let fetchMock: ReturnType<typeof vi.fn>;
const stats = [statDay(0, 40, 2, 3, 6), statDay(3, 12, 0, 0)];

beforeEach(() => {
  integrationsTotal = 1;
  totals = plainTotals;
  conversions = { sent: 0, pending: 0, failed: 0, days: [] };
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
    if (url.pathname === '/api/conversions/statistic' && url.searchParams.get('days') === '30')
      return jsonResponse(200, conversions);
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
    expect(cells(13)).toEqual(['40', '2', '3', '6']);
    expect(cells(10)).toEqual(['12', '0', '0', '0']);
    expect(cells(12)).toEqual(['0', '0', '0', '0']);
    expect(cells(0)).toEqual(['0', '0', '0', '0']);
    const today = fillDays([], 'Europe/Kyiv')[13]?.day as string;
    expect(within(rows[13] as HTMLElement).getByRole('rowheader').textContent).toBe(formatDay(today, 'en', 'long'));
    // The chart itself is drawn (one bar group per series).
    expect(screen.getByTestId('leads-chart').querySelectorAll('.recharts-bar').length).toBe(4);
    expect(screen.queryByText('Your integrations will appear here')).toBeNull();
    // Nothing held: no held counter, no notice.
    expect(screen.queryByTestId('counter-held')).toBeNull();
    expect(screen.queryByTestId('held-notice')).toBeNull();
  });

  it('draws a counter of zero in the plain colour: no red for no failures', async () => {
    totals = { ...plainTotals, failed: 0 };
    renderPage(<DashboardPage />, { user: makeUser(), locale: 'en', path: '/en/admin' });
    const failed = await screen.findByTestId('counter-failed', {}, slow);
    await within(failed).findByText('0', {}, slow);
    expect((failed.querySelector('.ant-statistic-content') as HTMLElement).style.color).toBe('');
    const delivered = screen.getByTestId('counter-delivered');
    expect((delivered.querySelector('.ant-statistic-content') as HTMLElement).style.color).not.toBe('');
  });

  it('counts held leads on their own and says why they wait, what releases them and the way to the plans', async () => {
    totals = {
      ...plainTotals,
      held: 12,
      hold: { reason: 'plan_expired', oldestAt: '2026-03-01T10:00:00.000Z', dropsAt: '2026-03-31T10:00:00.000Z' },
    };
    renderPage(<DashboardPage />, { user: makeUser(), locale: 'en', path: '/en/admin' });
    const notice = await screen.findByTestId('held-notice', {}, slow);
    expect(within(notice).getByText('12 leads are held: your plan has expired')).toBeTruthy();
    expect(
      within(notice).getByText(/Within a minute of your payment they are delivered in the order they arrived/),
    ).toBeTruthy();
    expect(
      within(notice).getByText(/kept for at least 30 days: the oldest may be given up from 31 March 2026/),
    ).toBeTruthy();
    expect(within(notice).getByRole('link', { name: 'Choose a plan' }).getAttribute('href')).toBe('/en/admin/plan');
    const held = screen.getByTestId('counter-held');
    expect(within(held).getByText('Held')).toBeTruthy();
    expect(within(held).getByText('12')).toBeTruthy();
  });

  it('says it in Ukrainian, with the right word for the number, for the monthly limit', async () => {
    totals = {
      ...plainTotals,
      held: 3,
      hold: { reason: 'monthly_limit', oldestAt: '2026-03-01T10:00:00.000Z', dropsAt: '2026-03-31T10:00:00.000Z' },
    };
    renderPage(<DashboardPage />, { user: makeUser(), locale: 'uk', path: '/admin' });
    const notice = await screen.findByTestId('held-notice', {}, slow);
    expect(within(notice).getByText('3 ліди утримуються: вичерпано ліміт лідів на цей місяць')).toBeTruthy();
    expect(
      within(notice).getByText(/на початку нового місяця або протягом хвилини після переходу на більший тариф/),
    ).toBeTruthy();
    expect(
      within(notice).getByText(/щонайменше 30 днів: найстаріші можуть бути зняті з черги з 31 березня 2026/),
    ).toBeTruthy();
    expect(within(notice).getByRole('link', { name: 'Вибрати тариф' }).getAttribute('href')).toBe('/admin/plan');
    expect(within(screen.getByTestId('counter-held')).getByText('Утримано')).toBeTruthy();
  });

  it('formats the numbers and days in Ukrainian', async () => {
    renderPage(<DashboardPage />, { user: makeUser(), locale: 'uk', path: '/admin' });
    const delivered = await screen.findByTestId('counter-delivered', {}, slow);
    // Ukrainian groups digits with a no-break space (the matcher sees it as a space).
    await within(delivered).findByText(formatNumber(1100, 'uk').replace(/\s/g, ' '), {}, slow);
    expect(within(delivered).getByText('Доставлено')).toBeTruthy();
    const table = await screen.findByTestId('leads-chart-table', {}, slow);
    const today = fillDays([], 'Europe/Kyiv')[13]?.day as string;
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

  it('counts the CRM stages sent to ad platforms in 30 days, only once the account has any', async () => {
    conversions = { sent: 1234, pending: 3, failed: 1, days: [] };
    renderPage(<DashboardPage />, { user: makeUser(), locale: 'uk', path: '/admin' });
    const card = await screen.findByTestId('conversions-card', {}, slow);
    expect(within(card).getByText('Події конверсій')).toBeTruthy();
    expect(within(card).getByText('Надіслано за 30 днів')).toBeTruthy();
    expect(within(card).getByText('Надіслано за 30 днів').closest('.ant-statistic')?.textContent).toContain(
      formatNumber(1234, 'uk'),
    );
    expect(within(card).getByText('Очікують').closest('.ant-statistic')?.textContent).toContain('3');
    expect(within(card).getByText('Не вдалося').closest('.ant-statistic')?.textContent).toContain('1');
  });

  it('shows no conversions card while the account has sent none', async () => {
    renderPage(<DashboardPage />, { user: makeUser(), locale: 'en', path: '/en/admin' });
    await screen.findByTestId('counter-delivered', {}, slow);
    await vi.waitFor(() =>
      expect(fetchMock.mock.calls.some(([u]) => String(u).startsWith('/api/conversions/statistic'))).toBe(true),
    );
    expect(screen.queryByTestId('conversions-card')).toBeNull();
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
