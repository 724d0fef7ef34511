import { isPrivileged, isUserActive, type Role } from '@leadrelay/shared';
import { type ReactNode, useEffect, useRef, useState } from 'react';
import { Navigate, Outlet, useLocation, useMatches, useNavigate } from 'react-router';
import { FullPageSpinner } from '../components/full-page-spinner';
import { isTokenFresh, tokenPayload, useToken } from '../lib/auth';
import { useMe } from '../lib/current-user';
import { localeFromPath, withLocale } from '../lib/locale';
import type { RouteHandle } from '../lib/route-handle';
import { type RestoreResult, rememberAfterSignIn, restoreSession, takeAfterSignIn } from './session';

function useLocale() {
  return localeFromPath(useLocation().pathname);
}

/** Signed-out visitors of the account area get one silent refresh, then /signin. */
export function RequireAuth() {
  const token = useToken();
  const location = useLocation();
  const locale = useLocale();
  const fresh = isTokenFresh(token);
  const [failed, setFailed] = useState<RestoreResult | null>(null);
  // A session that ends while the user is inside (a 401 cleared the token) shows the
  // "session ended" notice, whichever of this guard and the http client redirects first.
  const wasSignedIn = useRef(false);
  if (fresh) wasSignedIn.current = true;

  useEffect(() => {
    if (fresh) return;
    let live = true;
    void restoreSession().then((result) => {
      if (!live || result.kind === 'ok') return;
      rememberAfterSignIn(location.pathname, location.search);
      setFailed(result);
    });
    return () => {
      live = false;
    };
  }, [fresh, location.pathname, location.search]);

  if (fresh) return <Outlet />;
  if (failed) {
    // A deliberate sign-out is not an expired session; it says where to go.
    const target =
      failed.kind === 'signed-out' ? failed.next : wasSignedIn.current ? '/signin?message=session' : '/signin';
    return <Navigate to={withLocale(target, locale)} replace />;
  }
  return <FullPageSpinner />;
}

function AfterSignIn() {
  const navigate = useNavigate();
  const locale = useLocale();
  useEffect(() => {
    void navigate(withLocale(takeAfterSignIn() ?? '/admin', locale), { replace: true });
  }, [navigate, locale]);
  return <FullPageSpinner />;
}

/** Public auth pages: a signed-in user goes to /admin (or the saved afterSignInRedirect). */
export function GuestOnly() {
  const token = useToken();
  if (isTokenFresh(token)) return <AfterSignIn />;
  return <Outlet />;
}

/** Requirements of the matched routes: the strictest role and whether an active account is needed. */
export function useRouteRequirements(): { active: boolean; role?: RouteHandle['role'] } {
  const handles = useMatches()
    .map((m) => m.handle as RouteHandle | undefined)
    .filter((h): h is RouteHandle => Boolean(h));
  const active = handles.some((h) => h.active);
  const role = handles.some((h) => h.role === 'owner')
    ? 'owner'
    : handles.some((h) => h.role === 'privileged')
      ? 'privileged'
      : undefined;
  return { active, role };
}

export function passesRole(rule: RouteHandle['role'], role: Role | undefined): boolean {
  if (!rule) return true;
  if (rule === 'owner') return role === 'owner';
  return isPrivileged(role);
}

/** Why a role may not open a page: the code /admin says it with (errors.json). */
export function roleRefusal(rule: RouteHandle['role']): 'ONLY_OWNER' | 'ONLY_STAFF' {
  return rule === 'owner' ? 'ONLY_OWNER' : 'ONLY_STAFF';
}

/**
 * Inside the account layouts: role rules and the active-account gate. A page the person may not open
 * sends them to /admin with the reason (?error=ONLY_OWNER …), which the dashboard says.
 */
export function RouteGate({ children }: { children: ReactNode }) {
  const { active, role: rule } = useRouteRequirements();
  const { data: user, isError } = useMe();
  const locale = useLocale();
  const role = user?.role ?? (tokenPayload()?.role as Role | undefined);
  const needsUser = active || (rule && !role);
  if (needsUser && !user) return isError ? children : <FullPageSpinner inline />;
  if (!passesRole(rule, role)) {
    return <Navigate to={withLocale(`/admin?error=${roleRefusal(rule)}`, locale)} replace />;
  }
  if (active && user && !isUserActive(user)) {
    return <Navigate to={withLocale('/admin?error=ACCOUNT_NOT_ACTIVE', locale)} replace />;
  }
  return children;
}
