import { fireEvent, screen, waitFor } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { getToken, resetAuthForTests } from '../../../lib/auth';
import { jsonResponse, renderPage } from '../../../test/render';
import { FACEBOOK_READY_EVENT, type FacebookLoginResponse, resetFacebookSdkForTests } from '../facebook-sdk';
import { SigninPage } from '../pages/signin-page';
import { SignupPage } from '../pages/signup-page';

const DIALOG =
  'https://www.facebook.com/v20.0/dialog/oauth?client_id=42&scope=email%2Cpublic_profile&response_type=code';
const CONFIG = { appId: '777', version: 'v20.0', dialogUrl: DIALOG, sdk: true };

let api: ReturnType<typeof vi.fn<(url: string, init?: RequestInit) => Promise<Response>>>;
let navigated: string[];
let config: unknown;

/** What window.FB.login answers next. */
let loginAnswer: FacebookLoginResponse;
const fb = {
  init: vi.fn(),
  login: vi.fn((cb: (r: FacebookLoginResponse) => void) => cb(loginAnswer)),
};

beforeEach(() => {
  resetAuthForTests();
  navigated = [];
  resetFacebookSdkForTests((url) => navigated.push(url));
  config = CONFIG;
  loginAnswer = { status: 'connected', authResponse: { accessToken: 'fb-user-token' } };
  fb.init.mockClear();
  fb.login.mockClear();
  api = vi.fn(async (_url: string, _init?: RequestInit) => jsonResponse(200, { accessToken: 'our-access-token' }));
  vi.stubGlobal('fetch', async (url: string, init?: RequestInit) =>
    url === '/api/auth/facebook/config' ? jsonResponse(200, config) : api(url, init),
  );
});
afterEach(() => {
  vi.unstubAllGlobals();
  resetFacebookSdkForTests();
});

const button = (name: RegExp = /facebook/i) => screen.findByRole('button', { name });
const bodyOf = (call: unknown[]) => JSON.parse((call[1] as RequestInit).body as string);

