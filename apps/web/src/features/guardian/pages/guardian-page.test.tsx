import type { GuardianAlert, Reconciliation } from '@leadrelay/shared';
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { fakeApi } from '../../../test/billing-fixtures';
import { jsonResponse, makeUser, renderPage } from '../../../test/render';
import { GuardianPage } from './guardian-page';

const slow = { timeout: 5000 };

const reconciliation: Reconciliation = {
  days: 7,
  timeZone: 'Europe/Kyiv',
  rows: [
    {
      day: '2026-11-24',
      integration: { _id: 's1', name: 'Заявки з сайту', type: 'webhook' },
      received: 12,
      delivered: 9,
      held: 0,
      failed: 2,
      other: 1,
    },
    {
      day: '2026-11-24',
      integration: { _id: 'p1', name: 'Пошта', type: 'parser' },
      received: 3,
      delivered: 3,
      held: 0,
      failed: 0,
      other: 0,
    },
  ],
};

const alerts: GuardianAlert[] = [
  {
    _id: 'a1',
    kind: 'drought',
    integration: { _id: 's1', name: 'Заявки з сайту', type: 'webhook' },
    connection: null,
    silentSince: '2026-11-24T07:40:00.000Z',
    expected: 12.4,
    expiresAt: null,
    daysAhead: null,
    reason: null,
    openedAt: '2026-11-24T10:30:00.000Z',
    closedAt: null,
    notifiedAt: '2026-11-24T10:30:00.000Z',
  },
  {
    _id: 'a2',
    kind: 'expiry',
    integration: null,
    connection: { _id: 'c1', name: 'Olena Koval' },
    silentSince: null,
    expected: null,
    expiresAt: '2026-12-01T09:00:00.000Z',
    daysAhead: 7,
    reason: null,
    openedAt: '2026-11-24T09:00:00.000Z',
    closedAt: '2026-11-30T09:00:00.000Z',
    notifiedAt: null,
  },
];

/** A Prom.ua source whose token was revoked: open, told by the broken mail. */
const access: GuardianAlert = {
  _id: 'a3',
  kind: 'access',
  integration: { _id: 'p9', name: 'Замовлення Prom', type: 'promua' },
  connection: null,
  silentSince: null,
  expected: null,
  expiresAt: null,
  daysAhead: null,
  reason: { code: 'PROMUA_AUTH_FAILED' },
  openedAt: '2026-11-25T08:15:00.000Z',
  closedAt: null,
  notifiedAt: '2026-11-25T08:16:00.000Z',
};

const routes = (settings = { mailDrought: true, mailExpiry: true, weeklyMail: true }) => ({
  'GET /api/guardian/reconciliation': reconciliation,
  'GET /api/guardian/alerts': alerts,
  'GET /api/guardian/settings': settings,
  'PUT /api/guardian/settings': (call: { body: unknown }) => jsonResponse(200, call.body),
  'GET /api/guardian/telegram': { linked: null, bot: null },
});

beforeEach(() => vi.unstubAllGlobals());
afterEach(() => vi.restoreAllMocks());

