import '../facebook.css';
import { FacebookFilled, SwapOutlined } from '@ant-design/icons';
import type { Integration } from '@leadrelay/shared';
import { Alert, Button, Card, Descriptions, Select, Skeleton, Switch, Typography } from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { PermissionGuard } from '../../../components/permission-guard';
import { errorMessage } from '../../../lib/errors';
import { localePath } from '../../../lib/locale';
import { useApp } from '../../../lib/use-app';
import { useFbConnectionsQuery, useFbPageStateQuery, useMigrateMutation, useSubscribeMutation } from '../queries';
import { ConnectionStatus } from './connection-status';
import { FbAvatar } from './fb-avatar';
import { fbSettingsOf } from './fb-settings';
import { useFacebookConnect } from './use-connect';

/** Where a facebook source takes its leads from: connection (health, expiry), page (subscription) and form. */
export function FbSourceCard({ integration }: { integration: Integration }) {
  const { t } = useTranslation('facebook');
  const { message } = useApp();
  const { fbConnectionId, fbPageId, fbFormId } = fbSettingsOf(integration);
  const connections = useFbConnectionsQuery();
  const connection = connections.data?.find((c) => c._id === fbConnectionId);
  const page = connection?.pages.find((p) => p.id === fbPageId);
  const state = useFbPageStateQuery(fbConnectionId, fbPageId, Boolean(page));
  const form = state.data?.leadForms.find((f) => f.id === fbFormId);
  const subscribe = useSubscribeMutation();
  const migrate = useMigrateMutation(integration._id);
  const { connect, isPending: connecting } = useFacebookConnect();
  const [target, setTarget] = useState<string>();

  if (connections.isPending) {
    return (
      <Card title={t('source.title')}>
        <Skeleton active />
      </Card>
    );
  }
  const broken = !connection || connection.status === 'broken';
  const candidates = (connections.data ?? []).filter(
    (c) => c._id !== fbConnectionId && c.pages.some((p) => p.id === fbPageId),
  );
  const isSubscribed = state.data?.isSubscribed ?? page?.isSubscribed ?? false;

  const onToggle = async (value: boolean) => {
    try {
      await subscribe.mutateAsync({ cid: fbConnectionId, aid: fbPageId, subscribe: value });
      void message.success(value ? t('pages.subscribed') : t('pages.unsubscribed'));
    } catch {
      void message.error(t('somethingWrong'));
    }
  };
  const onMigrate = async () => {
    if (!target) return;
    try {
      await migrate.mutateAsync(target);
      setTarget(undefined);
      void message.success(t('source.migrated'));
    } catch (err) {
      void message.error(errorMessage(err));
    }
  };

  return (
    <Card
      title={
        <span>
          <FacebookFilled aria-hidden className="lr-fb-mark" /> {t('source.title')}
        </span>
      }
      extra={<Link to={localePath('/admin/integrations/facebook')}>{t('source.manage')}</Link>}
      data-testid="fb-source"
    >
      {connections.isError && <Alert type="error" showIcon title={errorMessage(connections.error)} />}
      <Descriptions column={1} size="small" className="lr-mb">
        <Descriptions.Item label={t('source.connection')}>
          {connection ? (
            <span className="lr-fb-inline">
              <FbAvatar accountId={connection.fbUserId} name={connection.name} size={24} />
              <span className="lr-break">{connection.name}</span>
              <ConnectionStatus connection={connection} withReason={false} />
            </span>
          ) : (
            <Typography.Text type="danger">{t('source.connectionGone')}</Typography.Text>
          )}
        </Descriptions.Item>
        <Descriptions.Item label={t('source.page')}>
          {page ? (
            <span className="lr-fb-inline">
              <span className="lr-break">{page.name}</span>
              <PermissionGuard>
                <Switch
                  size="small"
                  checked={isSubscribed}
                  disabled={broken}
                  loading={subscribe.isPending}
                  onChange={onToggle}
                  aria-label={t('pages.subscribeFor', { name: page.name })}
                />
              </PermissionGuard>
              <Typography.Text type={isSubscribed ? 'success' : 'warning'}>
                {isSubscribed ? t('pages.on') : t('pages.off')}
              </Typography.Text>
            </span>
          ) : (
            <Typography.Text type="secondary">{fbPageId || '—'}</Typography.Text>
          )}
        </Descriptions.Item>
        <Descriptions.Item label={t('source.form')}>
          {form ? (
            <span className="lr-break">{form.name}</span>
          ) : state.isFetching ? (
            <Skeleton.Input size="small" active />
          ) : (
            <Typography.Text type="secondary">{fbFormId || '—'}</Typography.Text>
          )}
        </Descriptions.Item>
      </Descriptions>
      {page && !isSubscribed && !broken && (
        <Alert className="lr-mb" type="warning" showIcon title={t('source.notSubscribed')} />
      )}
      {broken && (
        <Alert
          type="error"
          showIcon
          title={connection ? t('source.brokenTitle') : t('source.goneTitle')}
          description={
            <div className="lr-fb-stack">
              <span>{candidates.length ? t('source.migrateHint') : t('source.reconnectHint')}</span>
              {candidates.length > 0 && (
                <div className="lr-fb-migrate">
                  <Select
                    aria-label={t('source.migrateTo')}
                    placeholder={t('source.migrateTo')}
                    value={target}
                    onChange={setTarget}
                    className="lr-fb-migrate-select"
                    options={candidates.map((c) => ({
                      value: c._id,
                      label: `${c.name}${c.status === 'broken' ? ` (${t('status.broken')})` : ''}`,
                    }))}
                  />
                  <PermissionGuard>
                    <Button
                      icon={<SwapOutlined aria-hidden />}
                      disabled={!target}
                      loading={migrate.isPending}
                      onClick={onMigrate}
                    >
                      {t('source.migrate')}
                    </Button>
                  </PermissionGuard>
                </div>
              )}
              <PermissionGuard>
                <Button type="primary" icon={<FacebookFilled aria-hidden />} onClick={connect} loading={connecting}>
                  {t('connection.reconnect')}
                </Button>
              </PermissionGuard>
            </div>
          }
        />
      )}
    </Card>
  );
}
