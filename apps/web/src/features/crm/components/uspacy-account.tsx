import type { Integration } from '@leadrelay/shared';
import { Descriptions, Skeleton } from 'antd';
import { useTranslation } from 'react-i18next';
import { useUspacyAccount } from '../queries';

/** How the integration is connected: by webhook or as an account, on which portal (nothing secret). */
export function UspacyAccount({ integration }: { integration: Integration }) {
  const { t } = useTranslation('crm');
  const account = useUspacyAccount(integration);
  if (!integration.isConnected) return null;
  if (account.isPending) return <Skeleton active paragraph={{ rows: 1 }} title={false} />;
  const data = account.data;
  if (!data?.connected) return null;
  return (
    <Descriptions column={1} size="small" className="lr-mt" data-testid="uspacy-account">
      <Descriptions.Item label={t('uspacy.portal')}>
        <span className="lr-break">{data.portal}</span>
      </Descriptions.Item>
      <Descriptions.Item label={t('uspacy.connectedVia')}>
        {t(`uspacy.modesShort.${data.mode ?? 'webhook'}`)}
      </Descriptions.Item>
      {data.email && (
        <Descriptions.Item label={t('uspacy.email')}>
          <span className="lr-break">{data.email}</span>
        </Descriptions.Item>
      )}
    </Descriptions>
  );
}
