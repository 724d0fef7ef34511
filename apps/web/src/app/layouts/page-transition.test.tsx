import { act, fireEvent, render, screen } from '@testing-library/react';
import { createMemoryRouter, Link, Outlet, RouterProvider, useLocation } from 'react-router';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { prefersReducedMotion } from '../../test/media';
import { PAGE_FADE_MS, PageTransition } from './page-transition';

function Page({ name }: { name: string }) {
  const { pathname } = useLocation();
  return (
    <main>
      <h1>{name}</h1>
      <p>drawn for {pathname}</p>
      <Link to="/leads">Leads</Link>
      <Link to="/settings?tab=mapping">Mapping tab</Link>
      <Link to="/super/b">Nested b</Link>
    </main>
  );
}

function mount() {
  const router = createMemoryRouter(
    [
      {
        path: '/',
        element: <PageTransition />,
        children: [
          { path: 'settings', element: <Page name="Settings" /> },
          { path: 'leads', element: <Page name="Leads" /> },
          {
            path: 'super',
            element: (
              <section>
                <h1>Super</h1>
                <Outlet />
              </section>
            ),
            children: [
              { path: 'a', element: <p>tab a</p> },
              { path: 'b', element: <p>tab b</p> },
            ],
          },
        ],
      },
    ],
    { initialEntries: ['/settings'] },
  );
  render(<RouterProvider router={router} />);
  return router;
}

const heading = (name: string) => screen.queryByRole('heading', { name });

afterEach(() => {
  vi.useRealTimers();
  vi.restoreAllMocks();
});

describe('the out-in page transition', () => {
  it('fades the old page out before the new one shows', async () => {
    prefersReducedMotion(false);
    vi.useFakeTimers();
    mount();
    expect(heading('Settings')).not.toBeNull();

    await act(async () => fireEvent.click(screen.getByRole('link', { name: 'Leads' })));
    // The old page is still there, leaving, drawn for its own address and out of reach.
    expect(heading('Leads')).toBeNull();
    expect(heading('Settings')).not.toBeNull();
    expect(screen.getByText('drawn for /settings')).toBeTruthy();
    const leaving = heading('Settings')?.closest('.lr-page-fade');
    expect(leaving?.classList.contains('is-leaving')).toBe(true);
    expect(leaving?.hasAttribute('inert')).toBe(true);

    await act(async () => vi.advanceTimersByTime(PAGE_FADE_MS - 1));
    expect(heading('Leads')).toBeNull();

    await act(async () => vi.advanceTimersByTime(1));
    expect(heading('Settings')).toBeNull();
    expect(heading('Leads')).not.toBeNull();
    expect(heading('Leads')?.closest('.lr-page-fade')?.classList.contains('is-entering')).toBe(true);
  });

  it('shows the new page at once for whoever asks for less motion', async () => {
    prefersReducedMotion(true);
    mount();
    await act(async () => fireEvent.click(screen.getByRole('link', { name: 'Leads' })));
    expect(heading('Settings')).toBeNull();
    expect(heading('Leads')).not.toBeNull();
    expect(screen.getByText('drawn for /leads')).toBeTruthy();
    expect(heading('Leads')?.closest('.lr-page-fade')?.classList.contains('is-entering')).toBe(false);
  });

  it('keeps the page for a change of its query (a tab) or of a nested route', async () => {
    prefersReducedMotion(false);
    vi.useFakeTimers();
    const router = mount();
    await act(async () => fireEvent.click(screen.getByRole('link', { name: 'Mapping tab' })));
    expect(heading('Settings')?.closest('.lr-page-fade')?.classList.contains('is-leaving')).toBe(false);

    await act(async () => router.navigate('/super/a'));
    await act(async () => vi.advanceTimersByTime(PAGE_FADE_MS));
    expect(screen.getByText('tab a')).toBeTruthy();
    await act(async () => router.navigate('/super/b'));
    // The same page: the new tab shows at once, nothing fades.
    expect(screen.getByText('tab b')).toBeTruthy();
    expect(document.querySelector('.is-leaving')).toBeNull();
  });
});
