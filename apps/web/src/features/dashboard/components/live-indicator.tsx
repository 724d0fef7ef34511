import { Badge, Tooltip } from 'antd';
import { useTranslation } from 'react-i18next';
import { useRealtimeStatus } from '../../../lib/realtime';

const BADGE = { live: 'success', connecting: 'processing', offline: 'default' } as const;

/** A small dot saying whether the numbers update by themselves. */
export function LiveIndicator() {
  const { t } = useTranslation('dashboard');
  const status = useRealtimeStatus();
  return (
    <Tooltip title={t(`live.hint.${status}`)}>
      <span className="lr-live" data-status={status} role="status">
        <Badge status={BADGE[status]} text={t(`live.${status}`)} />
      </span>
    </Tooltip>
  );
}
