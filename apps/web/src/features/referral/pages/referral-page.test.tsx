import type { Referrals } from '@leadrelay/shared';
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { fakeApi } from '../../../test/billing-fixtures';
import { makeUser, renderPage } from '../../../test/render';
import { ReferralPage } from './referral-page';

const slow = { timeout: 5000 };
const link = 'https://app.leadrelay.test/signup?promo=k7m2qx9p';

function referrals(over: Partial<Referrals> = {}): Referrals {
  return {
    code: 'k7m2qx9p',
    link,
    data: [
      {
        _id: 'r1',
        login: 'o***@gmail.com',
        createdAt: '2026-02-10T09:00:00.000Z',
        status: 'paid',
        paid: 58,
        reward: 11.6,
      },
      { _id: 'r2', login: 'i***@ukr.net', createdAt: '2026-02-01T09:00:00.000Z', status: 'demo', paid: 0, reward: 0 },
    ],
    total: 2,
    earned: 11.6,
    credit: 5.8,
    rewardShare: 0.2,
    ...over,
  };
}

beforeEach(() => {
  vi.unstubAllGlobals();
});
afterEach(() => {
  vi.restoreAllMocks();
});

describe('ReferralPage', { timeout: 30_000 }, () => {
  it('shows the link with its QR code, the rule in words, the totals and the referred accounts', async () => {
    const api = fakeApi({ 'GET /api/legacy/api/admin/referrals': referrals() });
    renderPage(<ReferralPage />, { user: makeUser(), locale: 'uk', path: '/admin/referral' });
    const input = (await screen.findByLabelText('Реферальне посилання', {}, slow)) as HTMLInputElement;
    expect(input.value).toBe(link);
    expect(screen.getByRole('img', { name: 'QR-код вашого реферального посилання' }).querySelector('svg')).toBeTruthy();
    expect(screen.getByText(/^Щоразу, коли обліковий запис.* 20% від сплаченого карткою/)).toBeTruthy();
    const totals = screen.getByTestId('referral-totals');
    expect(within(totals).getByText('$11.60')).toBeTruthy();
    expect(within(totals).getByText('$5.80')).toBeTruthy();

    const paid = screen.getByRole('row', { name: /o\*\*\*@gmail\.com/ });
    expect(within(paid).getByText('На тарифі')).toBeTruthy();
    expect(within(paid).getByText('$58.00')).toBeTruthy();
    expect(within(paid).getByText('$11.60')).toBeTruthy();
    expect(within(screen.getByRole('row', { name: /i\*\*\*@ukr\.net/ })).getByText('Демо-період')).toBeTruthy();
    expect(Object.fromEntries(api.calls.find((c) => c.path.endsWith('/referrals'))?.query ?? [])).toEqual({
      page: '1',
      limit: '10',
    });
  });

  it('copies the link and says so', async () => {
    fakeApi({ 'GET /api/legacy/api/admin/referrals': referrals() });
    const user = userEvent.setup();
    const writeText = vi.spyOn(navigator.clipboard, 'writeText').mockResolvedValue();
    renderPage(<ReferralPage />, { user: makeUser(), locale: 'en', path: '/en/admin/referral' });
    await user.click(await screen.findByRole('button', { name: /Copy$/ }, slow));
    expect(writeText).toHaveBeenCalledWith(link);
    expect(await screen.findByText('Link copied', {}, slow)).toBeTruthy();
  });

  it('with nobody referred yet, says so and still offers the link', async () => {
    fakeApi({
      'GET /api/legacy/api/admin/referrals': referrals({ data: [], total: 0, earned: 0, credit: 0 }),
    });
    renderPage(<ReferralPage />, { user: makeUser(), locale: 'en', path: '/en/admin/referral' });
    expect(await screen.findByText(/No one has signed up through your link yet/, {}, slow)).toBeTruthy();
    expect(screen.getByRole('button', { name: /Copy$/ })).toBeTruthy();
    await waitFor(() => expect(within(screen.getByTestId('referral-totals')).getAllByText('$0.00')).toHaveLength(2));
  });

  it('pages through the referred accounts', async () => {
    const api = fakeApi({ 'GET /api/legacy/api/admin/referrals': referrals({ total: 25 }) });
    const user = userEvent.setup();
    renderPage(<ReferralPage />, { user: makeUser(), locale: 'en', path: '/en/admin/referral' });
    await user.click(await screen.findByTitle('2', {}, slow));
    await waitFor(() =>
      expect(api.calls.some((c) => c.path.endsWith('/referrals') && c.query.get('page') === '2')).toBe(true),
    );
  });
});
