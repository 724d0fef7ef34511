// Reasons the server sends as a code with parameters (packages/shared integration-state.ts), in
// the interface language. Texts stored before codes are read as codes first (parseStoredReason).
import { FILTER_OPS, type IntegrationStateCode, type Reason } from '@leadrelay/shared';
import { connectorCodeKey, translateCode } from '../errors';
import { formatDateTime } from '../format';
import { i18n } from '../i18n';
import { parseStoredReason } from './stored-reasons';

/** A state's label in the interface language ("Працює", "Помилка авторизації"). */
export const stateLabel = (code: IntegrationStateCode): string =>
  i18n.t(`integrations:state.${stateKey(code)}` as never);

/**
 * A reason the server sent as a code with parameters, in the user's language: the code's sentence,
 * then what the parameters add (the HTTP status, the host, the next try). The destination's own
 * words (an ad platform's message, a CRM's answer) are not part of it: reasonDetail gives them, for a
 * "technical details" fold labelled in the user's language. A connector's own code reads in its
 * folder's words (`connectors:<slug>.reasons.<code>`). A code with no sentence reads as
 * errors:UNKNOWN, never as itself.
 */
export function reasonLabel(reason: Reason): string {
  const { code, params = {} } = reason;
  if (code === 'DESTINATION_BROKEN' || code === 'DESTINATION_RETRYING') {
    const state = String(params.state ?? '') as IntegrationStateCode;
    return i18n.t(`integrations:reasons.${code}`, { name: params.name, state: stateLabel(state).toLowerCase() });
  }
  if (code === 'FILTERED') {
    const op = FILTER_OPS.find((o) => o === params.op);
    return i18n.t('integrations:reasons.FILTERED', {
      field: params.field,
      op: `${params.negate ? `${i18n.t('integrations:filters.negate')} ` : ''}${op ? i18n.t(`integrations:ops.${op}`) : ''}`,
      value: params.value !== undefined ? ` «${params.value}»` : '',
    });
  }
  const generic = `integrations:reasons.${code === 'TIMEOUT' && params.host ? 'TIMEOUT_AT' : code}`;
  // A connector's own reason reads in its folder's words (else its error key's, as translateCode does).
  const key = i18n.exists(generic) ? generic : connectorCodeKey('reasons', code);
  const text = code !== 'UNKNOWN' && key ? String(i18n.t(key as never, params as never)) : translateCode(code);
  const data = shownData(reason);
  const parts = [
    params.status !== undefined ? `${text} (HTTP ${params.status})` : data !== undefined ? `${text} (${data})` : text,
  ];
  if (params.host !== undefined && code !== 'TIMEOUT')
    parts.push(i18n.t('integrations:reasonParams.host', { host: params.host }));
  if (typeof params.retryAt === 'string') {
    parts.push(i18n.t('integrations:reasonParams.retryAt', { time: formatDateTime(params.retryAt) }));
  }
  return parts.join('. ');
}

/**
 * The service's own words beside a reason (an ad platform's message, a CRM's answer, the stored text of
 * an unknown reason), as they came: only for a folded "technical details" (ReasonDetails).
 */
export function reasonDetail(reason: Reason): string | undefined {
  const { detail, answer } = reason.params ?? {};
  const text = [shownData(reason) === undefined ? detail : undefined, answer]
    .filter((v) => v !== undefined && v !== '')
    .join(' · ');
  return text || undefined;
}

/** A detail that is data with no words in it (a phone number): it stays beside the sentence. */
function shownData(reason: Reason): string | undefined {
  const detail = reason.params?.detail;
  if (reason.code === 'UNKNOWN' || detail === undefined) return undefined;
  return /\p{Script=Latin}/u.test(String(detail)) ? undefined : String(detail);
}

/**
 * A failure reason stored as text (a delivery's last error, an older row's status reason) in the
 * user's language: read as a code with parameters (shared parseReason), then translated.
 */
export function reasonText(reason: string): string {
  return reasonLabel(parseStoredReason(reason));
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
