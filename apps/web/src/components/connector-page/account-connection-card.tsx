// The `accounts` connections page's card (kit/manifest-accounts.ts): one connection of the account
// with its picture, status and expiry, reconnect, refresh, remove, and its assets: a subscribe
// toggle each and, on demand, their lead forms with "create integration".
import {
  DeleteOutlined,
  DownOutlined,
  PlusOutlined,
  ReloadOutlined,
  RightOutlined,
  SyncOutlined,
} from '@ant-design/icons';
import type { AccountAsset, AccountConnection, LeadFormView } from '@leadrelay/connectors/manifest';
import { Alert, Button, Card, Empty, Popconfirm, Skeleton, Switch, Tag, Typography } from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router';
import {
  useAssetQuery,
  useCreateFormIntegrationMutation,
  useRefreshAssetsMutation,
  useRemoveConnectionMutation,
  useSubscribeMutation,
} from '../../lib/connectors/account-queries';
import { errorMessage } from '../../lib/errors';
import { integrationPath } from '../../lib/integrations/integration-path';
import { useApp } from '../../lib/use-app';
import { ReasonDetails } from '../integrations/reason-details';
import { reasonText } from '../integrations/status-tag';
import { PermissionGuard } from '../permission-guard';
import { AccountAvatar, AccountStatus, type AccountsManifest, useSignIn } from './account-bits';
import type { Say } from './words';

interface Shared {
  manifest: AccountsManifest;
  say: Say;
}

const statusColor = (status: string) => (status === 'ACTIVE' ? 'green' : status === 'ARCHIVED' ? 'default' : 'orange');

/** An asset's lead forms, live from the service, each with its questions and "Create integration". */
function AssetForms({ manifest, say, connectionId, asset }: Shared & { connectionId: string; asset: AccountAsset }) {
  const { message } = useApp();
  const navigate = useNavigate();
  const state = useAssetQuery(manifest, connectionId, asset.id);
  const create = useCreateFormIntegrationMutation(manifest);

  const onCreate = async (form: LeadFormView) => {
    try {
      const saved = await create.mutateAsync({
        name: `${asset.name} — ${form.name}`.slice(0, 100),
        choice: { connection: connectionId, asset: asset.id, form: form.id },
      });
      void message.success(say('forms.created'));
      navigate(integrationPath(saved));
    } catch (err) {
      void message.error(errorMessage(err));
    }
  };

  if (state.isPending) return <Skeleton active paragraph={{ rows: 2 }} />;
  if (state.isError) return <Alert type="error" showIcon title={errorMessage(state.error)} />;
  const { forms } = state.data;
  if (forms.length === 0) return <Empty image={Empty.PRESENTED_IMAGE_SIMPLE} description={say('forms.none')} />;

  return (
    <div className="lr-acc-forms">
      {forms.map((form) => (
        <div key={form.id} className="lr-acc-form" data-testid="account-form">
          <div className="lr-acc-form-main">
            <div className="lr-acc-form-head">
              <Typography.Text strong className="lr-break">
                {form.name}
              </Typography.Text>
              <Tag color={statusColor(form.status)}>
                {say(`forms.statuses.${form.status}`, { defaultValue: form.status })}
              </Tag>
            </div>
            <div className="lr-acc-questions" title={say('forms.questions')}>
              {form.questions.map((q) => (
                <Tag key={q.key} title={q.key}>
                  {q.label}
                </Tag>
              ))}
            </div>
          </div>
          <PermissionGuard>
            <Button
              size="small"
              icon={<PlusOutlined aria-hidden />}
              loading={create.isPending && create.variables?.choice.form === form.id}
              onClick={() => onCreate(form)}
              aria-label={say('forms.createFor', { name: form.name })}
            >
              {say('forms.create')}
            </Button>
          </PermissionGuard>
        </div>
      ))}
    </div>
  );
}

