import type { DeliveryStatus, HookDelivery, HookStatus } from '@leadrelay/shared';
import { Tag, Tooltip } from 'antd';
import { useTranslation } from 'react-i18next';
import { formatMoment } from '../../lib/hooks/format';

export const HOOK_STATUS_COLOR: Record<HookStatus, string> = {
  accepted: 'geekblue',
  filtered: 'default',
  duplicate: 'purple',
  pending: 'processing',
  delivered: 'success',
  partial: 'warning',
  failed: 'error',
};

export const DELIVERY_STATUS_COLOR: Record<DeliveryStatus, string> = {
  pending: 'processing',
  running: 'processing',
  delivered: 'success',
  failed: 'error',
};

/** The overall status; the reason of a filtered or duplicate event shows on hover. */
export function HookStatusTag({ status, reason }: { status: HookStatus; reason?: string | null }) {
  const { t } = useTranslation('hooks');
  const tag = (
    <Tag color={HOOK_STATUS_COLOR[status]} className="lr-hook-status" data-status={status}>
      {t(`status.${status}`)}
    </Tag>
  );
  return reason ? <Tooltip title={reason}>{tag}</Tooltip> : tag;
}

export function DeliveryStatusTag({ status }: { status: DeliveryStatus }) {
  const { t } = useTranslation('hooks');
  return (
    <Tag color={DELIVERY_STATUS_COLOR[status] ?? 'default'} data-status={status}>
      {t(`delivery.${status}`)}
    </Tag>
  );
}

/** One destination of a hook: its name and status; pending shows the next try, failed the error on hover. */
export function DeliveryChip({ delivery }: { delivery: HookDelivery }) {
  const { t } = useTranslation('hooks');
  const { status } = delivery;
  const label = t(`delivery.${status}`);
  const next = status === 'pending' && delivery.nextAttemptAt ? formatMoment(delivery.nextAttemptAt) : null;
  const chip = (
    <Tag
      color={DELIVERY_STATUS_COLOR[status] ?? 'default'}
      className="lr-delivery-chip"
      data-status={status}
      data-testid="delivery-chip"
    >
      <span className="lr-delivery-chip-name">{delivery.destination.name}</span>
      <span className="lr-delivery-chip-status">
        {' · '}
        {label}
        {next && ` · ${t('delivery.nextAttempt', { time: next })}`}
      </span>
    </Tag>
  );
  // A failed delivery, or one waiting for a retry, explains itself on hover.
  if ((status === 'failed' || status === 'pending') && delivery.lastError) {
    return <Tooltip title={t('delivery.lastError', { error: delivery.lastError })}>{chip}</Tooltip>;
  }
  return chip;
}
