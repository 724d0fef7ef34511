import type { Locale, Post } from '@leadrelay/shared';

/** The block ends of a post's HTML: where one paragraph (heading, item, quote) stops and the next starts. */
const BLOCK_END = /<\/(p|h\d|li|blockquote|pre)>|<br\s*\/?>/gi;

/**
 * The first words of a post's HTML as plain text, one line per paragraph (the list shows them apart,
 * white-space: pre-line). The browser parses it; nothing is run or shown.
 */
export function postExcerpt(html: string, max = 220): string {
  const parsed = new DOMParser().parseFromString(html.replace(BLOCK_END, '$&\n'), 'text/html');
  const text = (parsed.body.textContent ?? '')
    .split('\n')
    .map((line) => line.replace(/\s+/g, ' ').trim())
    .filter(Boolean)
    .join('\n');
  return text.length > max ? `${text.slice(0, max - 1).trimEnd()}…` : text;
}

export interface ShownPost {
  title: string;
  text: string;
  /** The language the title and text are in (the page's, or Ukrainian when the post has no other). */
  lang: Locale;
  /** The page's language is not the post's: the page says the post is only in Ukrainian. */
  isOtherLanguage: boolean;
}

/** The version of a post the page's language reads: English on English pages when written, else Ukrainian. */
export function postVersion(post: Pick<Post, 'title' | 'text' | 'en'>, locale: string): ShownPost {
  if (locale === 'en' && post.en) return { ...post.en, lang: 'en', isOtherLanguage: false };
  return { title: post.title, text: post.text, lang: 'uk', isOtherLanguage: locale !== 'uk' };
}

export const formatPostDate = (iso: string, locale: string) =>
  new Intl.DateTimeFormat(locale === 'uk' ? 'uk-UA' : 'en-GB', {
    day: 'numeric',
    month: 'long',
    year: 'numeric',
  }).format(new Date(iso));
