// Turns a failure into a message: `errors.<CODE>` (or a connector's own key's words,
// `connectors:<slug>.errors.<CODE>`), else "Something went wrong" (or the server's
// failure). The server's own message is English for a developer, so it is never shown (issue 17
// part 3: a Ukrainian user never sees English).

import { HttpError } from './http';
import { i18n } from './i18n';

export function translateCode(code: string | undefined, fallback?: string): string {
  if (code) {
    const bound = /^(MIN|MAX)_LENGTH_(\d+)$/.exec(code);
    if (bound) return i18n.t(`errors:${bound[1] as 'MIN' | 'MAX'}_LENGTH`, { n: Number(bound[2]) });
    if (i18n.exists(`errors:${code}`)) return i18n.t(`errors:${code}` as 'errors:UNKNOWN');
    const own = connectorCodeKey('errors', code);
    if (own) return i18n.t(own as 'errors:UNKNOWN');
  }
  return fallback || i18n.t('errors:UNKNOWN');
}

/** A code as the server sends it (CAPITALS_AND_UNDERSCORES): never a member name such as `__proto__`. */
const CODE = /^[A-Z][A-Z0-9_]*$/;

/**
 * The key of a connector's own words for one of its codes, `connectors:<slug>.<group>.<code>` (its
 * folder's words/codes: errors, reasons), whichever connector has it: the server sends the code alone.
 */
export function connectorCodeKey(group: 'errors' | 'reasons', code: string): string | undefined {
  if (!CODE.test(code)) return undefined;
  const slugs = new Set(
    ['uk', 'en'].flatMap((lng) => Object.keys((i18n.getResourceBundle(lng, 'connectors') as object | undefined) ?? {})),
  );
  for (const slug of slugs) {
    const key = `connectors:${slug}.${group}.${code}`;
    if (i18n.exists(key)) return key;
  }
  return undefined;
}

/** A failure whose message is already in the user's language (a t() result): errorMessage shows it. */
export class TranslatedError extends Error {}

export function errorMessage(err: unknown): string {
  if (err instanceof TranslatedError) return err.message;
  if (err instanceof HttpError) {
    if (err.code === 'TOO_MANY_REQUESTS' && err.retryAfter) {
      return i18n.t('errors:TOO_MANY_REQUESTS_RETRY', { seconds: err.retryAfter });
    }
    return translateCode(err.code, i18n.t(err.status >= 500 ? 'errors:INTERNAL_ERROR' : 'errors:UNKNOWN'));
  }
  if (err instanceof TypeError) return i18n.t('errors:NETWORK');
  return i18n.t('errors:UNKNOWN');
}
