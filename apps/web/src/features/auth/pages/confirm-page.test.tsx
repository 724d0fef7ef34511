import { fireEvent, screen } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { getToken, resetAuthForTests } from '../../../lib/auth';
import { fakeJwt, jsonResponse, renderPage } from '../../../test/render';
import { ConfirmPage } from './confirm-page';
import { SigninPage } from './signin-page';

let fetchMock: ReturnType<typeof vi.fn>;
beforeEach(() => {
  resetAuthForTests();
  fetchMock = vi.fn();
  vi.stubGlobal('fetch', fetchMock);
});
afterEach(() => vi.unstubAllGlobals());

describe('/confirm', () => {
  it('in the browser that signed up: signs in with the token that comes back', async () => {
    const token = fakeJwt({ sub: 'u1', login: 'anna@example.com', exp: 4102444800 });
    fetchMock.mockResolvedValue(jsonResponse(200, { accessToken: token }));
    renderPage(<ConfirmPage />, { locale: 'uk', path: '/confirm?token=abc' });
    await vi.waitFor(() => expect(getToken()).toBe(token));
    const [url, init] = fetchMock.mock.calls[0] as [string, RequestInit];
    expect(url).toBe('/api/auth/confirm-email');
    expect(JSON.parse(init.body as string)).toEqual({ token: 'abc' });
  });

  it('opened elsewhere (no token back): says the address is confirmed and offers sign-in, in Ukrainian', async () => {
    fetchMock.mockResolvedValue(jsonResponse(200, { confirmed: true, login: 'anna@example.com' }));
    const { router } = renderPage(<ConfirmPage />, { locale: 'uk', path: '/confirm?token=abc' });
    expect(await screen.findByText('Адресу підтверджено: увійдіть')).toBeTruthy();
    expect(getToken()).toBeNull();
    fireEvent.click(screen.getByRole('button', { name: 'Увійти' }));
    await vi.waitFor(() => expect(router.state.location.pathname).toBe('/signin'));
    expect(router.state.location.search).toBe('?login=anna%40example.com');
  });

  it('in English, the sign-in button goes to /en/signin', async () => {
    fetchMock.mockResolvedValue(jsonResponse(200, { confirmed: true, login: 'anna@example.com' }));
    const { router } = renderPage(<ConfirmPage />, { locale: 'en', path: '/en/confirm?token=abc' });
    expect(await screen.findByText('E-mail confirmed: sign in')).toBeTruthy();
    fireEvent.click(screen.getByRole('button', { name: 'Sign in' }));
    await vi.waitFor(() => expect(router.state.location.pathname).toBe('/en/signin'));
    expect(getToken()).toBeNull();
  });
});

describe('/signin?login=', () => {
  it('fills the e-mail in from the confirmation page', async () => {
    fetchMock.mockResolvedValue(jsonResponse(200, { appId: null, version: 'v20.0', dialogUrl: null, sdk: false }));
    renderPage(<SigninPage />, { locale: 'en', path: '/en/signin?login=anna%40example.com' });
    expect(((await screen.findByLabelText(/e-mail/i)) as HTMLInputElement).value).toBe('anna@example.com');
  });
});
