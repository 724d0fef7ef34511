// "Continue with Facebook" on /signin and /signup (spec 1, 9). Shown only when the server names an
// app id; enabled once the SDK is ready (500 ms after init), or at once for the redirect flow when
// the SDK cannot load. Either way the result is our own access token, stored like a normal sign-in;
// the guest guard then moves on to /admin or the saved afterSignInRedirect.
import { FACEBOOK_SIGNIN_SCOPES, type FacebookSigninBody } from '@leadrelay/shared';
import { useEffect, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useSearchParams } from 'react-router';
import { Button } from '../../../components/plain/button';
import { setToken } from '../../../lib/auth';
import { TranslatedError } from '../../../lib/errors';
import { currentLocale } from '../../../lib/locale';
import { authApi } from '../api';
import { facebookRedirectUri, loadFacebookSdk, startFacebookRedirect, takeFacebookState } from '../facebook-sdk';
import { useFacebookConfig } from '../queries';
import './facebook-button.css';

type SdkState = 'loading' | 'ready' | 'blocked';

async function exchange(body: FacebookSigninBody): Promise<void> {
  const { accessToken } = await authApi.facebookSignIn({ ...body, lang: currentLocale() });
  setToken(accessToken);
}

export function FacebookButton({ onError }: { onError: (err: unknown) => void }) {
  const { t } = useTranslation('auth');
  const config = useFacebookConfig();
  const appId = config.data?.appId ?? null;
  const useSdk = config.data?.sdk === true;
  const [sdk, setSdk] = useState<SdkState>('loading');
  const [busy, setBusy] = useState(false);

  useEffect(() => {
    if (!appId) return;
    if (!useSdk) return setSdk('blocked');
    let live = true;
    void loadFacebookSdk(appId, currentLocale()).then((fb) => {
      if (live) setSdk(fb ? 'ready' : 'blocked');
    });
    return () => {
      live = false;
    };
  }, [appId, useSdk]);

  if (!appId) return null;

  const signIn = async (body: FacebookSigninBody) => {
    setBusy(true);
    try {
      await exchange(body);
    } catch (err) {
      onError(err);
      setBusy(false);
    }
  };

  const onClick = () => {
    const fb = sdk === 'ready' ? window.FB : undefined;
    if (!fb) {
      if (config.data?.dialogUrl) startFacebookRedirect(config.data.dialogUrl);
      return;
    }
    // Called straight from the click, so the browser lets the login pop-up open.
    fb.login(
      (res) => {
        const accessToken = res.authResponse?.accessToken;
        if (accessToken) void signIn({ accessToken });
        else onError(new TranslatedError(t('facebook.cancelled')));
      },
      { scope: FACEBOOK_SIGNIN_SCOPES },
    );
  };

  return (
    <>
      <div className="lr-divider">{t('facebook.or')}</div>
      <Button
        block
        size="large"
        className="lr-fb-button"
        icon={<FacebookMark />}
        loading={sdk === 'loading' || busy}
        onClick={onClick}
        data-sdk={sdk}
      >
        {t('facebook.continue')}
      </Button>
    </>
  );
}

/** Facebook's "f" (simple-icons' path, CC0), drawn without an icon library. */
function FacebookMark() {
  return (
    <svg viewBox="0 0 24 24" width="20" height="20" fill="currentColor" aria-hidden="true" focusable="false">
      <path d="M9.101 23.691v-7.98H6.627v-3.667h2.474v-1.58c0-4.085 1.848-5.978 5.858-5.978.401 0 .955.042 1.468.103a8.68 8.68 0 0 1 1.141.195v3.325a8.623 8.623 0 0 0-.653-.036 26.805 26.805 0 0 0-.733-.009c-.707 0-1.259.096-1.675.309a1.686 1.686 0 0 0-.679.622c-.258.42-.374.995-.374 1.752v1.297h3.919l-.386 2.103-.287 1.564h-3.246v8.245C19.396 23.238 24 18.179 24 12.044c0-6.627-5.373-12-12-12s-12 5.373-12 12c0 5.628 3.874 10.35 9.101 11.647Z" />
    </svg>
  );
}

/**
 * The redirect flow's return to /signin (?code&state, or ?error when the user said no): the code is
 * exchanged once and removed from the address. True while it is being exchanged.
 */
export function useFacebookReturn(onError: (err: unknown) => void): boolean {
  const { t } = useTranslation('auth');
  const [params, setParams] = useSearchParams();
  const [busy, setBusy] = useState(false);
  const handled = useRef(false);
  const code = params.get('code');
  const state = params.get('state');
  const denied = params.get('error');

  useEffect(() => {
    if (handled.current || !state || (!code && !denied)) return;
    handled.current = true;
    setParams({}, { replace: true });
    if (!takeFacebookState(state)) return onError(new TranslatedError(t('facebook.expired')));
    if (!code) return onError(new TranslatedError(t('facebook.cancelled')));
    setBusy(true);
    exchange({ code, redirectUri: facebookRedirectUri() }).catch((err: unknown) => {
      onError(err);
      setBusy(false);
    });
  }, [code, state, denied, onError, setParams, t]);

  return busy;
}
