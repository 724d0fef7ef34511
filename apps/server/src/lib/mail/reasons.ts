// Why an integration failed, for a mail: the stored reason (a code with parameters, or an older
// text) read by shared parseReason and told in the reader's language. The raw text never shows: a
// code outside REASON_CODES and the connectors' reasons with a mail sentence (their folders'
// words/codes, lib/error-codes.ts), or a service's own words, reads as the UNKNOWN sentence.
import { isReasonCode, type Locale, parseReason, type Reason } from '@leadrelay/shared';
import { connectorMailReason, STORED_REASONS } from '../error-codes';
import { t } from './i18n';
import type { PlainKey } from './locales/catalogue';

export function mailReason(lang: Locale, stored: string): string {
  return reasonSentence(lang, parseReason(stored, STORED_REASONS));
}

/** A reason already read as a code with parameters (an integration's state, an alert), in the reader's language. */
export function reasonSentence(lang: Locale, { code, params = {} }: Reason): string {
  if (code === 'TIMEOUT' && typeof params.host === 'string' && params.seconds !== undefined) {
    return t(lang, 'reason.TIMEOUT_AT', { host: params.host, seconds: params.seconds });
  }
  const key = `reason.${isReasonCode(code) ? code : 'UNKNOWN'}` as Extract<PlainKey, `reason.${string}`>;
  const parts = [connectorMailReason(lang, code) ?? t(lang, key as 'reason.UNKNOWN')];
  if (typeof params.status === 'number') parts.push(t(lang, 'reason.httpStatus', { status: params.status }));
  if (typeof params.host === 'string') parts.push(t(lang, 'reason.host', { host: params.host }));
  return parts.join(' ');
}
