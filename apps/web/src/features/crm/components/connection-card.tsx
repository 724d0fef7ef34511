import { LinkOutlined, SyncOutlined } from '@ant-design/icons';
import type { ConnectionCheck, Integration } from '@leadrelay/shared';
import { Alert, Button, Card, Descriptions, Tag, Typography } from 'antd';
import { type ReactNode, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { ReasonDetails } from '../../../components/integrations/reason-details';
import { reasonText } from '../../../components/integrations/status-tag';
import { PermissionGuard } from '../../../components/permission-guard';
import { errorMessage } from '../../../lib/errors';
import { useCheckConnectionMutation } from '../../../lib/integrations/queries';
import { useApp } from '../../../lib/use-app';

interface Props {
  integration: Integration;
  crmName: string;
  onConnect: () => void;
  connecting: boolean;
  /** Below the actions: the token form, backups … */
  children?: ReactNode;
}

/** Connection status (with its reason), connect / reconnect and a connection check. */
export function ConnectionCard({ integration, crmName, onConnect, connecting, children }: Props) {
  const { t } = useTranslation('crm');
  const { message } = useApp();
  const check = useCheckConnectionMutation(integration._id);
  const [result, setResult] = useState<ConnectionCheck | null>(null);
  const connected = integration.isConnected;
  const broken = connected && integration.status === 'broken';

  const onCheck = async () => {
    try {
      setResult(await check.mutateAsync());
    } catch (err) {
      void message.error(errorMessage(err));
    }
  };

  const tag = !connected ? (
    <Tag>{t('connection.notConnected')}</Tag>
  ) : broken ? (
    <Tag color="red">{t('connection.broken')}</Tag>
  ) : (
    <Tag color="green">{t('connection.connected')}</Tag>
  );

  return (
    <Card title={t('connection.title')}>
      <Descriptions column={1} size="small" className="lr-mb">
        <Descriptions.Item label={t('connection.status')}>{tag}</Descriptions.Item>
        {broken && integration.statusReason && (
          <Descriptions.Item label={t('connection.reason')}>
            <Typography.Text type="danger" className="lr-break">
              {reasonText(integration.statusReason)}
            </Typography.Text>
            <ReasonDetails reason={integration.statusReason} />
          </Descriptions.Item>
        )}
      </Descriptions>
      {!connected && (
        <Typography.Paragraph type="secondary" className="lr-hint">
          {t('connection.notConnectedHint', { crm: crmName })}
        </Typography.Paragraph>
      )}
      {result && (
        <Alert
          className="lr-mb"
          type={result.ok ? 'success' : 'error'}
          showIcon
          role="status"
          title={result.ok ? t('connection.checkOk') : t('connection.checkFailed')}
          description={result.ok ? undefined : result.reason && reasonText(result.reason)}
        />
      )}
      <div className="lr-actions lr-actions-split">
        {connected ? (
          <Button icon={<SyncOutlined aria-hidden />} onClick={onCheck} loading={check.isPending}>
            {t('connection.check')}
          </Button>
        ) : (
          <span />
        )}
        <PermissionGuard>
          <Button
            type={connected && !broken ? 'default' : 'primary'}
            icon={<LinkOutlined aria-hidden />}
            onClick={onConnect}
            loading={connecting}
          >
            {connected ? t('connection.reconnect') : t('connection.connect', { crm: crmName })}
          </Button>
        </PermissionGuard>
      </div>
      {children}
    </Card>
  );
}
