import { configure, fireEvent, screen } from '@testing-library/react';
import Cookies from 'js-cookie';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { i18n } from '../lib/i18n';
import { chooseExtraLanguage, UI_LANG_COOKIE, uiLanguage } from '../lib/ui-language';
import { jsonResponse, renderPage, stubLocation } from '../test/render';
import { LanguageSwitcher } from './language-switcher';

const assign = vi.fn();
const reload = vi.fn();
beforeEach(() => {
  assign.mockReset();
  reload.mockReset();
  Cookies.remove(UI_LANG_COOKIE, { path: '/' });
  vi.stubGlobal(
    'fetch',
    vi.fn(async (url: string) =>
      url === '/api/i18n/locales'
        ? jsonResponse(200, [
            { code: 'uk', iso: 'uk-UA', name: 'Українська', dir: 'ltr' },
            { code: 'en', iso: 'en-US', name: 'English', dir: 'ltr' },
            { code: 'pl', iso: 'pl-PL', name: 'Polski', dir: 'ltr' },
          ])
        : jsonResponse(404, { statusCode: 404, code: 'NOT_FOUND', message: 'no' }),
    ),
  );
});
afterEach(() => {
  vi.unstubAllGlobals();
  Cookies.remove(UI_LANG_COOKIE, { path: '/' });
});
configure({ asyncUtilTimeout: 5000 });

describe('the language switch', () => {
  it('is a radio group with the page’s language chosen', async () => {
    renderPage(<LanguageSwitcher />, { locale: 'en', path: '/en/signin' });
    const group = await screen.findByRole('radiogroup', { name: 'Language' });
    expect(group).toBeTruthy();
    expect((screen.getByRole('radio', { name: 'EN' }) as HTMLInputElement).checked).toBe(true);
    expect((screen.getByRole('radio', { name: 'UA' }) as HTMLInputElement).checked).toBe(false);
    expect(screen.getByTitle('English').getAttribute('data-checked')).toBe('true');
  });
});

describe('a language the operator added', () => {
  it('is offered beside Ukrainian and English, and choosing it shows the app in it on the English prefix', async () => {
    renderPage(<LanguageSwitcher />, { locale: 'uk' });
    const polish = await screen.findByTitle('Polski');
    stubLocation({ pathname: '/admin', search: '', hash: '', assign, reload });
    fireEvent.click(polish);
    expect(Cookies.get(UI_LANG_COOKIE)).toBe('pl');
    expect(assign).toHaveBeenCalledWith('/en/admin');
    expect(uiLanguage('en')).toBe('pl');
    // The Ukrainian prefix stays Ukrainian whatever was chosen.
    expect(uiLanguage('uk')).toBe('uk');
  });

  it('is the interface language on English pages once chosen, and going back to English forgets it', async () => {
    chooseExtraLanguage('pl');
    renderPage(<LanguageSwitcher />, { locale: 'en', path: '/en' });
    expect(i18n.language).toBe('pl');
    expect(document.documentElement.lang).toBe('pl');
    await screen.findByTitle('Polski');
    stubLocation({ pathname: '/en', search: '', hash: '', assign, reload });
    fireEvent.click(screen.getByTitle('English'));
    expect(Cookies.get(UI_LANG_COOKIE)).toBeUndefined();
    expect(reload).toHaveBeenCalled();
  });

  it('ignores a cookie that is not a language code', () => {
    Cookies.set(UI_LANG_COOKIE, '<script>');
    expect(uiLanguage('en')).toBe('en');
  });
});
