import type { ApiKey } from '@leadrelay/shared';
import './api-keys.css';
import { Button, Card, Empty, Popconfirm, Table, Tag, Typography } from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { errorMessage } from '../../../lib/errors';
import { intlLocale } from '../../../lib/format';
import { useApp } from '../../../lib/use-app';
import { useIsMobile } from '../../../lib/use-is-mobile';
import { useApiKeysQuery, useRevokeApiKeyMutation } from '../queries';
import { CreateApiKeyDialog } from './create-api-key-dialog';

/** A moment in the account's time zone, in the interface language ("22 Nov 2026, 14:05"). */
export function formatInZone(iso: string, timeZone: string): string {
  const options = { dateStyle: 'medium', timeStyle: 'short' } as const;
  try {
    return new Intl.DateTimeFormat(intlLocale(), { ...options, timeZone }).format(new Date(iso));
  } catch {
    // A zone this browser does not know: its own.
    return new Intl.DateTimeFormat(intlLocale(), options).format(new Date(iso));
  }
}

function ScopeTag({ scope }: { scope: ApiKey['scope'] }) {
  const { t } = useTranslation('account');
  return <Tag color={scope === 'write' ? 'orange' : 'blue'}>{t(`apiKeys.scopes.${scope}`)}</Tag>;
}

interface ListProps {
  keys: ApiKey[];
  loading: boolean;
  timeZone: string;
  onRevoke: (key: ApiKey) => void;
}

function RevokeButton({ apiKey, onRevoke }: { apiKey: ApiKey; onRevoke: (key: ApiKey) => void }) {
  const { t } = useTranslation('account');
  const { t: tc } = useTranslation('common');
  return (
    <Popconfirm
      title={t('apiKeys.revokeConfirm', { name: apiKey.name })}
      description={t('apiKeys.revokeText')}
      okText={t('apiKeys.revoke')}
      okButtonProps={{ danger: true }}
      cancelText={tc('cancel')}
      onConfirm={() => onRevoke(apiKey)}
    >
      <Button size="small" danger>
        {t('apiKeys.revoke')}
      </Button>
    </Popconfirm>
  );
}

/** On a phone: one card a key, its name and scope first, nothing to scroll sideways. */
function KeyCards({ keys, timeZone, onRevoke }: ListProps) {
  const { t } = useTranslation('account');
  return (
    <ul className="lr-api-key-cards" aria-label={t('apiKeys.title')}>
      {keys.map((k) => (
        <li key={k.id} className="lr-api-key-card" data-testid="api-key-card">
          <div className="lr-api-key-card-head">
            <span className="lr-api-key-name">{k.name}</span>
            <ScopeTag scope={k.scope} />
          </div>
          <dl className="lr-api-key-facts">
            <div>
              <dt>{t('apiKeys.prefix')}</dt>
              <dd className="lr-api-key-prefix">{k.prefix}…</dd>
            </div>
            <div>
              <dt>{t('apiKeys.created')}</dt>
              <dd>{formatInZone(k.createdAt, timeZone)}</dd>
            </div>
            <div>
              <dt>{t('apiKeys.lastUsed')}</dt>
              <dd>{k.lastUsedAt ? formatInZone(k.lastUsedAt, timeZone) : t('apiKeys.never')}</dd>
            </div>
          </dl>
          <RevokeButton apiKey={k} onRevoke={onRevoke} />
        </li>
      ))}
    </ul>
  );
}

function KeyRows({ keys, loading, timeZone, onRevoke }: ListProps) {
  const { t } = useTranslation('account');
  return (
    <Table<ApiKey>
      rowKey="id"
      size="small"
      loading={loading}
      dataSource={keys}
      pagination={false}
      scroll={{ x: 720 }}
      columns={[
        {
          title: t('apiKeys.name'),
          dataIndex: 'name',
          render: (name: string) => <span className="lr-api-key-name">{name}</span>,
        },
        {
          title: t('apiKeys.scope'),
          dataIndex: 'scope',
          render: (scope: ApiKey['scope']) => <ScopeTag scope={scope} />,
        },
        {
          title: t('apiKeys.prefix'),
          dataIndex: 'prefix',
          render: (prefix: string) => <span className="lr-api-key-prefix">{prefix}…</span>,
        },
        {
          title: t('apiKeys.created'),
          dataIndex: 'createdAt',
          render: (iso: string) => formatInZone(iso, timeZone),
        },
        {
          title: t('apiKeys.lastUsed'),
          dataIndex: 'lastUsedAt',
          render: (iso: string | null) => (iso ? formatInZone(iso, timeZone) : t('apiKeys.never')),
        },
        { key: 'actions', align: 'right', render: (_v, k) => <RevokeButton apiKey={k} onRevoke={onRevoke} /> },
      ]}
    />
  );
}

/** /admin/account "API keys": the account's live keys, making one (shown once) and revoking one. */
export function ApiKeysCard({ timeZone }: { timeZone: string }) {
  const { t } = useTranslation('account');
  const { message } = useApp();
  const keys = useApiKeysQuery();
  const revoke = useRevokeApiKeyMutation();
  const mobile = useIsMobile();
  const [creating, setCreating] = useState(false);

  const onRevoke = async (key: ApiKey) => {
    try {
      await revoke.mutateAsync(key.id);
      void message.success(t('apiKeys.revoked', { name: key.name }));
    } catch (err) {
      void message.error(errorMessage(err));
    }
  };
  const data = keys.data?.data ?? [];
  const full = !!keys.data && keys.data.total >= keys.data.max;
  const list: ListProps = { keys: data, loading: keys.isPending, timeZone, onRevoke: (k) => void onRevoke(k) };

  return (
    <Card
      title={t('apiKeys.title')}
      className="lr-api-keys"
      extra={
        <Button type="primary" size="small" disabled={full} onClick={() => setCreating(true)}>
          {t('apiKeys.create')}
        </Button>
      }
    >
      <Typography.Paragraph type="secondary">
        {t('apiKeys.intro')} <code className="lr-api-key-header">Authorization: Bearer lr_…</code>
      </Typography.Paragraph>
      <Typography.Paragraph type="secondary">
        {t('apiKeys.mcp')} <code className="lr-api-key-header">{`${window.location.origin}/mcp`}</code>
      </Typography.Paragraph>
      {full && <Typography.Paragraph type="warning">{t('apiKeys.full', { max: keys.data?.max })}</Typography.Paragraph>}
      {keys.isError && <Typography.Paragraph type="danger">{errorMessage(keys.error)}</Typography.Paragraph>}
      {!keys.isPending && data.length === 0 ? (
        <Empty image={Empty.PRESENTED_IMAGE_SIMPLE} description={t('apiKeys.empty')} />
      ) : mobile ? (
        <KeyCards {...list} />
      ) : (
        <KeyRows {...list} />
      )}
      <CreateApiKeyDialog open={creating} onClose={() => setCreating(false)} />
    </Card>
  );
}
