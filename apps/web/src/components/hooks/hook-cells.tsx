import type { Hook } from '@leadrelay/shared';
import { Typography } from 'antd';
import { useTranslation } from 'react-i18next';
import { leadSummary } from '../../lib/hooks/format';
import { DeliveryChip } from './status-tags';

/** Name, then phone and e-mail, of the hook's lead; a dash when it has none of them. */
export function LeadCell({ hook }: { hook: Hook }) {
  const { t } = useTranslation('hooks');
  const { name, phone, email } = leadSummary(hook);
  if (!name && !phone && !email) return <Typography.Text type="secondary">{t('detail.empty')}</Typography.Text>;
  return (
    <div className="lr-lead-cell">
      {name && <Typography.Text strong>{name}</Typography.Text>}
      {phone && <Typography.Text className="lr-nowrap">{phone}</Typography.Text>}
      {email && <Typography.Text type="secondary">{email}</Typography.Text>}
    </div>
  );
}

export function DeliveryChips({ hook }: { hook: Hook }) {
  const { t } = useTranslation('hooks');
  if (!hook.deliveries.length) {
    return (
      <Typography.Text type="secondary">
        {hook.status === 'accepted' ? t('delivery.none') : t('detail.empty')}
      </Typography.Text>
    );
  }
  return (
    <div className="lr-delivery-chips">
      {hook.deliveries.map((d) => (
        <DeliveryChip key={d._id} delivery={d} />
      ))}
    </div>
  );
}