describe('Continue with Facebook', () => {
  it('inits the SDK with the server’s app id, waits for the ready event, then signs in with the FB token', async () => {
    window.FB = fb;
    const ready = vi.fn();
    window.addEventListener(FACEBOOK_READY_EVENT, ready);
    renderPage(<SigninPage />, { locale: 'en', path: '/en/signin' });
    const btn = await button(/continue with facebook/i);
    await waitFor(() => expect(fb.init).toHaveBeenCalled());
    expect(fb.init).toHaveBeenCalledWith({ appId: '777', version: 'v20.0', cookie: false, xfbml: false });
    // Not usable until the SDK has settled (500 ms after init).
    expect(btn.getAttribute('aria-busy')).toBe('true');
    expect(ready).not.toHaveBeenCalled();
    await waitFor(() => expect(ready).toHaveBeenCalledTimes(1));
    await waitFor(() => expect(btn.getAttribute('aria-busy')).toBeNull());
    window.removeEventListener(FACEBOOK_READY_EVENT, ready);

    fireEvent.click(btn);
    expect(fb.login).toHaveBeenCalledWith(expect.any(Function), { scope: 'email,public_profile' });
    await waitFor(() => expect(getToken()).toBe('our-access-token'));
    expect(api.mock.calls[0]?.[0]).toBe('/api/auth/facebook');
    expect(bodyOf(api.mock.calls[0]!)).toEqual({ accessToken: 'fb-user-token', lang: 'en' });
  });

  it('is on the sign-up page too, in Ukrainian', async () => {
    window.FB = fb;
    renderPage(<SignupPage />, { locale: 'uk', path: '/signup' });
    expect(await button(/продовжити з facebook/i)).toBeTruthy();
    expect(screen.getByText('або')).toBeTruthy();
  });

  it('is hidden and loads no SDK when the server has no app id', async () => {
    config = { appId: null, version: 'v20.0', dialogUrl: null, sdk: false };
    renderPage(<SigninPage />, { locale: 'en', path: '/en/signin' });
    expect(await screen.findByRole('button', { name: /^sign in$/i })).toBeTruthy();
    await new Promise((r) => setTimeout(r, 50));
    expect(screen.queryByRole('button', { name: /facebook/i })).toBeNull();
    expect(document.getElementById('facebook-jssdk')).toBeNull();
  });

  it('shows the server’s error, e.g. when Facebook gave no e-mail', async () => {
    window.FB = fb;
    api.mockResolvedValueOnce(jsonResponse(400, { statusCode: 400, code: 'FACEBOOK_EMAIL_REQUIRED', message: 'x' }));
    renderPage(<SigninPage />, { locale: 'en', path: '/en/signin' });
    const btn = await button();
    await waitFor(() => expect(btn.getAttribute('aria-busy')).toBeNull());
    fireEvent.click(btn);
    expect(await screen.findByText(/Facebook did not share an e-mail address/)).toBeTruthy();
    expect(getToken()).toBeNull();
  });

  it('says so when the user closes the Facebook window, and calls nothing', async () => {
    window.FB = fb;
    loginAnswer = { status: 'unknown', authResponse: null };
    renderPage(<SigninPage />, { locale: 'en', path: '/en/signin' });
    const btn = await button();
    await waitFor(() => expect(btn.getAttribute('aria-busy')).toBeNull());
    fireEvent.click(btn);
    expect(await screen.findByText('Facebook sign-in was cancelled')).toBeTruthy();
    expect(api).not.toHaveBeenCalled();
  });

  it('falls back to the login dialog by redirect when the SDK script cannot load', async () => {
    renderPage(<SigninPage />, { locale: 'en', path: '/en/signin' });
    const btn = await button();
    const script = await waitFor(() => {
      const s = document.getElementById('facebook-jssdk') as HTMLScriptElement | null;
      expect(s).not.toBeNull();
      return s!;
    });
    expect(script.src).toBe('https://connect.facebook.net/en_US/sdk.js');
    script.dispatchEvent(new Event('error'));
    await waitFor(() => expect(btn.getAttribute('aria-busy')).toBeNull());
    fireEvent.click(btn);
    expect(navigated).toHaveLength(1);
    const url = new URL(navigated[0]!);
    expect(url.origin + url.pathname).toBe('https://www.facebook.com/v20.0/dialog/oauth');
    expect(url.searchParams.get('client_id')).toBe('42');
    expect(url.searchParams.get('redirect_uri')).toBe(`${window.location.origin}/en/signin`);
    expect(url.searchParams.get('state')).toBe(sessionStorage.getItem('facebook-signin-state'));
  });

  it('against an emulated Facebook (demo install) skips the SDK and uses the dialog at once', async () => {
    config = { ...CONFIG, dialogUrl: 'http://127.0.0.1:9/v20.0/dialog/oauth?client_id=demo', sdk: false };
    renderPage(<SigninPage />, { locale: 'uk', path: '/signin' });
    const btn = await button();
    await waitFor(() => expect(btn.getAttribute('aria-busy')).toBeNull());
    expect(document.getElementById('facebook-jssdk')).toBeNull();
    fireEvent.click(btn);
    expect(new URL(navigated[0]!).searchParams.get('redirect_uri')).toBe(`${window.location.origin}/signin`);
  });

  it('loads the Ukrainian SDK on Ukrainian pages', async () => {
    renderPage(<SigninPage />, { locale: 'uk', path: '/signin' });
    await waitFor(() =>
      expect((document.getElementById('facebook-jssdk') as HTMLScriptElement).src).toBe(
        'https://connect.facebook.net/uk_UA/sdk.js',
      ),
    );
  });
});

describe('the return from the login dialog', () => {
  it('exchanges the code once, with the same redirect URI, and signs in', async () => {
    sessionStorage.setItem('facebook-signin-state', 's-1');
    const { router } = renderPage(<SigninPage />, { locale: 'uk', path: '/signin?code=the-code&state=s-1' });
    await waitFor(() => expect(getToken()).toBe('our-access-token'));
    expect(api).toHaveBeenCalledTimes(1);
    expect(bodyOf(api.mock.calls[0]!)).toEqual({
      code: 'the-code',
      redirectUri: `${window.location.origin}/signin`,
      lang: 'uk',
    });
    // The code leaves the address.
    expect(router.state.location.search).toBe('');
  });

  it('refuses a return whose state this tab did not send', async () => {
    sessionStorage.setItem('facebook-signin-state', 's-1');
    renderPage(<SigninPage />, { locale: 'en', path: '/en/signin?code=the-code&state=forged' });
    expect(await screen.findByText(/has expired or was started in another tab/)).toBeTruthy();
    expect(api).not.toHaveBeenCalled();
  });

  it('shows the cancellation when the user said no in the dialog', async () => {
    sessionStorage.setItem('facebook-signin-state', 's-1');
    renderPage(<SigninPage />, { locale: 'en', path: '/en/signin?error=access_denied&state=s-1' });
    expect(await screen.findByText('Facebook sign-in was cancelled')).toBeTruthy();
    expect(api).not.toHaveBeenCalled();
  });
});
