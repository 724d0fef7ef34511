import { screen } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { setToken } from '../../lib/auth';
import { fakeJwt, makeUser, renderPage } from '../../test/render';
import { TariffStatus } from './account-header';

const day = (n: number) => new Date(Date.now() + n * 86_400_000).toISOString().slice(0, 10);

function show(overrides: Parameters<typeof makeUser>[0], locale: 'uk' | 'en' = 'uk') {
  setToken(fakeJwt({ sub: 'u1', login: 'a@b.co', role: 'client', exp: Date.now() / 1000 + 600 }));
  renderPage(<TariffStatus />, { user: makeUser(overrides), locale, path: locale === 'en' ? '/en/admin' : '/admin' });
}

describe('header tariff and warning', () => {
  it('shows Demo, the days left in normal colour above 11 days, and links to /admin/plan', async () => {
    show({ planId: null, expDate: day(20) }, 'en');
    const link = await screen.findByRole('link');
    expect(link.getAttribute('data-warning')).toBe('none');
    expect(link.getAttribute('href')).toBe('/en/admin/plan');
    expect(screen.getByText('Demo')).toBeTruthy();
    expect(screen.getByText('20 days left').className).not.toContain('danger');
  });

  it('turns danger at 11 days or fewer, with Ukrainian declension', async () => {
    show({ planId: null, expDate: day(11) });
    expect((await screen.findByText('залишилось 11 днів')).className).toContain('lr-days-danger');
  });

  it('shows the expired message at 0 days', async () => {
    show({ planId: 'p1', subscription: { title: 'Pro', planId: 'p1' }, expDate: day(0) }, 'en');
    expect(await screen.findByText('Your plan has expired')).toBeTruthy();
    expect(screen.getByText('Pro')).toBeTruthy();
    expect(screen.getByRole('link').getAttribute('data-warning')).toBe('expired');
  });

  it('names the paid plan in the page language, whatever language the account paid in', async () => {
    const titles = { uk: 'Бізнес', en: 'Business' };
    show({ planId: 'p1', subscription: { title: 'Бізнес', planId: 'p1', titles }, expDate: day(30) }, 'en');
    expect(await screen.findByText('Business')).toBeTruthy();
    expect(screen.queryByText('Бізнес')).toBeNull();
  });

  it.each(['owner', 'admin', 'support'] as const)(
    'shows the platform’s own account (%s) no tariff, no days and no "Change plan"',
    async (role) => {
      setToken(fakeJwt({ sub: 'u1', login: 'a@b.co', role, exp: Date.now() / 1000 + 600 }));
      renderPage(
        <>
          <TariffStatus />
          <span>rendered</span>
        </>,
        { user: makeUser({ role, expDate: null, planId: null }), locale: 'en', path: '/en/admin' },
      );
      await screen.findByText('rendered');
      expect(screen.queryByText('Demo')).toBeNull();
      expect(screen.queryByText('Change plan')).toBeNull();
      expect(screen.queryByRole('link')).toBeNull();
    },
  );
});
