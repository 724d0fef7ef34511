import { COOKIE } from '@leadrelay/shared';
import Cookies from 'js-cookie';
import { Navigate, useLocation } from 'react-router';
import { getToken } from '../lib/auth';
import { localeFromPath, rootLocale, saveLanguage, withLocale } from '../lib/locale';

/** `/`: the root-only language redirect, then /admin when signed in, else /signin. */
export function HomeRedirect() {
  const { pathname, search } = useLocation();
  const locale = localeFromPath(pathname);
  const redirected = Cookies.get(COOKIE.langRedirected);
  const target = rootLocale(pathname, redirected, navigator.languages ?? [navigator.language]);
  if (target && !redirected) saveLanguage(target);
  if (target === 'en' && locale === 'uk') return <Navigate to={`/en${search}`} replace />;
  return <Navigate to={withLocale(getToken() ? '/admin' : '/signin', locale) + search} replace />;
}
