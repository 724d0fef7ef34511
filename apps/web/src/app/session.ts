// Spec section 4: a protected route without a usable token gets one silent refresh per page
// load; the profile is loaded when the token carries no role.
import { STORAGE } from '@leadrelay/shared';
import { clearToken, consumeSignedOut, decodeToken } from '../lib/auth';
import { fetchMe, ME_KEY } from '../lib/current-user';
import { refreshAccessToken } from '../lib/http';
import { stripLocale } from '../lib/locale';
import { queryClient } from '../lib/query-client';

let failedThisLoad = false;

export type RestoreResult = { kind: 'ok' } | { kind: 'expired' } | { kind: 'signed-out'; next: string };

export async function restoreSession(): Promise<RestoreResult> {
  const next = consumeSignedOut();
  if (next) return { kind: 'signed-out', next };
  if (failedThisLoad) return { kind: 'expired' };
  const token = await refreshAccessToken();
  if (!token) {
    failedThisLoad = true;
    clearToken();
    return { kind: 'expired' };
  }
  if (!decodeToken(token)?.role) {
    await queryClient.fetchQuery({ queryKey: ME_KEY, queryFn: fetchMe }).catch((err) => console.warn(err));
  }
  return { kind: 'ok' };
}

export function resetSessionForTests(): void {
  failedThisLoad = false;
}

/** A connector's OAuth return page (its manifest's: the provider comes back with a code). */
const OAUTH_RETURN = /^\/admin\/integrations\/[a-z0-9-]+\/connect$/;

/** A provider's OAuth return opened while signed out is resumed after sign-in. */
export function rememberAfterSignIn(pathname: string, search: string): void {
  const path = stripLocale(pathname);
  if (OAUTH_RETURN.test(path) && new URLSearchParams(search).has('code')) {
    localStorage.setItem(STORAGE.afterSignInRedirect, path + search);
  }
}

/** The saved path (without language prefix), removed once read; only same-site paths. */
export function takeAfterSignIn(): string | null {
  const saved = localStorage.getItem(STORAGE.afterSignInRedirect);
  localStorage.removeItem(STORAGE.afterSignInRedirect);
  return saved?.startsWith('/') && !saved.startsWith('//') ? saved : null;
}