describe('GuardianPage', { timeout: 30_000 }, () => {
  it('shows the reconciliation with a link to the undelivered leads, and the history, in Ukrainian', async () => {
    fakeApi(routes());
    renderPage(<GuardianPage />, { user: makeUser(), locale: 'uk', path: '/admin/guardian' });
    const table = await screen.findByTestId('guardian-reconciliation', {}, slow);
    const site = await within(table).findByRole('row', { name: /Заявки з сайту/ }, slow);
    expect(within(site).getByText('12')).toBeTruthy();
    const failed = within(site).getByRole('link', { name: 'Відкрити недоставлені ліди з «Заявки з сайту»' });
    expect(failed.getAttribute('href')).toBe('/admin/integrations/webhook/s1?tab=leads&status=failed');
    // Nothing undelivered: a plain zero, no link.
    const mail = within(table).getByRole('row', { name: /Пошта/ });
    expect(within(mail).queryByRole('link', { name: /недоставлені/ })).toBeNull();

    const history = await screen.findByTestId('guardian-history');
    const [drought, expiry] = await within(history).findAllByTestId('guardian-alert', {}, slow);
    expect(within(drought!).getByText('Посуха')).toBeTruthy();
    expect(within(drought!).getByText('Триває')).toBeTruthy();
    expect(within(drought!).getByText(/«Заявки з сайту»: немає лідів з .*близько 12\./)).toBeTruthy();
    expect(within(expiry!).getByText('Закінчення доступу')).toBeTruthy();
    expect(within(expiry!).getByText(/«Olena Koval»: доступ спливає .*\(попередження за 7 днів\)/)).toBeTruthy();
    expect(within(expiry!).getByText(/Ще не повідомлено/)).toBeTruthy();
  });

  it('shows a source whose sender refused our access with the reason in Ukrainian and a link to connect it again', async () => {
    fakeApi({
      ...routes(),
      'GET /api/guardian/alerts': [access, { ...access, _id: 'a4', closedAt: '2026-11-26T08:00:00.000Z' }],
    });
    renderPage(<GuardianPage />, { user: makeUser(), locale: 'uk', path: '/admin/guardian' });
    const history = await screen.findByTestId('guardian-history', {}, slow);
    const [open, over] = await within(history).findAllByTestId('guardian-alert', {}, slow);
    expect(within(open!).getByText('Доступ відхилено')).toBeTruthy();
    expect(within(open!).getByText('Триває')).toBeTruthy();
    expect(
      within(open!).getByText(/^«Замовлення Prom» не отримує ліди з .+: сервіс відхилив збережений доступ\.$/),
    ).toBeTruthy();
    // The connector's own words for its code, never the code itself.
    const reason = within(open!).getByTestId('guardian-alert-reason');
    expect(reason.textContent).toMatch(/^Prom\.ua не прийняв API-токен/);
    expect(reason.textContent).not.toContain('PROMUA_AUTH_FAILED');
    const reconnect = within(open!).getByRole('link', { name: 'Підключити «Замовлення Prom» знову' });
    expect(reconnect.getAttribute('href')).toBe('/admin/integrations/promua/p9');
    expect(within(open!).getByText(/Повідомлено/)).toBeTruthy();
    // Over (connected again): the history keeps it, without the link.
    expect(within(over!).getByText('Завершено')).toBeTruthy();
    expect(within(over!).queryByRole('link')).toBeNull();
  });

  it('says a refused source in English, with the English link', async () => {
    fakeApi({ ...routes(), 'GET /api/guardian/alerts': [access] });
    renderPage(<GuardianPage />, { user: makeUser(), locale: 'en', path: '/en/admin/guardian' });
    const [row] = await within(await screen.findByTestId('guardian-history', {}, slow)).findAllByTestId(
      'guardian-alert',
      {},
      slow,
    );
    expect(within(row!).getByText('Access refused')).toBeTruthy();
    expect(within(row!).getByText(/^"Замовлення Prom" has got no leads since .+: the service refused/)).toBeTruthy();
    expect(within(row!).getByTestId('guardian-alert-reason').textContent).toMatch(/^Prom\.ua/);
    const link = within(row!).getByRole('link', { name: 'Connect "Замовлення Prom" again' });
    expect(link.getAttribute('href')).toBe('/en/admin/integrations/promua/p9');
  });

  it('turns the weekly mail off at once and says it was saved, in English', async () => {
    const api = fakeApi(routes());
    const user = userEvent.setup();
    renderPage(<GuardianPage />, { user: makeUser(), locale: 'en', path: '/en/admin/guardian' });
    const weekly = await screen.findByRole('switch', { name: 'Weekly report' }, slow);
    expect(weekly.getAttribute('aria-checked')).toBe('true');
    await user.click(weekly);
    await waitFor(() =>
      expect(api.writes()).toEqual([
        expect.objectContaining({
          method: 'PUT',
          path: '/api/guardian/settings',
          body: { mailDrought: true, mailExpiry: true, weeklyMail: false },
        }),
      ]),
    );
    expect(await screen.findByText('Saved', {}, slow)).toBeTruthy();
    await waitFor(() => expect(weekly.getAttribute('aria-checked')).toBe('false'));
  });

  it('says when the guardian has noticed nothing yet', async () => {
    fakeApi({
      ...routes(),
      'GET /api/guardian/alerts': [],
      'GET /api/guardian/reconciliation': { ...reconciliation, rows: [] },
    });
    renderPage(<GuardianPage />, { user: makeUser(), locale: 'en', path: '/en/admin/guardian' });
    expect(await screen.findByText('The guardian has noticed nothing so far.', {}, slow)).toBeTruthy();
    expect(await screen.findByText('No leads in this period', {}, slow)).toBeTruthy();
  });
});
