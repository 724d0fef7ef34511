import {
  INTEGRATION_STATE_TONE,
  type Integration,
  type IntegrationState,
  type IntegrationStateCode,
  parseReason,
  type Reason,
} from '@leadrelay/shared';
import { Tag, Typography } from 'antd';
import { useTranslation } from 'react-i18next';
import { translateCode } from '../../lib/errors';
import { formatDateTime } from '../../lib/format';
import { i18n } from '../../lib/i18n';

const TONE_COLOR = { ok: 'green', warn: 'orange', error: 'red', off: 'default' } as const;

/** A state's label in the interface language ("Працює", "Помилка: авторизація"). */
export const stateLabel = (code: IntegrationStateCode): string => i18n.t(`integrations:state.${code}`);

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

/** The one computed status (server-side integration-state.ts): a coloured tag and, if asked, its reason. */
export function StateTag({ state, withReason = true }: { state: IntegrationState; withReason?: boolean }) {
  const { t } = useTranslation('integrations');
  const tone = INTEGRATION_STATE_TONE[state.code];
  return (
    <span className="lr-int-status" data-state={state.code}>
      <Tag color={TONE_COLOR[tone]} className="lr-state-tag">
        {t(`state.${state.code}`)}
      </Tag>
      {withReason && state.reason && (
        <Typography.Text type={tone === 'error' ? 'danger' : 'secondary'} className="lr-int-reason">
          {reasonLabel(state.reason)}
        </Typography.Text>
      )}
    </span>
  );
}

/** An integration's status: the same tag, words and colour on every screen that shows it. */
export function StatusTag({ integration, withReason = true }: { integration: Integration; withReason?: boolean }) {
  return <StateTag state={integration.state} withReason={withReason} />;
}
