import type { User } from '@leadrelay/shared';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { act, render, screen } from '@testing-library/react';
import { createMemoryRouter, RouterProvider, useLocation } from 'react-router';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { clearToken, markSignedOut, resetAuthForTests, setToken } from '../lib/auth';
import type { RouteHandle } from '../lib/route-handle';
import { fakeJwt, jsonResponse, makeUser } from '../test/render';
import { GuestOnly, RequireAuth, RouteGate } from './guards';
import { resetSessionForTests } from './session';

function Where() {
  const { pathname, search } = useLocation();
  return <div data-testid="where">{pathname + search}</div>;
}

const token = (role = 'client') => fakeJwt({ sub: 'u1', login: 'a@b.co', role, exp: Date.now() / 1000 + 600 });
const day = (n: number) => new Date(Date.now() + n * 86_400_000).toISOString().slice(0, 10);

function mount(path: string, user?: User) {
  window.history.replaceState(null, '', path);
  const client = new QueryClient({ defaultOptions: { queries: { retry: false } } });
  if (user) client.setQueryData(['me'], user);
  const page = (handle: RouteHandle, path: string) => ({
    path,
    handle,
    element: (
      <RouteGate>
        <div>page {path}</div>
      </RouteGate>
    ),
  });
  const router = createMemoryRouter(
    [
      { element: <GuestOnly />, children: [{ path: '/signin', element: <Where /> }] },
      {
        element: <RequireAuth />,
        children: [
          { path: '/admin', element: <Where /> },
          page({ title: 'collections', active: true }, '/admin/collections'),
          page({ title: 'parsers', active: true, role: 'privileged' }, '/admin/parsers'),
          page({ title: 'superTariffs', role: 'owner' }, '/admin/super/tariffs'),
          page({ title: 'integration', active: true }, '/admin/integrations/pipedrive/connect'),
        ],
      },
    ],
    { initialEntries: [path] },
  );
  render(
    <QueryClientProvider client={client}>
      <RouterProvider router={router} />
    </QueryClientProvider>,
  );
  return router;
}

let fetchMock: ReturnType<typeof vi.fn>;
beforeEach(() => {
  resetAuthForTests();
  resetSessionForTests();
  fetchMock = vi.fn(async () => jsonResponse(401, { code: 'REFRESH_INVALID' }));
  vi.stubGlobal('fetch', fetchMock);
});
afterEach(() => vi.unstubAllGlobals());

describe('protected routes', () => {
  it('signed out: one silent refresh, then /signin', async () => {
    mount('/admin');
    expect((await screen.findByTestId('where')).textContent).toBe('/signin');
    expect(fetchMock).toHaveBeenCalledTimes(1);
    expect(fetchMock.mock.calls[0]?.[0]).toBe('/api/auth/refresh');
  });

  it('a session that ends inside the account area shows the session notice', async () => {
    setToken(token());
    mount('/admin');
    expect((await screen.findByTestId('where')).textContent).toBe('/admin');
    act(() => clearToken());
    expect((await screen.findByTestId('where')).textContent).toBe('/signin?message=session');
  });

  it('a deliberate sign-out goes to /signin without the notice and without a refresh', async () => {
    setToken(token());
    mount('/admin');
    await screen.findByTestId('where');
    act(() => {
      markSignedOut();
      clearToken();
    });
    expect((await screen.findByTestId('where')).textContent).toBe('/signin');
    expect(fetchMock).not.toHaveBeenCalled();
  });

  it('removing the account leaves with its own notice', async () => {
    setToken(token());
    mount('/admin');
    await screen.findByTestId('where');
    act(() => {
      markSignedOut('/signin?message=account-removed');
      clearToken();
    });
    expect((await screen.findByTestId('where')).textContent).toBe('/signin?message=account-removed');
  });

  it('a successful refresh stores the token and shows the page', async () => {
    const fresh = token();
    fetchMock.mockResolvedValueOnce(jsonResponse(200, { accessToken: fresh }));
    mount('/admin');
    expect((await screen.findByTestId('where')).textContent).toBe('/admin');
    expect(localStorage.getItem('sessionToken')).toBe(fresh);
  });

  it('saves the Pipedrive OAuth return for after sign-in', async () => {
    mount('/admin/integrations/pipedrive/connect?code=abc');
    await screen.findByTestId('where');
    expect(localStorage.getItem('afterSignInRedirect')).toBe('/admin/integrations/pipedrive/connect?code=abc');
  });

  it('signed in: /signin goes to /admin, or to the saved afterSignInRedirect', async () => {
    setToken(token());
    localStorage.setItem('afterSignInRedirect', '/admin/integrations/pipedrive/connect?code=abc');
    mount('/signin', makeUser({ expDate: day(5) }));
    expect(await screen.findByText('page /admin/integrations/pipedrive/connect')).toBeTruthy();
    expect(localStorage.getItem('afterSignInRedirect')).toBeNull();
  });

  it('an inactive account is sent to /admin?error=ACCOUNT_NOT_ACTIVE', async () => {
    setToken(token());
    mount('/admin/collections', makeUser({ expDate: day(-1) }));
    expect((await screen.findByTestId('where')).textContent).toBe('/admin?error=ACCOUNT_NOT_ACTIVE');
  });

  it('an active account reaches the page', async () => {
    setToken(token());
    mount('/admin/collections', makeUser({ expDate: day(3) }));
    expect(await screen.findByText('page /admin/collections')).toBeTruthy();
  });

  it('privileged pages: a client goes to /admin, told the page is for the platform staff', async () => {
    setToken(token());
    mount('/admin/parsers', makeUser({ expDate: day(3) }));
    expect((await screen.findByTestId('where')).textContent).toBe('/admin?error=ONLY_STAFF');
  });

  it('privileged pages: an admin passes', async () => {
    setToken(token('admin'));
    mount('/admin/parsers', makeUser({ role: 'admin' }));
    expect(await screen.findByText('page /admin/parsers')).toBeTruthy();
  });

  it('owner-only pages: an admin goes to /admin, told the page is for the owner only', async () => {
    setToken(token('admin'));
    mount('/admin/super/tariffs', makeUser({ role: 'admin' }));
    expect((await screen.findByTestId('where')).textContent).toBe('/admin?error=ONLY_OWNER');
  });

  it('owner passes the owner-only guard', async () => {
    setToken(token('owner'));
    mount('/admin/super/tariffs', makeUser({ role: 'owner' }));
    expect(await screen.findByText('page /admin/super/tariffs')).toBeTruthy();
  });
});
