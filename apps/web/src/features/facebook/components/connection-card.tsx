import { DeleteOutlined, ReloadOutlined, SyncOutlined } from '@ant-design/icons';
import type { FbConnection } from '@leadrelay/shared';
import { Alert, Button, Card, Empty, Popconfirm, Typography } from 'antd';
import { useTranslation } from 'react-i18next';
import { ReasonDetails } from '../../../components/integrations/reason-details';
import { reasonText } from '../../../components/integrations/status-tag';
import { PermissionGuard } from '../../../components/permission-guard';
import { useApp } from '../../../lib/use-app';
import { useRefreshPagesMutation, useRemoveConnectionMutation } from '../queries';
import { ConnectionStatus } from './connection-status';
import { FbAvatar } from './fb-avatar';
import { PageRow } from './page-row';
import { useFacebookConnect } from './use-connect';

/** One connected Facebook profile: picture, status and expiry, reconnect, remove, and its pages. */
export function ConnectionCard({ connection, highlight }: { connection: FbConnection; highlight?: boolean }) {
  const { t } = useTranslation('facebook');
  const { t: tc } = useTranslation('common');
  const { message } = useApp();
  const remove = useRemoveConnectionMutation();
  const refresh = useRefreshPagesMutation();
  const { connect, isPending } = useFacebookConnect();
  const broken = connection.status === 'broken';

  const onRemove = async () => {
    try {
      await remove.mutateAsync(connection._id);
      void message.success(tc('deleted'));
    } catch {
      void message.error(t('somethingWrong'));
    }
  };
  const onRefresh = async () => {
    try {
      await refresh.mutateAsync(connection._id);
    } catch {
      void message.error(t('somethingWrong'));
    }
  };

  return (
    <Card
      className={`lr-fb-connection${broken ? ' lr-fb-broken' : ''}${highlight ? ' lr-fb-new' : ''}`}
      data-testid="fb-connection"
    >
      <div className="lr-fb-conn-head">
        <FbAvatar accountId={connection.fbUserId} name={connection.name} size={48} />
        <div className="lr-fb-conn-title">
          <Typography.Title level={4} className="lr-fb-conn-name lr-break">
            {connection.name}
          </Typography.Title>
          {connection.email && <Typography.Text type="secondary">{connection.email}</Typography.Text>}
          <ConnectionStatus connection={connection} withReason={false} />
        </div>
        <div className="lr-actions lr-fb-conn-actions">
          <Button icon={<SyncOutlined aria-hidden />} onClick={onRefresh} loading={refresh.isPending}>
            {t('connection.refresh')}
          </Button>
          <PermissionGuard>
            <Button
              icon={<ReloadOutlined aria-hidden />}
              type={broken ? 'primary' : 'default'}
              onClick={connect}
              loading={isPending}
            >
              {t('connection.reconnect')}
            </Button>
          </PermissionGuard>
          <PermissionGuard>
            <Popconfirm
              title={t('connection.removeConfirm', { name: connection.name })}
              description={t('connection.removeHint')}
              okText={t('connection.remove')}
              okButtonProps={{ danger: true }}
              cancelText={tc('cancel')}
              onConfirm={onRemove}
            >
              <Button
                danger
                icon={<DeleteOutlined aria-hidden />}
                aria-label={t('connection.removeFor', { name: connection.name })}
              >
                {t('connection.remove')}
              </Button>
            </Popconfirm>
          </PermissionGuard>
        </div>
      </div>
      {broken && (
        <Alert
          className="lr-mb"
          type="error"
          showIcon
          title={t('connection.brokenTitle')}
          description={
            <>
              {connection.statusReason && <div className="lr-break">{reasonText(connection.statusReason)}</div>}
              <ReasonDetails reason={connection.statusReason} />
              <div>{t('connection.brokenHint')}</div>
            </>
          }
        />
      )}
      <Typography.Title level={5}>{t('pages.title', { n: connection.pages.length })}</Typography.Title>
      {connection.pages.length === 0 ? (
        <Empty image={Empty.PRESENTED_IMAGE_SIMPLE} description={t('pages.none')} />
      ) : (
        connection.pages.map((p) => <PageRow key={p.id} connectionId={connection._id} page={p} />)
      )}
    </Card>
  );
}
