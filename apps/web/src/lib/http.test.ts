import { STORAGE } from '@leadrelay/shared';
import Cookies from 'js-cookie';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { fakeJwt, jsonResponse } from '../test/render';
import { getToken, markSignedOut, resetAuthForTests, setToken } from './auth';
import { HttpError, http, setHttpNavigator } from './http';

const freshToken = () => fakeJwt({ sub: 'u1', login: 'a@b.co', role: 'client', exp: Date.now() / 1000 + 600 });

let fetchMock: ReturnType<typeof vi.fn>;
let navigated: string[];

beforeEach(() => {
  resetAuthForTests();
  fetchMock = vi.fn(async () => jsonResponse(200, { ok: true }));
  vi.stubGlobal('fetch', fetchMock);
  navigated = [];
  setHttpNavigator((url) => navigated.push(url));
  window.history.replaceState(null, '', '/admin');
});
afterEach(() => vi.unstubAllGlobals());

const sentHeaders = (call = 0) =>
  (fetchMock.mock.calls[call]?.[1] as RequestInit | undefined)?.headers as Record<string, string>;

describe('http client headers', () => {
  it('sends credentials on every request, even signed out', async () => {
    await http('/api/auth/forgot-password', { method: 'POST', body: { login: 'a@b.co' } });
    const init = fetchMock.mock.calls[0]?.[1] as RequestInit;
    expect(init.credentials).toBe('include');
    expect(sentHeaders().Authorization).toBeUndefined();
    expect(sentHeaders()['Content-Type']).toBe('application/json');
  });

  it('adds a bearer token when signed in and keeps an Authorization header already given', async () => {
    const token = freshToken();
    setToken(token);
    await http('/api/account');
    expect(sentHeaders(0).Authorization).toBe(`Bearer ${token}`);
    await http('/api/account', { headers: { Authorization: 'Bearer other' } });
    expect(sentHeaders(1).Authorization).toBe('Bearer other');
  });

  it('sends the Lang header only when the lang cookie exists', async () => {
    await http('/api/account');
    expect(sentHeaders(0).Lang).toBeUndefined();
    Cookies.set('lang', 'en');
    await http('/api/account');
    expect(sentHeaders(1).Lang).toBe('en');
  });
});

describe('401 handling', () => {
  it('clears the token, goes to /signin?message=session and still throws', async () => {
    setToken(freshToken());
    fetchMock.mockResolvedValueOnce(jsonResponse(401, { statusCode: 401, code: 'UNAUTHORIZED', message: 'no' }));
    await expect(http('/api/account')).rejects.toMatchObject({ status: 401, code: 'UNAUTHORIZED' });
    expect(getToken()).toBeNull();
    expect(localStorage.getItem(STORAGE.sessionToken)).toBeNull();
    expect(navigated).toEqual(['/signin?message=session']);
  });

  it('keeps the English prefix', async () => {
    window.history.replaceState(null, '', '/en/admin/account');
    fetchMock.mockResolvedValueOnce(jsonResponse(401, { code: 'UNAUTHORIZED' }));
    await expect(http('/api/account')).rejects.toBeInstanceOf(HttpError);
    expect(navigated).toEqual(['/en/signin?message=session']);
  });

  it.each(['/signin', '/signup', '/recovery', '/en/signin'])('does not redirect when already on %s', async (page) => {
    window.history.replaceState(null, '', page);
    fetchMock.mockResolvedValueOnce(jsonResponse(401, { code: 'INVALID_CREDENTIALS' }));
    await expect(http('/api/auth/login', { method: 'POST', body: {} })).rejects.toMatchObject({
      code: 'INVALID_CREDENTIALS',
    });
    expect(navigated).toEqual([]);
  });

  it.each(['/api/auth/refresh', '/api/auth/logout'])('ignores a 401 from %s', async (path) => {
    const token = freshToken();
    setToken(token);
    fetchMock.mockResolvedValueOnce(jsonResponse(401, { code: 'REFRESH_INVALID' }));
    await expect(http(path, { method: 'POST', body: {} })).rejects.toMatchObject({ status: 401 });
    expect(navigated).toEqual([]);
    expect(getToken()).toBe(token);
  });

  it('leaves a session ended on purpose alone: no "session ended" for its late 401s', async () => {
    setToken(freshToken());
    markSignedOut();
    fetchMock.mockResolvedValueOnce(jsonResponse(401, { code: 'UNAUTHORIZED' }));
    await expect(http('/api/account')).rejects.toMatchObject({ status: 401 });
    expect(navigated).toEqual([]);
  });

  it('does not end the current session for the 401 of a call made with an earlier token', async () => {
    const earlier = freshToken();
    setToken(earlier);
    let answer: (r: Response) => void = () => {};
    fetchMock.mockImplementationOnce(() => new Promise<Response>((resolve) => (answer = resolve)));
    const call = http('/api/account');
    await vi.waitFor(() => expect(fetchMock).toHaveBeenCalled());
    const current = fakeJwt({ sub: 'u2', login: 'c@d.co', role: 'client', exp: Date.now() / 1000 + 600 });
    setToken(current);
    answer(jsonResponse(401, { code: 'UNAUTHORIZED' }));
    await expect(call).rejects.toMatchObject({ status: 401 });
    expect(navigated).toEqual([]);
    expect(getToken()).toBe(current);
  });

  it('passes other errors through with code, field errors and Retry-After', async () => {
    fetchMock.mockResolvedValueOnce(
      jsonResponse(429, { statusCode: 429, code: 'TOO_MANY_REQUESTS', message: 'slow down' }, { 'Retry-After': '30' }),
    );
    const err = await http('/api/auth/login', { method: 'POST', body: {} }).catch((e) => e);
    expect(err).toBeInstanceOf(HttpError);
    expect(err).toMatchObject({ status: 429, code: 'TOO_MANY_REQUESTS', retryAfter: 30, message: 'slow down' });
    expect(navigated).toEqual([]);
  });
});
