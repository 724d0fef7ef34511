// A language the operator added on the translations screen (docs/translations.md): the URL keeps
// the English prefix (spec section 2 knows only uk and en) and the `ui_lang` cookie says which
// added language to show there. Missing strings fall back to English. The server keeps answering
// in English for such a visitor (the `lang` cookie stays `en`), so mail stays in uk or en.
import type { Locale } from '@leadrelay/shared';
import Cookies from 'js-cookie';

export const UI_LANG_COOKIE = 'ui_lang';
const CODE = /^[a-z]{2,3}(-[a-z0-9]{2,8})?$/i;

/** An added language the visitor chose, when it is a well-formed code other than uk and en. */
export function chosenExtraLanguage(): string | undefined {
  const code = Cookies.get(UI_LANG_COOKIE);
  return code && CODE.test(code) && code !== 'uk' && code !== 'en' ? code : undefined;
}

/** The language the interface shows on a page of this locale. */
export function uiLanguage(locale: Locale): string {
  return locale === 'en' ? (chosenExtraLanguage() ?? 'en') : locale;
}

export function chooseExtraLanguage(code: string | undefined): void {
  if (code) Cookies.set(UI_LANG_COOKIE, code, { expires: 365, path: '/', sameSite: 'lax' });
  else Cookies.remove(UI_LANG_COOKIE, { path: '/' });
}
