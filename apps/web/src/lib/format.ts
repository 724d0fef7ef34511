// Dates and numbers in the active language (house style: Intl, never hand-made formats).
import type { Locale } from '@leadrelay/shared';
import { currentLocale } from './locale';

/** The Intl locale of an interface language. */
export const intlLocale = (locale: Locale = currentLocale()): string => (locale === 'uk' ? 'uk-UA' : 'en-GB');

export function formatNumber(n: number, locale?: Locale): string {
  return new Intl.NumberFormat(intlLocale(locale)).format(n);
}

/** e.g. "22 лист. 2026 р., 14:05" / "22 Nov 2026, 14:05". */
export function formatDateTime(iso: string): string {
  return new Intl.DateTimeFormat(intlLocale(), { dateStyle: 'medium', timeStyle: 'short' }).format(new Date(iso));
}

/** e.g. "22 лист. 2026 р." / "22 Nov 2026". */
export function formatDate(iso: string): string {
  return new Intl.DateTimeFormat(intlLocale(), { dateStyle: 'medium' }).format(new Date(iso));
}