/** One asset of a connection: its subscribe toggle (spec 4, toasts of spec 8) and its lead forms on demand. */
function AssetRow({ manifest, say, connectionId, asset }: Shared & { connectionId: string; asset: AccountAsset }) {
  const { message } = useApp();
  const subscribe = useSubscribeMutation(manifest);
  const [open, setOpen] = useState(false);

  const onToggle = async (value: boolean) => {
    try {
      await subscribe.mutateAsync({ cid: connectionId, aid: asset.id, subscribe: value });
      void message.success(value ? say('pages.subscribed') : say('pages.unsubscribed'));
    } catch {
      // Spec 8: social-network actions show a translated "something went wrong".
      void message.error(say('somethingWrong'));
    }
  };

  return (
    <div className="lr-acc-asset" data-testid="account-asset">
      <div className="lr-acc-asset-head">
        <AccountAvatar manifest={manifest} accountId={asset.id} name={asset.name} size={32} />
        <div className="lr-acc-asset-name">
          <Typography.Text strong className="lr-break">
            {asset.name}
          </Typography.Text>
          {asset.category && <Typography.Text type="secondary">{asset.category}</Typography.Text>}
        </div>
        <span className="lr-acc-subscribe">
          <PermissionGuard>
            <Switch
              checked={asset.subscribed}
              loading={subscribe.isPending}
              onChange={onToggle}
              aria-label={say('pages.subscribeFor', { name: asset.name })}
            />
          </PermissionGuard>
          <Typography.Text type={asset.subscribed ? 'success' : 'secondary'}>
            {asset.subscribed ? say('pages.on') : say('pages.off')}
          </Typography.Text>
        </span>
      </div>
      <Button
        type="link"
        size="small"
        className="lr-acc-forms-toggle"
        icon={open ? <DownOutlined aria-hidden /> : <RightOutlined aria-hidden />}
        onClick={() => setOpen(!open)}
        aria-expanded={open}
      >
        {say('pages.forms')}
      </Button>
      {open && <AssetForms manifest={manifest} say={say} connectionId={connectionId} asset={asset} />}
    </div>
  );
}

/** One connection of the account: picture, status and expiry, reconnect, remove, and its assets. */
export function AccountConnectionCard({
  manifest,
  say,
  connection,
  highlight,
}: Shared & { connection: AccountConnection; highlight?: boolean }) {
  const { t: tc } = useTranslation('common');
  const { message } = useApp();
  const remove = useRemoveConnectionMutation(manifest);
  const refresh = useRefreshAssetsMutation(manifest);
  const { connect, isPending } = useSignIn(manifest);
  const { broken } = connection;

  const onRemove = async () => {
    try {
      await remove.mutateAsync(connection.id);
      void message.success(tc('deleted'));
    } catch {
      void message.error(say('somethingWrong'));
    }
  };
  const onRefresh = async () => {
    try {
      await refresh.mutateAsync(connection.id);
    } catch {
      void message.error(say('somethingWrong'));
    }
  };

  return (
    <Card
      className={`lr-acc-connection${broken ? ' lr-acc-broken' : ''}${highlight ? ' lr-acc-new' : ''}`}
      data-testid="account-connection"
    >
      <div className="lr-acc-conn-head">
        <AccountAvatar manifest={manifest} accountId={connection.accountId} name={connection.name} size={48} />
        <div className="lr-acc-conn-title">
          <Typography.Title level={4} className="lr-acc-conn-name lr-break">
            {connection.name}
          </Typography.Title>
          {connection.email && <Typography.Text type="secondary">{connection.email}</Typography.Text>}
          <AccountStatus connection={connection} warnDays={manifest.accounts.warnDays} say={say} withReason={false} />
        </div>
        <div className="lr-actions lr-acc-conn-actions">
          <Button icon={<SyncOutlined aria-hidden />} onClick={onRefresh} loading={refresh.isPending}>
            {say('connection.refresh')}
          </Button>
          <PermissionGuard>
            <Button
              icon={<ReloadOutlined aria-hidden />}
              type={broken ? 'primary' : 'default'}
              onClick={connect}
              loading={isPending}
            >
              {say('connection.reconnect')}
            </Button>
          </PermissionGuard>
          <PermissionGuard>
            <Popconfirm
              title={say('connection.removeConfirm', { name: connection.name })}
              description={say('connection.removeHint')}
              okText={say('connection.remove')}
              okButtonProps={{ danger: true }}
              cancelText={tc('cancel')}
              onConfirm={onRemove}
            >
              <Button
                danger
                icon={<DeleteOutlined aria-hidden />}
                aria-label={say('connection.removeFor', { name: connection.name })}
              >
                {say('connection.remove')}
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
          title={say('connection.brokenTitle')}
          description={
            <>
              {connection.reason && <div className="lr-break">{reasonText(connection.reason)}</div>}
              <ReasonDetails reason={connection.reason} />
              <div>{say('connection.brokenHint')}</div>
            </>
          }
        />
      )}
      <Typography.Title level={5}>{say('pages.title', { n: connection.assets.length })}</Typography.Title>
      {connection.assets.length === 0 ? (
        <Empty image={Empty.PRESENTED_IMAGE_SIMPLE} description={say('pages.none')} />
      ) : (
        connection.assets.map((a) => (
          <AssetRow key={a.id} manifest={manifest} say={say} connectionId={connection.id} asset={a} />
        ))
      )}
    </Card>
  );
}
