import { baseURL } from '../../playwright.config';

// A URL check states the whole address: the page's origin, this path (and query) and nothing more.
// An unanchored pattern lets `/signin` pass for `/signin?message=session` and `/admin` for
// `/en/admin`, which is how a wrong landing page went unnoticed.

const escapeRegExp = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

/** A UUID in a path, for `urlMatching`. */
export const UUID = '[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}';

/** Exactly this path (and query, if given) on the suite's origin. */
export function urlIs(path: string): RegExp {
  return new RegExp(`^${escapeRegExp(baseURL)}${escapeRegExp(path)}$`);
}

/** This origin, then a path matching `pattern` (a regular-expression source) to its very end. */
export function urlMatching(pattern: string): RegExp {
  return new RegExp(`^${escapeRegExp(baseURL)}${pattern}$`);
}
