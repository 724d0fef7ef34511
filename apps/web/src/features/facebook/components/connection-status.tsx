import type { FbConnection } from '@leadrelay/shared';
import { Tag, Typography } from 'antd';
import { useTranslation } from 'react-i18next';
import { reasonText } from '../../../components/integrations/status-tag';
import { daysLeft, EXPIRY_WARNING_DAYS } from './expiry';

type Props = { connection: Pick<FbConnection, 'status' | 'statusReason' | 'expiresAt'>; withReason?: boolean };

/** Works / not working (with Facebook's reason), and how long the token lasts. */
export function ConnectionStatus({ connection, withReason = true }: Props) {
  const { t } = useTranslation('facebook');
  const days = daysLeft(connection.expiresAt);
  const broken = connection.status === 'broken';
  const expiry =
    days === null ? null : days < 0 ? (
      <Typography.Text type="danger">{t('status.expired')}</Typography.Text>
    ) : (
      <Typography.Text type={broken || days <= EXPIRY_WARNING_DAYS ? 'danger' : 'secondary'}>
        {days === 0 ? t('status.expiresToday') : t('status.expiresIn', { count: days })}
      </Typography.Text>
    );
  return (
    <span className="lr-fb-status" data-testid="fb-connection-status">
      <Tag color={broken ? 'red' : 'green'}>{broken ? t('status.broken') : t('status.ok')}</Tag>
      {expiry}
      {broken && withReason && connection.statusReason && (
        <Typography.Text type="danger" className="lr-fb-reason">
          {reasonText(connection.statusReason)}
        </Typography.Text>
      )}
    </span>
  );
}
