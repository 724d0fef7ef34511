import { fireEvent, screen } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { resetAuthForTests } from '../../../lib/auth';
import { jsonResponse, renderPage } from '../../../test/render';
import { SigninPage } from './signin-page';

let fetchMock: ReturnType<typeof vi.fn>;
beforeEach(() => {
  resetAuthForTests();
  fetchMock = vi.fn();
  // Sign-in with Facebook is not set up here (facebook-button.test.tsx covers it).
  vi.stubGlobal('fetch', (url: string, init?: RequestInit) =>
    url === '/api/auth/facebook/config'
      ? Promise.resolve(jsonResponse(200, { appId: null, version: 'v20.0', dialogUrl: null, sdk: false }))
      : (fetchMock as (u: string, i?: RequestInit) => Promise<Response>)(url, init),
  );
});
afterEach(() => vi.unstubAllGlobals());

async function submit(login = 'anna@example.com', password = 'Secret123') {
  fireEvent.change(await screen.findByLabelText(/e-mail|пошта/i), { target: { value: login } });
  fireEvent.change(screen.getByLabelText(/^(password|пароль)$/i), { target: { value: password } });
  fireEvent.click(screen.getByRole('button', { name: /^(sign in|увійти)$/i }));
}

describe('signin form', () => {
  it('shows the translated server error in English', async () => {
    fetchMock.mockResolvedValue(jsonResponse(401, { statusCode: 401, code: 'INVALID_CREDENTIALS', message: 'x' }));
    renderPage(<SigninPage />, { locale: 'en', path: '/en/signin' });
    await submit();
    expect(await screen.findByText('Wrong e-mail or password')).toBeTruthy();
    const [url, init] = fetchMock.mock.calls[0] as [string, RequestInit];
    expect(url).toBe('/api/auth/login');
    expect(JSON.parse(init.body as string)).toEqual({ login: 'anna@example.com', password: 'Secret123' });
  });

  it('shows the translated server error in Ukrainian and offers resend for an unconfirmed e-mail', async () => {
    fetchMock.mockResolvedValue(jsonResponse(403, { statusCode: 403, code: 'EMAIL_NOT_CONFIRMED', message: 'x' }));
    renderPage(<SigninPage />, { locale: 'uk', path: '/signin' });
    await submit();
    expect(await screen.findByText('Електронну адресу ще не підтверджено')).toBeTruthy();
    fetchMock.mockResolvedValue(jsonResponse(200, { success: true }));
    fireEvent.click(screen.getByRole('button', { name: 'Надіслати лист ще раз' }));
    await vi.waitFor(() => expect(fetchMock.mock.calls[1]?.[0]).toBe('/api/auth/resend-confirmation'));
    // Said on the page, and the button goes: one more press would send one more mail.
    expect(await screen.findByText('Лист надіслано ще раз')).toBeTruthy();
    expect(screen.queryByRole('button', { name: 'Надіслати лист ще раз' })).toBeNull();
  });

  it('says the server failed for an unknown code, never the server’s own message', async () => {
    fetchMock.mockResolvedValue(jsonResponse(500, { statusCode: 500, code: 'SOMETHING_NEW', message: 'Disk full' }));
    renderPage(<SigninPage />, { locale: 'en', path: '/en/signin' });
    await submit();
    expect(await screen.findByText('Server error. Try again later')).toBeTruthy();
    expect(screen.queryByText('Disk full')).toBeNull();
  });

  it('validates with the shared schema before calling the server', async () => {
    renderPage(<SigninPage />, { locale: 'en', path: '/en/signin' });
    await submit('not-an-email', '');
    expect(await screen.findByText('Enter a valid e-mail address')).toBeTruthy();
    expect(await screen.findByText('This field is required')).toBeTruthy();
    expect(fetchMock).not.toHaveBeenCalled();
  });

  it('puts the server’s field errors on their fields, tied to the input', async () => {
    fetchMock.mockResolvedValue(
      jsonResponse(400, {
        statusCode: 400,
        code: 'VALIDATION_ERROR',
        message: 'x',
        errors: [{ field: 'login', code: 'EMAIL' }],
      }),
    );
    renderPage(<SigninPage />, { locale: 'en', path: '/en/signin' });
    await submit();
    const login = await screen.findByLabelText('E-mail');
    await vi.waitFor(() => expect(login.getAttribute('aria-invalid')).toBe('true'));
    const described = document.getElementById(login.getAttribute('aria-describedby') ?? '');
    expect(described?.textContent).toBe('Enter a valid e-mail address');
  });

  it('shows the session notice for ?message=session', async () => {
    renderPage(<SigninPage />, { locale: 'en', path: '/en/signin?message=session' });
    expect(await screen.findByText('Your session has ended. Please sign in again')).toBeTruthy();
  });

  it('shows no notice for a message it does not know, even one named like a built-in member', async () => {
    for (const message of ['constructor', 'toString', '__proto__', 'nope']) {
      const { container, unmount } = renderPage(<SigninPage />, {
        locale: 'en',
        path: `/en/signin?message=${message}`,
      });
      await screen.findByLabelText(/e-mail/i);
      expect(container.querySelector('.lr-alert'), message).toBeNull();
      unmount();
    }
  });
});
