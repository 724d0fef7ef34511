import Cookies from 'js-cookie';
import { describe, expect, it } from 'vitest';
import {
  detectBrowserLocale,
  localeFromPath,
  localePath,
  rootLocale,
  saveLanguage,
  stripLocale,
  switchedUrl,
  withLocale,
} from './locale';

describe('language from the URL', () => {
  it('treats /en as English and everything else as Ukrainian', () => {
    expect(localeFromPath('/en')).toBe('en');
    expect(localeFromPath('/en/admin')).toBe('en');
    expect(localeFromPath('/admin')).toBe('uk');
    expect(localeFromPath('/enter')).toBe('uk');
    expect(stripLocale('/en/admin/account')).toBe('/admin/account');
    expect(stripLocale('/en')).toBe('/');
    expect(withLocale('/', 'en')).toBe('/en');
    expect(withLocale('/signin?message=session', 'en')).toBe('/en/signin?message=session');
    expect(withLocale('/admin', 'uk')).toBe('/admin');
  });

  it('localePath builds links in the current language', () => {
    window.history.replaceState(null, '', '/en/admin');
    expect(localePath('/admin/plan')).toBe('/en/admin/plan');
    window.history.replaceState(null, '', '/admin');
    expect(localePath('/admin/plan')).toBe('/admin/plan');
  });

  it('the switcher URL keeps the page, query and hash', () => {
    expect(switchedUrl({ pathname: '/admin/account', search: '?a=1', hash: '#x' }, 'en')).toBe(
      '/en/admin/account?a=1#x',
    );
    expect(switchedUrl({ pathname: '/en/signin', search: '', hash: '' }, 'uk')).toBe('/signin');
    expect(switchedUrl({ pathname: '/en', search: '', hash: '' }, 'uk')).toBe('/');
  });
});

describe('browser language detection', () => {
  it('is Ukrainian for a Ukrainian browser, otherwise English', () => {
    expect(detectBrowserLocale(['uk-UA', 'en-US'])).toBe('uk');
    expect(detectBrowserLocale(['en-US', 'uk'])).toBe('uk');
    expect(detectBrowserLocale(['en-US'])).toBe('en');
    expect(detectBrowserLocale(['ru-RU', 'de'])).toBe('en');
    expect(detectBrowserLocale([])).toBe('en');
  });
});

describe('i18n_redirected is honoured only on the root path', () => {
  it('redirects the root to English when the cookie says en', () => {
    expect(rootLocale('/', 'en', ['uk-UA'])).toBe('en');
  });
  it('stays Ukrainian when the cookie says uk, even for an English browser', () => {
    expect(rootLocale('/', 'uk', ['en-US'])).toBe('uk');
  });
  it('falls back to Ukrainian for an unknown cookie value', () => {
    expect(rootLocale('/', 'de', ['en-US'])).toBe('uk');
  });
  it('detects the browser language without a cookie', () => {
    expect(rootLocale('/', undefined, ['en-US'])).toBe('en');
    expect(rootLocale('/', undefined, ['uk-UA'])).toBe('uk');
  });
  it('ignores the cookie on any other path', () => {
    expect(rootLocale('/signin', 'en', ['en-US'])).toBeNull();
    expect(rootLocale('/admin', 'en', ['en-US'])).toBeNull();
  });
});

describe('saving the language', () => {
  it('sets lang and i18n_redirected', () => {
    saveLanguage('en');
    expect(Cookies.get('lang')).toBe('en');
    expect(Cookies.get('i18n_redirected')).toBe('en');
  });
});
