// Mail text by key and language, with its parameters filled in. The values are plain text: the
// layout (React) escapes them when it draws the HTML.
import type { Locale } from '@leadrelay/shared';
import type { Params, PlainKey, PluralKey, PluralParams } from './locales/catalogue';
import { en } from './locales/en';
import { uk } from './locales/uk';

export const MAIL_CATALOGUES: Record<Locale, Readonly<Record<string, string>>> = { uk, en };

const PARAM = /\{(\w+)\}/g;

export function fill(lang: Locale, key: string, params: Record<string, string | number>): string {
  const text = MAIL_CATALOGUES[lang][key];
  if (text === undefined) throw new Error(`mail text ${lang}:${key} is missing`);
  return fillText(text, params, `${lang}:${key}`);
}

/** A sentence from elsewhere (a connector's words) with its parameters filled in; `where` names it in an error. */
export function fillText(text: string, params: Record<string, string | number>, where: string): string {
  return text.replace(PARAM, (_, name: string) => {
    const value = params[name];
    if (value === undefined) throw new Error(`mail text ${where} needs {${name}}`);
    return String(value);
  });
}

/** A string of the catalogue; parameters are required exactly when the string has some. */
export function t<K extends PlainKey>(
  lang: Locale,
  key: K,
  ...params: keyof Params<K> extends never ? [] : [Params<K>]
): string {
  return fill(lang, key, params[0] ?? {});
}

/** The plural form of a sentence that fits `count` in the language. */
export function tn<K extends PluralKey>(
  lang: Locale,
  key: K,
  count: number,
  ...params: keyof PluralParams<K> extends never ? [] : [PluralParams<K>]
): string {
  const form = new Intl.PluralRules(lang).select(count);
  return fill(lang, `${key}_${form}`, { ...params[0], count });
}
