import { QueryClientProvider, useQuery } from '@tanstack/react-query';
import { render, screen, waitFor } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { fakeJwt, jsonResponse } from '../test/render';
import { clearToken, getToken, setToken } from './auth';
import { signOut } from './current-user';
import { api, setHttpNavigator } from './http';
import { queryClient } from './query-client';

// A fake API whose session ends at logout: from then on every call but logout answers 401, as the
// server does for a revoked session or a call without a token.
let revoked: boolean;
let calls: { path: string; auth: string | undefined }[];
let navigated: string[];

beforeEach(() => {
  // Not resetAuthForTests: it drops the query client's own listener on the token, part of what runs here.
  clearToken();
  queryClient.clear();
  revoked = false;
  calls = [];
  navigated = [];
  setHttpNavigator((url) => navigated.push(url));
  window.history.replaceState(null, '', '/admin');
  vi.stubGlobal(
    'fetch',
    vi.fn(async (url: string, init: RequestInit) => {
      const path = new URL(url, 'http://x').pathname;
      const auth = (init.headers as Record<string, string>).Authorization;
      calls.push({ path, auth });
      if (path === '/api/auth/logout') {
        revoked = true;
        return jsonResponse(200, { success: true });
      }
      if (revoked || !auth) return jsonResponse(401, { statusCode: 401, code: 'UNAUTHORIZED', message: 'no' });
      return jsonResponse(200, { n: calls.length });
    }),
  );
});
afterEach(() => {
  vi.unstubAllGlobals();
  queryClient.clear();
});

function Dashboard() {
  // A query of the account area that is not gated on the token, as most are.
  const { data } = useQuery({ queryKey: ['dashboard'], queryFn: () => api.get<{ n: number }>('/api/dashboard') });
  return <p>{data ? `loaded ${data.n}` : 'loading'}</p>;
}

describe('signOut', () => {
  it('ends the session without the "session ended" detour, whatever the queries on screen do', async () => {
    setToken(fakeJwt({ sub: 'u1', login: 'a@b.co', role: 'client', sid: 's1', exp: Date.now() / 1000 + 600 }));
    render(
      <QueryClientProvider client={queryClient}>
        <Dashboard />
      </QueryClientProvider>,
    );
    await screen.findByText(/^loaded/);

    await signOut();
    // Whatever the mounted query does next (a refetch without a token answers 401) settles first.
    await new Promise((r) => setTimeout(r, 50));
    await waitFor(() => expect(calls.some((c) => c.path === '/api/auth/logout')).toBe(true));

    expect(navigated).toEqual([]);
    expect(getToken()).toBeNull();
    // Nothing was refetched on the way out: the last call is the logout itself.
    expect(calls.at(-1)?.path).toBe('/api/auth/logout');
  });
});
