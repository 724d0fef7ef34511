import { Card, Empty, Pagination, Select, Table, Tooltip, Typography } from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { EmailText } from '../../../components/email-text';
import { ServerError } from '../../../components/server-error';
import { formatDateTime } from '../../../lib/format';
import { usePageSize } from '../../../lib/query-behaviours';
import { useIsMobile } from '../../../lib/use-is-mobile';
import type { AuditEntry } from '../api';
import '../audit.css';
import { useAuditQuery } from '../queries';

/** The actions the app records (docs/audit.md); the filter also takes a prefix (`user`). */
const ACTIONS = [
  'user',
  'user.enter',
  'user.create',
  'user.update',
  'user.reset-password',
  'user.delete',
  'user.hard-delete',
  'user.orphans',
  'translation',
  'language.add',
] as const;

const KNOWN = new Set<string>([...ACTIONS, 'user.leave', 'translation.update', 'translation.delete']);
/** `user.hard-delete` → `userHardDelete`; a bare prefix (`user`) → `userAll`. */
const labelKey = (action: string) =>
  action.includes('.') ? action.replace(/[.-](\w)/g, (_m, c: string) => c.toUpperCase()) : `${action}All`;

/** What changed, readably: `field: before → after` per line, or the parameters as they are. */
function Details({ details }: { details: Record<string, unknown> }) {
  const lines = Object.entries(details).map(([key, value]) => {
    if (Array.isArray(value) && value.length === 2) {
      const show = (v: unknown) => (v === null || v === undefined || v === '' ? '∅' : String(v));
      return `${key}: ${show(value[0])} → ${show(value[1])}`;
    }
    return `${key}: ${typeof value === 'object' ? JSON.stringify(value) : String(value)}`;
  });
  if (lines.length === 0) return <Typography.Text type="secondary">—</Typography.Text>;
  return (
    <div className="lr-audit-details">
      {lines.map((line) => (
        <div key={line} className="lr-break">
          {line}
        </div>
      ))}
    </div>
  );
}

/** On a phone: one block per entry, nothing to scroll sideways. */
function AuditCards({
  data,
  label,
  empty,
  pagination,
}: {
  data: AuditEntry[];
  label: (action: string) => string;
  empty: string;
  pagination: { current: number; pageSize: number; total: number; onChange: (page: number) => void };
}) {
  if (data.length === 0) return <Empty description={empty} image={Empty.PRESENTED_IMAGE_SIMPLE} />;
  return (
    <>
      {data.map((e) => (
        <div key={e._id} className="lr-audit-card">
          <Typography.Text strong>{label(e.action)}</Typography.Text>
          <div className="lr-break">{e.targetLabel ?? e.targetId ?? '—'}</div>
          <Details details={e.details} />
          <Typography.Text type="secondary" className="lr-break">
            {formatDateTime(e.createdAt)} · {e.actor.login} · {e.ip ?? '—'}
          </Typography.Text>
        </div>
      ))}
      {pagination.total > pagination.pageSize && (
        <Pagination className="lr-audit-pagination" size="small" {...pagination} showSizeChanger={false} />
      )}
    </>
  );
}

/** /admin/super/audit: who did what, when and from where; read-only. */
export function AuditPage() {
  const { t } = useTranslation('audit');
  const [limit, setLimit] = usePageSize();
  const [page, setPage] = useState(1);
  const [action, setAction] = useState<string>();
  const query = useAuditQuery({ page, limit, action });
  const mobile = useIsMobile();
  const actionLabel = (a: string) => (KNOWN.has(a) ? t(`actions.${labelKey(a)}` as 'actions.userAll') : a);

  return (
    <div className="lr-page">
      <Typography.Title level={2} className="lr-page-title">
        {t('title')}
      </Typography.Title>
      <Typography.Paragraph type="secondary">{t('subtitle')}</Typography.Paragraph>
      <Card>
        <div className="lr-audit-toolbar">
          <Select<string>
            aria-label={t('filter')}
            value={action ?? 'all'}
            onChange={(v) => {
              setAction(v === 'all' ? undefined : v);
              setPage(1);
            }}
            options={[
              { value: 'all', label: t('allActions') },
              ...ACTIONS.map((a) => ({ value: a, label: actionLabel(a) })),
            ]}
            style={{ minWidth: 220 }}
          />
        </div>
        {query.isError && <ServerError error={query.error} />}
        {mobile ? (
          <AuditCards
            data={query.data?.data ?? []}
            label={actionLabel}
            empty={t('empty')}
            pagination={{ current: page, pageSize: limit, total: query.data?.total ?? 0, onChange: setPage }}
          />
        ) : (
          <Table<AuditEntry>
            rowKey="_id"
            size="small"
            loading={query.isPending || (query.isFetching && query.isPlaceholderData)}
            dataSource={query.data?.data ?? []}
            scroll={{ x: 900 }}
            locale={{ emptyText: t('empty') }}
            pagination={{
              current: page,
              pageSize: limit,
              total: query.data?.total ?? 0,
              showSizeChanger: true,
              pageSizeOptions: [10, 20, 50],
              onChange: (p, size) => {
                if (size !== limit) {
                  setLimit(size);
                  setPage(1);
                } else setPage(p);
              },
            }}
            columns={[
              {
                title: t('columns.when'),
                key: 'when',
                width: 170,
                render: (_v, e) => <span className="lr-nowrap">{formatDateTime(e.createdAt)}</span>,
              },
              {
                title: t('columns.who'),
                key: 'who',
                width: 200,
                render: (_v, e) => <EmailText value={e.actor.login} />,
              },
              { title: t('columns.action'), key: 'action', width: 180, render: (_v, e) => actionLabel(e.action) },
              {
                title: t('columns.target'),
                key: 'target',
                width: 220,
                render: (_v, e) => (
                  <Tooltip title={e.targetId}>
                    <span className="lr-break">{e.targetLabel ?? e.targetId ?? '—'}</span>
                  </Tooltip>
                ),
              },
              { title: t('columns.details'), key: 'details', render: (_v, e) => <Details details={e.details} /> },
              {
                title: t('columns.from'),
                key: 'from',
                width: 150,
                render: (_v, e) => (
                  <Tooltip title={e.userAgent}>
                    <span className="lr-nowrap">{e.ip ?? '—'}</span>
                  </Tooltip>
                ),
              },
            ]}
          />
        )}
      </Card>
    </div>
  );
}
