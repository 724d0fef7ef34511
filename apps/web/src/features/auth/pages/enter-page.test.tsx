import { screen } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { getToken, resetAuthForTests } from '../../../lib/auth';
import { jsonResponse, renderPage } from '../../../test/render';
import { EnterPage } from './enter-page';

// A session token of the kind old /enter links carried (any signed-in user's access token).
const OLD_TOKEN =
  'eyJhbGciOiJIUzI1NiIsInR5cCI6IkpXVCJ9.eyJzdWIiOiJ1MSIsImxvZ2luIjoiYXR0YWNrZXJAZXhhbXBsZS5jb20iLCJleHAiOjQxMDI0NDQ4MDB9.x';

let fetchMock: ReturnType<typeof vi.fn>;
beforeEach(() => {
  resetAuthForTests();
  localStorage.clear();
  fetchMock = vi.fn();
  vi.stubGlobal('fetch', fetchMock);
});
afterEach(() => vi.unstubAllGlobals());

describe('/enter', () => {
  it('no longer signs in with a session token in the link, and says so', async () => {
    const { router } = renderPage(<EnterPage />, { locale: 'en', path: `/en/enter?sessionToken=${OLD_TOKEN}` });
    expect(await screen.findByText('This link no longer works')).toBeTruthy();
    expect(getToken()).toBeNull();
    expect(fetchMock).not.toHaveBeenCalled();
    expect(router.state.location.pathname).toBe('/en/enter');
  });

  it('exchanges the one-time code once and goes to the account', async () => {
    fetchMock.mockResolvedValue(jsonResponse(200, { accessToken: OLD_TOKEN }));
    const { router } = renderPage(<EnterPage />, { locale: 'uk', path: '/enter?code=abc.def' });
    // (This test router shows the page at every path, so only the first move counts.)
    const visited: string[] = [];
    router.subscribe((state) => visited.push(state.location.pathname));
    await vi.waitFor(() => expect(visited[0]).toBe('/admin'));
    expect(getToken()).toBe(OLD_TOKEN);
    expect(fetchMock).toHaveBeenCalledTimes(1);
    const [url, init] = fetchMock.mock.calls[0] as [string, RequestInit];
    expect(url).toBe('/api/auth/enter');
    expect(JSON.parse(init.body as string)).toEqual({ code: 'abc.def' });
  });

  it('shows in Ukrainian why a link opened in another browser does not sign in', async () => {
    fetchMock.mockResolvedValue(jsonResponse(403, { statusCode: 403, code: 'ENTER_OTHER_BROWSER', message: 'x' }));
    renderPage(<EnterPage />, { locale: 'uk', path: '/enter?code=abc.def' });
    expect(await screen.findByText('Це посилання діє лише в браузері працівника, який його отримав')).toBeTruthy();
    expect(screen.getByText('Це посилання не виконує вхід')).toBeTruthy();
    expect(getToken()).toBeNull();
  });
});
