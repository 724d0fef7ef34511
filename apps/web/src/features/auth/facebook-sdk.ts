// The Facebook JS SDK (spec 9: v20.0, the app id the server names for this host, a "ready" event
// 500 ms after init), loaded only when sign-in with Facebook is set up. Where the SDK cannot load
// (blocked by the browser or an extension, no network) sign-in goes through the login dialog by
// redirect and the code comes back to /signin.
import { type Locale, SOCIAL_SDK_READY_DELAY_MS, SOCIAL_SDK_VERSION } from '@leadrelay/shared';
import { localePath } from '../../lib/locale';

export interface FacebookLoginResponse {
  status: 'connected' | 'not_authorized' | 'unknown';
  authResponse?: { accessToken: string } | null;
}

export interface FacebookSdk {
  init(options: { appId: string; version: string; cookie: boolean; xfbml: boolean }): void;
  login(callback: (response: FacebookLoginResponse) => void, options: { scope: string }): void;
}

declare global {
  interface Window {
    FB?: FacebookSdk;
    fbAsyncInit?: () => void;
  }
}

/** Fired on window when the SDK is initialised and settled (spec 9). */
export const FACEBOOK_READY_EVENT = 'leadrelay:facebook-ready';
const SCRIPT_ID = 'facebook-jssdk';
/** How long the script may take before the page falls back to the redirect flow. */
const LOAD_TIMEOUT_MS = 10_000;
const STATE_KEY = 'facebook-signin-state';

let loading: { appId: string; promise: Promise<FacebookSdk | null> } | null = null;
let assign = (url: string) => window.location.assign(url);

export const sdkUrl = (locale: Locale) => `https://connect.facebook.net/${locale === 'en' ? 'en_US' : 'uk_UA'}/sdk.js`;

/** The SDK initialised for appId, or null when it could not be loaded. Loads the script once. */
export function loadFacebookSdk(appId: string, locale: Locale): Promise<FacebookSdk | null> {
  if (loading?.appId === appId) return loading.promise;
  const promise = new Promise<FacebookSdk | null>((resolve) => {
    let timer: ReturnType<typeof setTimeout> | undefined;
    const init = () => {
      const fb = window.FB;
      if (!fb) return resolve(null);
      clearTimeout(timer);
      fb.init({ appId, version: SOCIAL_SDK_VERSION, cookie: false, xfbml: false });
      setTimeout(() => {
        window.dispatchEvent(new Event(FACEBOOK_READY_EVENT));
        resolve(fb);
      }, SOCIAL_SDK_READY_DELAY_MS);
    };
    if (window.FB) return init();
    window.fbAsyncInit = init;
    const fail = () => {
      clearTimeout(timer);
      loading = null; // a later visit may try again
      resolve(null);
    };
    timer = setTimeout(fail, LOAD_TIMEOUT_MS);
    if (document.getElementById(SCRIPT_ID)) return;
    const script = document.createElement('script');
    script.id = SCRIPT_ID;
    script.src = sdkUrl(locale);
    script.async = true;
    script.defer = true;
    script.crossOrigin = 'anonymous';
    script.addEventListener('error', () => {
      script.remove();
      fail();
    });
    document.body.appendChild(script);
  });
  loading = { appId, promise };
  return promise;
}

/** Where the login dialog sends the browser back to. It must be listed among the app's valid OAuth redirect URIs. */
export const facebookRedirectUri = () => `${window.location.origin}${localePath('/signin')}`;

/** The redirect flow: to the login dialog with a one-time state kept in this tab. */
export function startFacebookRedirect(dialogUrl: string): void {
  const state = crypto.randomUUID();
  sessionStorage.setItem(STATE_KEY, state);
  const url = new URL(dialogUrl);
  url.searchParams.set('redirect_uri', facebookRedirectUri());
  url.searchParams.set('state', state);
  assign(url.toString());
}

/** True once for the state this tab sent to the dialog. */
export function takeFacebookState(state: string | null): boolean {
  const saved = sessionStorage.getItem(STATE_KEY);
  sessionStorage.removeItem(STATE_KEY);
  return Boolean(saved && state && saved === state);
}

export function resetFacebookSdkForTests(navigate?: (url: string) => void): void {
  loading = null;
  delete window.FB;
  delete window.fbAsyncInit;
  document.getElementById(SCRIPT_ID)?.remove();
  assign = navigate ?? ((url: string) => window.location.assign(url));
}
