// Turns a failure into a message: `errors.<CODE>` first, then the server's message, then
// "Something went wrong" (spec section 8).

import { HttpError } from './http';
import { i18n } from './i18n';

export function translateCode(code: string | undefined, fallback?: string): string {
  if (code) {
    const bound = /^(MIN|MAX)_LENGTH_(\d+)$/.exec(code);
    if (bound) return i18n.t(`errors:${bound[1] as 'MIN' | 'MAX'}_LENGTH`, { n: Number(bound[2]) });
    if (i18n.exists(`errors:${code}`)) return i18n.t(`errors:${code}` as 'errors:UNKNOWN');
  }
  return fallback || i18n.t('errors:UNKNOWN');
}

export function errorMessage(err: unknown): string {
  if (err instanceof HttpError) {
    if (err.code === 'TOO_MANY_REQUESTS' && err.retryAfter) {
      return i18n.t('errors:TOO_MANY_REQUESTS_RETRY', { seconds: err.retryAfter });
    }
    const fallback = err.serverMessage || i18n.t(err.status >= 500 ? 'errors:INTERNAL_ERROR' : 'errors:UNKNOWN');
    return translateCode(err.code, fallback);
  }
  if (err instanceof TypeError) return i18n.t('errors:NETWORK');
  return translateCode(undefined, err instanceof Error ? err.message : undefined);
}
