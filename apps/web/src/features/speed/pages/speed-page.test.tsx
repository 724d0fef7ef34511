import type { SpeedStat, SpeedToLeadBreakdown } from '@leadrelay/shared';
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { fakeApi } from '../../../test/billing-fixtures';
import { makeUser, renderPage } from '../../../test/render';
import { SpeedPage } from './speed-page';

const slow = { timeout: 5000 };
const MIN = 60_000;
const stat = (over: Partial<SpeedStat> = {}): SpeedStat => ({
  leads: 10,
  reacted: 8,
  neverTaken: 2,
  medianMs: 7 * MIN,
  p90Ms: 65 * MIN,
  within: { '5': 0.3, '15': 0.6, '60': 0.8 },
  ...over,
});

const breakdown: SpeedToLeadBreakdown = {
  from: '2026-10-27T22:00:00.000Z',
  to: '2026-11-25T10:00:00.000Z',
  timeZone: 'Europe/Kyiv',
  total: stat(),
  byDay: [
    { day: '2026-11-24', ...stat({ leads: 6 }) },
    { day: '2026-11-25', ...stat({ leads: 4, medianMs: 3 * MIN }) },
  ],
  byIntegration: [
    { integration: { _id: 'i1', name: 'Заявки з сайту', type: 'webhook' }, ...stat({ leads: 7, medianMs: 4 * MIN }) },
    { integration: { _id: 'i2', name: 'Facebook', type: 'facebook' }, ...stat({ leads: 3, medianMs: 50 * MIN }) },
  ],
  byManager: [
    { manager: 'Олена', ...stat({ leads: 6, medianMs: 2 * MIN, within: { '5': 1, '15': 1, '60': 1 } }) },
    { manager: 'Ігор', ...stat({ leads: 1, medianMs: 20_000 }) },
    { manager: null, ...stat({ leads: 4, reacted: 0, neverTaken: 4, medianMs: null, p90Ms: null }) },
  ],
};

beforeEach(() => vi.unstubAllGlobals());
afterEach(() => vi.restoreAllMocks());

describe('SpeedPage', { timeout: 30_000 }, () => {
  it('shows the period in figures, both charts and each source and manager in Ukrainian', async () => {
    const api = fakeApi({ 'GET /api/report/speed-to-lead/breakdown': breakdown });
    renderPage(<SpeedPage />, { user: makeUser(), locale: 'uk', path: '/admin/speed' });
    const summary = await screen.findByTestId('speed-summary', {}, slow);
    expect(within(summary).getByText('7 хв')).toBeTruthy();
    expect(within(summary).getByText('1 год 5 хв')).toBeTruthy();
    expect(within(summary).getByText('60%')).toBeTruthy();
    expect(within(summary).getByText('з 10 лідів')).toBeTruthy();
    expect(screen.getByText('Час реакції по днях')).toBeTruthy();
    expect(screen.getByText('Частка вчасних реакцій')).toBeTruthy();
    const sources = screen.getByTestId('speed-by-source');
    const site = within(sources).getByRole('row', { name: /Заявки з сайту/ });
    expect(within(site).getByText('4 хв')).toBeTruthy();
    expect(within(site).getByRole('link', { name: 'Заявки з сайту' }).getAttribute('href')).toBe(
      '/admin/integrations/webhook/i1',
    );
    const managers = screen.getByTestId('speed-by-manager');
    expect(within(within(managers).getByRole('row', { name: /Олена/ })).getAllByText('100%')).toHaveLength(3);
    const nobody = within(managers).getByRole('row', { name: /Без розподілу/ });
    // A lead taken within seconds reads "< 1 хв", never "0 хв".
    expect(within(within(managers).getByRole('row', { name: /Ігор/ })).getByText('< 1 хв')).toBeTruthy();
    expect(within(nobody).getAllByText('—')).toHaveLength(2);
    expect(Object.fromEntries(api.calls.at(-1)!.query)).toEqual({ days: '30' });
  });

  it('asks again for the period picked, in English', async () => {
    const api = fakeApi({ 'GET /api/report/speed-to-lead/breakdown': breakdown });
    const user = userEvent.setup();
    renderPage(<SpeedPage />, { user: makeUser(), locale: 'en', path: '/en/admin/speed' });
    expect(await screen.findByText('Median reaction', {}, slow)).toBeTruthy();
    expect(screen.getByText('of 10 leads')).toBeTruthy();
    await user.click(screen.getByText('7 days'));
    await waitFor(() => expect(api.calls.some((c) => c.query.get('days') === '7')).toBe(true));
  });

  it('offers to try again when the report cannot be read', async () => {
    fakeApi({});
    renderPage(<SpeedPage />, { user: makeUser(), locale: 'en', path: '/en/admin/speed' });
    expect(await screen.findByRole('button', { name: 'Try again' }, slow)).toBeTruthy();
  });

  it('with no leads in the period says what will appear there instead of bare axes', async () => {
    const none = stat({ leads: 0, reacted: 0, neverTaken: 0, medianMs: null, p90Ms: null });
    fakeApi({
      'GET /api/report/speed-to-lead/breakdown': {
        ...breakdown,
        total: none,
        byDay: [{ day: '2026-11-25', ...none }],
        byIntegration: [],
        byManager: [],
      },
    });
    renderPage(<SpeedPage />, { user: makeUser(), locale: 'uk', path: '/admin/speed' });
    const empty = await screen.findByTestId('speed-empty', {}, slow);
    expect(within(empty).getByText('За цей період лідів ще немає')).toBeTruthy();
    expect(within(empty).getByText(/тут зʼявляться медіана та 90-й перцентиль часу реакції/)).toBeTruthy();
    expect(within(empty).getByRole('link', { name: 'До інтеграцій' }).getAttribute('href')).toBe('/admin/integrations');
    expect(screen.queryByTestId('speed-summary')).toBeNull();
    expect(screen.queryByTestId('speed-time-chart')).toBeNull();
  });

  it('with leads nobody reacted to, its charts say so instead of drawing empty axes', async () => {
    const untaken = stat({ leads: 3, reacted: 0, neverTaken: 3, medianMs: null, p90Ms: null });
    fakeApi({
      'GET /api/report/speed-to-lead/breakdown': {
        ...breakdown,
        total: untaken,
        byDay: [
          { day: '2026-11-24', ...untaken },
          { day: '2026-11-25', ...stat({ leads: 0, reacted: 0, neverTaken: 0, medianMs: null, p90Ms: null }) },
        ],
      },
    });
    renderPage(<SpeedPage />, { user: makeUser(), locale: 'en', path: '/en/admin/speed' });
    const chart = await screen.findByTestId('speed-time-chart', {}, slow);
    expect(within(chart).getByText(/Nobody has reacted to a lead in this period yet/)).toBeTruthy();
    expect(within(screen.getByTestId('speed-share-chart')).getByTestId('speed-chart-empty')).toBeTruthy();
  });
});
