import { COOKIE, LANG_COOKIE_DAYS, type Locale } from '@leadrelay/shared';
import Cookies from 'js-cookie';

/** `/en/...` is English; everything else is Ukrainian (spec section 2). */
export function localeFromPath(pathname: string): Locale {
  return pathname === '/en' || pathname.startsWith('/en/') ? 'en' : 'uk';
}

/** `/en/admin` → `/admin`, `/en` → `/`. */
export function stripLocale(pathname: string): string {
  if (localeFromPath(pathname) === 'uk') return pathname || '/';
  return pathname.slice(3) || '/';
}

/** `/admin` in `en` → `/en/admin`; `/` in `en` → `/en`. Query and hash are kept. */
export function withLocale(path: string, locale: Locale): string {
  const clean = path.startsWith('/') ? path : `/${path}`;
  if (locale === 'uk') return clean;
  return clean === '/' ? '/en' : clean.startsWith('/?') ? `/en${clean.slice(1)}` : `/en${clean}`;
}

export function currentLocale(): Locale {
  return typeof window === 'undefined' ? 'uk' : localeFromPath(window.location.pathname);
}

/** Builds a link in the current language: localePath('/admin') → '/en/admin' on English pages. */
export function localePath(path: string, locale: Locale = currentLocale()): string {
  return withLocale(path, locale);
}

/** Spec section 1: Ukrainian when the browser speaks Ukrainian, otherwise English. */
export function detectBrowserLocale(languages: readonly string[]): Locale {
  return languages.some((l) => /^uk(-|$)/i.test(l)) ? 'uk' : 'en';
}

/**
 * Spec section 2: the i18n_redirected cookie is honoured only on the root path. Returns the
 * locale the root should show, or null when no redirect rule applies (any other path).
 */
export function rootLocale(pathname: string, redirectedCookie: string | undefined, languages: readonly string[]) {
  if (pathname !== '/' && pathname !== '') return null;
  if (redirectedCookie === 'en') return 'en';
  if (redirectedCookie) return 'uk'; // 'uk' or an unknown value: fall back to Ukrainian
  return detectBrowserLocale(languages);
}

export function readLangCookie(): Locale | undefined {
  const v = Cookies.get(COOKIE.lang);
  return v === 'uk' || v === 'en' ? v : undefined;
}

/** Saves the language in `lang` (365 days) and `i18n_redirected`. */
export function saveLanguage(locale: Locale): void {
  Cookies.set(COOKIE.lang, locale, { expires: LANG_COOKIE_DAYS, path: '/', sameSite: 'lax' });
  Cookies.set(COOKIE.langRedirected, locale, { expires: LANG_COOKIE_DAYS, path: '/', sameSite: 'lax' });
}

/** The URL of the same page in the other language. */
export function switchedUrl(location: { pathname: string; search: string; hash: string }, locale: Locale) {
  return withLocale(stripLocale(location.pathname), locale) + location.search + location.hash;
}

/** The switcher: save, then reload into the other prefix of the same page. */
export function switchLanguage(locale: Locale): void {
  saveLanguage(locale);
  window.location.assign(switchedUrl(window.location, locale));
}
