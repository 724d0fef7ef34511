import { InfoCircleOutlined } from '@ant-design/icons';
import {
  type DeliveryStatus,
  HELD_EXPIRED,
  HELD_RETENTION_DAYS,
  HOLD_REASONS,
  type HoldReason,
  type HookDelivery,
  type HookStatus,
  type LeadWarning,
  WAITING_NOTES,
} from '@leadrelay/shared';
import { Tag, Tooltip } from 'antd';
import { useTranslation } from 'react-i18next';
import { formatMoment } from '../../lib/hooks/format';
import { reasonText as codedReasonText } from '../integrations/status-tag';

export const HOOK_STATUS_COLOR: Record<HookStatus, string> = {
  accepted: 'geekblue',
  filtered: 'default',
  duplicate: 'purple',
  pending: 'processing',
  delivered: 'success',
  partial: 'warning',
  failed: 'error',
  held: 'volcano',
};

export const DELIVERY_STATUS_COLOR: Record<DeliveryStatus, string> = {
  pending: 'processing',
  running: 'processing',
  delivered: 'success',
  failed: 'error',
  held: 'volcano',
};

const isHoldReason = (reason: string | null | undefined): reason is HoldReason =>
  (HOLD_REASONS as readonly string[]).includes(reason ?? '');

/**
 * A hook's or delivery's reason in the interface language: the codes the server sends for held
 * leads and for deliveries (a connector's own codes, with a phone number after a colon) are translated; other
 * reasons (a filter's, a repeat's) are shown as stored.
 */
export function useReasonText(): (reason: string) => string {
  const { t } = useTranslation('hooks');
  const { t: tc } = useTranslation('common');
  return (reason) => {
    if (isHoldReason(reason)) return t(`reason.${reason}`);
    if (reason === HELD_EXPIRED) return t('reason.held_expired', { days: tc('days', { count: HELD_RETENTION_DAYS }) });
    return codedReasonText(reason);
  };
}

/**
 * The overall status; a held lead says why on the tag itself ("Held: plan expired") and what
 * releases it on hover; the reason of a filtered, duplicate or given-up event shows on hover.
 */
export function HookStatusTag({ status, reason }: { status: HookStatus; reason?: string | null }) {
  const { t } = useTranslation('hooks');
  const reasonText = useReasonText();
  const held = status === 'held' && isHoldReason(reason);
  const tag = (
    <Tag color={HOOK_STATUS_COLOR[status]} className="lr-hook-status" data-status={status}>
      {held ? t(`held.${reason}`) : t(`status.${status}`)}
    </Tag>
  );
  if (held) return <Tooltip title={t(`heldHint.${reason}`)}>{tag}</Tooltip>;
  return reason ? <Tooltip title={reasonText(reason)}>{tag}</Tooltip> : tag;
}

/** What is wrong with the lead as mapped (NO_CONTACT), beside its status; explained on hover. */
export function LeadWarningTags({ warnings }: { warnings: readonly LeadWarning[] | undefined }) {
  const { t } = useTranslation('hooks');
  return (warnings ?? []).map((w) => (
    <Tooltip key={w} title={t(`warningHint.${w}`)}>
      <Tag color="warning" className="lr-hook-warning" data-warning={w}>
        {t(`warning.${w}`)}
      </Tag>
    </Tooltip>
  ));
}

export function DeliveryStatusTag({ status }: { status: DeliveryStatus }) {
  const { t } = useTranslation('hooks');
  return (
    <Tag color={DELIVERY_STATUS_COLOR[status] ?? 'default'} data-status={status}>
      {t(`delivery.${status}`)}
    </Tag>
  );
}

/**
 * One destination of a hook: its name and status; pending shows the next try, failed the error on
 * hover. A note (a delivered one that skipped an SMS, one waiting out quiet hours) shows an (i) and
 * explains itself on hover without being called an error.
 */
export function DeliveryChip({ delivery }: { delivery: HookDelivery }) {
  const { t } = useTranslation('hooks');
  const reasonText = useReasonText();
  const { status, lastError: error } = delivery;
  const label = t(`delivery.${status}`);
  const next = status === 'pending' && delivery.nextAttemptAt ? formatMoment(delivery.nextAttemptAt) : null;
  const code = error?.split(':')[0] ?? '';
  const isNote = !!error && (status === 'delivered' || (status === 'pending' && WAITING_NOTES.includes(code)));
  const chip = (
    <Tag
      color={DELIVERY_STATUS_COLOR[status] ?? 'default'}
      className="lr-delivery-chip"
      data-status={status}
      data-note={isNote ? code : undefined}
      data-testid="delivery-chip"
    >
      <span className="lr-delivery-chip-name">{delivery.destination.name}</span>
      <span className="lr-delivery-chip-status">
        {' · '}
        {label}
        {next && ` · ${t('delivery.nextAttempt', { time: next })}`}
      </span>
      {isNote && <InfoCircleOutlined className="lr-delivery-chip-note" aria-label={reasonText(error ?? '')} />}
    </Tag>
  );
  if (isNote) return <Tooltip title={reasonText(error ?? '')}>{chip}</Tooltip>;
  // A failed delivery, or one waiting for a retry, explains itself on hover.
  if ((status === 'failed' || status === 'pending') && error) {
    return <Tooltip title={t('delivery.lastError', { error: reasonText(error) })}>{chip}</Tooltip>;
  }
  return chip;
}
