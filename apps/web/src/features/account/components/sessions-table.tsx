import type { Session } from '@leadrelay/shared';
import { Button, Card, Popconfirm, Table, Tag } from 'antd';
import { useTranslation } from 'react-i18next';
import { errorMessage } from '../../../lib/errors';
import { formatDateTime } from '../../../lib/format';
import { useHiddenActions, usePageSize } from '../../../lib/query-behaviours';
import { useApp } from '../../../lib/use-app';
import { useRevokeSessionMutation, useSessionsQuery } from '../queries';

/** "Chrome on Windows" from a user-agent string, good enough to recognise a device. */
export function describeAgent(ua: string): string | null {
  if (!ua) return null;
  const browser = /Edg\//.test(ua)
    ? 'Edge'
    : /OPR\//.test(ua)
      ? 'Opera'
      : /Firefox\//.test(ua)
        ? 'Firefox'
        : /Chrom(e|ium)\//.test(ua)
          ? 'Chrome'
          : /Safari\//.test(ua)
            ? 'Safari'
            : null;
  const os = /Windows/.test(ua)
    ? 'Windows'
    : /Android/.test(ua)
      ? 'Android'
      : /iPhone|iPad/.test(ua)
        ? 'iOS'
        : /Mac OS X/.test(ua)
          ? 'macOS'
          : /Linux/.test(ua)
            ? 'Linux'
            : null;
  if (!browser && !os) return ua.slice(0, 40);
  return [browser, os].filter(Boolean).join(' · ');
}

export function SessionsTable() {
  const { t } = useTranslation('account');
  const { message } = useApp();
  const [pageSize, setPageSize] = usePageSize();
  const sessions = useSessionsQuery();
  const revoke = useRevokeSessionMutation();
  const { isHidden } = useHiddenActions();

  const run = async (id: string | 'all') => {
    try {
      await revoke.mutateAsync(id);
      void message.success(id === 'all' ? t('sessions.revokedAll') : t('sessions.revokedOne'));
    } catch (err) {
      void message.error(errorMessage(err));
    }
  };

  return (
    <Card
      title={t('sessions.title')}
      extra={
        !isHidden('revoke-all') && (
          <Popconfirm title={t('sessions.revokeAllConfirm')} onConfirm={() => run('all')}>
            <Button danger size="small">
              {t('sessions.revokeAll')}
            </Button>
          </Popconfirm>
        )
      }
    >
      <Table<Session>
        rowKey="id"
        size="small"
        loading={sessions.isPending}
        dataSource={sessions.data?.data ?? []}
        scroll={{ x: 640 }}
        pagination={{
          pageSize,
          showSizeChanger: true,
          pageSizeOptions: [10, 20, 50],
          hideOnSinglePage: false,
          onShowSizeChange: (_page, size) => setPageSize(size),
        }}
        columns={[
          {
            title: t('sessions.device'),
            dataIndex: 'userAgent',
            render: (ua: string) => describeAgent(ua) ?? t('sessions.unknownDevice'),
          },
          { title: t('sessions.ip'), dataIndex: 'ip' },
          { title: t('sessions.created'), dataIndex: 'createdAt', render: formatDateTime },
          { title: t('sessions.lastUsed'), dataIndex: 'lastUsedAt', render: formatDateTime },
          {
            title: t('sessions.status'),
            key: 'status',
            render: (_v, s) =>
              s.isCurrent ? (
                <Tag color="green">{t('sessions.current')}</Tag>
              ) : s.isRevoked ? (
                <Tag>{t('sessions.revoked')}</Tag>
              ) : (
                <Tag color="blue">{t('sessions.active')}</Tag>
              ),
          },
          {
            key: 'actions',
            align: 'right',
            render: (_v, s) =>
              !s.isCurrent && !s.isRevoked ? (
                <Button size="small" onClick={() => run(s.id)}>
                  {t('sessions.revoke')}
                </Button>
              ) : null,
          },
        ]}
      />
    </Card>
  );
}
