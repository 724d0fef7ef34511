// Reasons the server sends as a code with parameters (packages/shared integration-state.ts), in
// the interface language. Texts stored before codes are read as codes first (parseReason).
import { type IntegrationStateCode, parseReason, type Reason } from '@leadrelay/shared';
import { translateCode } from '../errors';
import { formatDateTime } from '../format';
import { i18n } from '../i18n';

/** A state's label in the interface language ("Працює", "Помилка авторизації"). */
export const stateLabel = (code: IntegrationStateCode): string =>
  i18n.t(`integrations:state.${stateKey(code)}` as never);

/**
 * A reason the server sent as a code with parameters, in the user's language: the code's sentence,
 * then what the parameters add (the HTTP status, the host, the next try, the server's own answer).
 */
export function reasonLabel(reason: Reason): string {
  const { code, params = {} } = reason;
  if (code === 'UNKNOWN') return String(params.detail ?? i18n.t('errors:UNKNOWN'));
  if (code === 'DESTINATION_BROKEN' || code === 'DESTINATION_RETRYING') {
    const state = String(params.state ?? '') as IntegrationStateCode;
    return i18n.t(`integrations:reasons.${code}`, { name: params.name, state: stateLabel(state).toLowerCase() });
  }
  const key = `integrations:reasons.${code === 'TIMEOUT' && params.host ? 'TIMEOUT_AT' : code}`;
  const text = i18n.exists(key) ? String(i18n.t(key as never, params as never)) : translateCode(code);
  const parts = [text];
  if (params.status !== undefined) parts[0] = `${text} (HTTP ${params.status})`;
  // Data or the destination's own words, as they came (a phone number, Facebook's message).
  else if (params.detail !== undefined) parts[0] = `${text} (${params.detail})`;
  if (params.host !== undefined && code !== 'TIMEOUT')
    parts.push(i18n.t('integrations:reasonParams.host', { host: params.host }));
  if (typeof params.retryAt === 'string') {
    parts.push(i18n.t('integrations:reasonParams.retryAt', { time: formatDateTime(params.retryAt) }));
  }
  if (params.answer !== undefined) parts.push(i18n.t('integrations:reasonParams.answer', { answer: params.answer }));
  return parts.join('. ');
}

/**
 * A failure reason stored as text (a delivery's last error, an older row's status reason) in the
 * user's language: read as a code with parameters (shared parseReason), then translated.
 */
export function reasonText(reason: string): string {
  return reasonLabel(parseReason(reason));
}

/** Why a connection check failed: the server's code with parameters (older answers: their text). */
export function checkReason(check: { reason?: string; reasonKey?: Reason }): string | undefined {
  if (check.reasonKey) return reasonLabel(check.reasonKey);
  return check.reason ? reasonText(check.reason) : undefined;
}

/**
 * The locale key of a state (not_configured → notConfigured): a key ending in _other would read as a
 * plural form to i18next and to the translations screen.
 */
export const stateKey = (code: IntegrationStateCode): string =>
  code.replace(/_([a-z])/g, (_m, c: string) => c.toUpperCase());
