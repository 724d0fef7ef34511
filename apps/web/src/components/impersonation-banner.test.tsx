import { configure, fireEvent, screen } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { decodeToken, getToken, resetAuthForTests, setToken } from '../lib/auth';
import { fakeJwt, jsonResponse, renderPage, stubLocation } from '../test/render';
import { ImpersonationBanner } from './impersonation-banner';

const exp = () => Math.floor(Date.now() / 1000) + 1800;
const entered = () =>
  fakeJwt({ sub: 'c1', login: 'client@example.com', role: 'client', sid: 's1', exp: exp(), imp: 'op@example.com' });
const own = () => fakeJwt({ sub: 'o1', login: 'op@example.com', role: 'owner', sid: 's0', exp: exp() });

let calls: string[];
const assign = vi.fn();
beforeEach(() => {
  resetAuthForTests();
  localStorage.clear();
  calls = [];
  assign.mockReset();
  stubLocation({ pathname: '/admin', assign });
  vi.stubGlobal(
    'fetch',
    vi.fn(async (url: string, init: RequestInit = {}) => {
      calls.push(`${init.method ?? 'GET'} ${url}`);
      if (url === '/api/super/users/return') return jsonResponse(200, { success: true });
      if (url === '/api/auth/refresh') return jsonResponse(200, { accessToken: own() });
      return jsonResponse(404, { statusCode: 404, code: 'NOT_FOUND', message: 'no' });
    }),
  );
});
afterEach(() => vi.unstubAllGlobals());
configure({ asyncUtilTimeout: 5000 });

describe('entered-account banner', () => {
  it('is absent in one’s own session', () => {
    setToken(own());
    renderPage(<ImpersonationBanner />, { locale: 'uk' });
    expect(screen.queryByTestId('impersonation-banner')).toBeNull();
  });

  it('says whose account this is and returns to one’s own session without a new sign-in', async () => {
    setToken(entered());
    renderPage(<ImpersonationBanner />, { locale: 'uk' });
    expect((await screen.findByTestId('impersonation-banner')).textContent).toContain(
      'Ви в акаунті client@example.com (увійшов op@example.com).',
    );
    fireEvent.click(screen.getByRole('button', { name: 'Повернутися до свого акаунта' }));
    await vi.waitFor(() => expect(assign).toHaveBeenCalledWith('/admin/super/clients'));
    expect(calls).toEqual(['POST /api/super/users/return', 'GET /api/auth/refresh']);
    expect(decodeToken(getToken() ?? '')?.login).toBe('op@example.com');
  });
});

describe('signing out of an entered account', () => {
  it('returns to one’s own session instead of ending it', async () => {
    const { signOut } = await import('../lib/current-user');
    setToken(entered());
    void signOut();
    await vi.waitFor(() => expect(assign).toHaveBeenCalledWith('/admin/super/clients'));
    expect(calls).toEqual(['POST /api/super/users/return', 'GET /api/auth/refresh']);
    expect(calls).not.toContain('POST /api/auth/logout');
  });
});
