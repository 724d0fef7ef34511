import type { Session } from '@leadrelay/shared';
import './sessions.css';
import { Button, Card, Pagination, Popconfirm, Table, Tag } from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { errorMessage } from '../../../lib/errors';
import { formatDateTime } from '../../../lib/format';
import { useHiddenActions, usePageSize } from '../../../lib/query-behaviours';
import { useApp } from '../../../lib/use-app';
import { useIsMobile } from '../../../lib/use-is-mobile';
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

function StatusTag({ session }: { session: Session }) {
  const { t } = useTranslation('account');
  if (session.isCurrent) return <Tag color="green">{t('sessions.current')}</Tag>;
  if (session.isRevoked) return <Tag>{t('sessions.revoked')}</Tag>;
  return <Tag color="blue">{t('sessions.active')}</Tag>;
}

interface ListProps {
  sessions: Session[];
  loading: boolean;
  pageSize: number;
  onPageSize: (size: number) => void;
  onRevoke: (id: string) => void;
}

/**
 * On a phone each session is a card, the device and its state first, then where and when, so
 * nothing is cut off at the screen's edge as a table's columns were.
 */
function SessionCards({ sessions, pageSize, onPageSize, onRevoke }: ListProps) {
  const { t } = useTranslation('account');
  const [page, setPage] = useState(1);
  const last = Math.max(1, Math.ceil(sessions.length / pageSize));
  const current = Math.min(page, last);
  const shown = sessions.slice((current - 1) * pageSize, current * pageSize);
  return (
    <>
      <ul className="lr-session-cards" aria-label={t('sessions.title')}>
        {shown.map((s) => (
          <li key={s.id} className="lr-session-card" data-testid="session-card">
            <div className="lr-session-card-head">
              <span className="lr-session-device">{describeAgent(s.userAgent) ?? t('sessions.unknownDevice')}</span>
              <StatusTag session={s} />
            </div>
            <dl className="lr-session-facts">
              {(
                [
                  ['ip', s.ip],
                  ['lastUsed', formatDateTime(s.lastUsedAt)],
                  ['created', formatDateTime(s.createdAt)],
                ] as const
              ).map(([key, value]) => (
                <div key={key}>
                  <dt>{t(`sessions.${key}`)}</dt>
                  <dd>{value}</dd>
                </div>
              ))}
            </dl>
            {!s.isCurrent && !s.isRevoked && (
              <Button size="small" onClick={() => onRevoke(s.id)}>
                {t('sessions.revoke')}
              </Button>
            )}
          </li>
        ))}
      </ul>
      {sessions.length > pageSize && (
        <Pagination
          className="lr-session-pages"
          size="small"
          current={current}
          pageSize={pageSize}
          total={sessions.length}
          onChange={(p, size) => {
            setPage(size === pageSize ? p : 1);
            onPageSize(size);
          }}
        />
      )}
    </>
  );
}

function SessionRows({ sessions, loading, pageSize, onPageSize, onRevoke }: ListProps) {
  const { t } = useTranslation('account');
  return (
    <Table<Session>
      rowKey="id"
      size="small"
      loading={loading}
      dataSource={sessions}
      scroll={{ x: 640 }}
      pagination={{
        pageSize,
        showSizeChanger: true,
        pageSizeOptions: [10, 20, 50],
        hideOnSinglePage: false,
        onShowSizeChange: (_page, size) => onPageSize(size),
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
        { title: t('sessions.status'), key: 'status', render: (_v, s) => <StatusTag session={s} /> },
        {
          key: 'actions',
          align: 'right',
          render: (_v, s) =>
            !s.isCurrent && !s.isRevoked ? (
              <Button size="small" onClick={() => onRevoke(s.id)}>
                {t('sessions.revoke')}
              </Button>
            ) : null,
        },
      ]}
    />
  );
}

/** This session, then the other active ones, then the ended ones (listed under them, marked). */
export function inOrder(sessions: readonly Session[]): Session[] {
  const rank = (s: Session) => (s.isCurrent ? 0 : s.isRevoked ? 2 : 1);
  return [...sessions].sort((a, b) => rank(a) - rank(b) || b.lastUsedAt.localeCompare(a.lastUsedAt));
}

export function SessionsTable() {
  const { t } = useTranslation('account');
  const { message } = useApp();
  const [pageSize, setPageSize] = usePageSize();
  const sessions = useSessionsQuery();
  const revoke = useRevokeSessionMutation();
  const { isHidden } = useHiddenActions();
  const mobile = useIsMobile();

  const run = async (id: string | 'all') => {
    try {
      await revoke.mutateAsync(id);
      void message.success(id === 'all' ? t('sessions.revokedAll') : t('sessions.revokedOne'));
    } catch (err) {
      void message.error(errorMessage(err));
    }
  };
  const list: ListProps = {
    sessions: inOrder(sessions.data?.data ?? []),
    loading: sessions.isPending,
    pageSize,
    onPageSize: setPageSize,
    onRevoke: (id) => void run(id),
  };

  return (
    <Card
      title={t('sessions.title')}
      className="lr-sessions"
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
      {mobile ? <SessionCards {...list} /> : <SessionRows {...list} />}
    </Card>
  );
}
