import type { DeliveryErrorRecord, DeliveryStatus } from '@leadrelay/shared';
import { Input, Pagination, Table, Tooltip, Typography } from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { EmailText } from '../../../components/email-text';
import { DeliveryStatusTag } from '../../../components/hooks/status-tags';
import { errorMessage } from '../../../lib/errors';
import { formatDateTime, formatShortDateTime } from '../../../lib/hooks/format';
import { usePageSize } from '../../../lib/query-behaviours';
import { useIsMobile } from '../../../lib/use-is-mobile';
import { useRestartErrorMutation, useSuperErrorsQuery } from '../queries';
import { ErrorAttempts, ErrorsCards, RestartButton } from './errors-cards';
import '../../../components/hooks/hooks.css';
import './errors-table.css';
import { useApp } from '../../../lib/use-app';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** A short date in a narrow column; the full one on hover. */
function When({ iso }: { iso: string }) {
  return (
    <Tooltip title={formatDateTime(iso)}>
      <span className="lr-nowrap">{formatShortDateTime(iso)}</span>
    </Tooltip>
  );
}

/** Super-admin: deliveries that failed for good, with their attempts and a restart per record. */
export function ErrorsTable() {
  const { t } = useTranslation('superAdmin');
  const { message } = useApp();
  const mobile = useIsMobile();
  const [limit, setLimit] = usePageSize();
  const [page, setPage] = useState(1);
  const [accountId, setAccountId] = useState<string>();
  const [accountInput, setAccountInput] = useState('');
  const [invalid, setInvalid] = useState(false);
  const [restarting, setRestarting] = useState<string[]>([]);
  const query = useSuperErrorsQuery({ page, limit, accountId });
  const restart = useRestartErrorMutation();

  const filter = (raw: string) => {
    const value = raw.trim();
    if (value && !UUID.test(value)) {
      setInvalid(true);
      return;
    }
    setInvalid(false);
    setAccountId(value || undefined);
    setPage(1);
  };

  const onRestart = async (record: DeliveryErrorRecord) => {
    setRestarting((ids) => [...ids, record._id]);
    try {
      const res = await restart.mutateAsync(record._id);
      if (res.restarted) void message.success(t('errors.restartedToast'));
      else void message.info(t('errors.notRestartedToast'));
    } catch (err) {
      void message.error(errorMessage(err));
    } finally {
      setRestarting((ids) => ids.filter((id) => id !== record._id));
    }
  };

  const data = query.data?.data ?? [];
  const total = query.data?.total ?? 0;
  const paging = {
    current: page,
    pageSize: limit,
    total,
    showSizeChanger: true,
    pageSizeOptions: [10, 20, 50],
    onChange: (p: number, size: number) => {
      if (size !== limit) {
        setLimit(size);
        setPage(1);
      } else setPage(p);
    },
  };
  const never = <Typography.Text type="secondary">{t('errors.never')}</Typography.Text>;

  return (
    <>
      <div className="lr-errors-toolbar">
        <div>
          <Input.Search
            allowClear
            className="lr-errors-account-filter"
            placeholder={t('errors.filterAccount')}
            aria-label={t('errors.filterAccount')}
            status={invalid ? 'error' : undefined}
            value={accountInput}
            onChange={(e) => {
              setAccountInput(e.target.value);
              if (!e.target.value) filter('');
            }}
            onSearch={filter}
          />
          {invalid && (
            <Typography.Text type="danger" className="lr-errors-filter-error">
              {t('errors.accountIdInvalid')}
            </Typography.Text>
          )}
        </div>
        <Typography.Text type="secondary">{t('errors.total', { count: total })}</Typography.Text>
      </div>
      {query.isError && (
        <Typography.Paragraph type="danger" role="alert">
          {errorMessage(query.error)}
        </Typography.Paragraph>
      )}
      {mobile ? (
        <>
          <ErrorsCards data={data} restarting={restarting} onRestart={onRestart} />
          {total > limit && <Pagination className="lr-hooks-pagination" size="small" {...paging} />}
        </>
      ) : (
        <Table<DeliveryErrorRecord>
          rowKey="_id"
          size="small"
          loading={query.isPending || (query.isFetching && query.isPlaceholderData)}
          dataSource={data}
          scroll={{ x: 1080 }}
          locale={{ emptyText: t('errors.empty') }}
          expandable={{
            expandedRowRender: (r) => (
              <div className="lr-errors-attempts">
                <Typography.Text strong>{t('errors.attempts')}</Typography.Text>
                <ErrorAttempts record={r} />
              </div>
            ),
            // `children` is the record's attempts, not nested rows.
            childrenColumnName: 'nestedRows',
          }}
          pagination={{ ...paging, hideOnSinglePage: false }}
          columns={[
            {
              title: t('errors.columns.account'),
              key: 'account',
              width: 180,
              render: (_v, r) => (
                <Tooltip title={r.account._id}>
                  <EmailText value={r.account.login} />
                </Tooltip>
              ),
            },
            {
              title: t('errors.columns.integration'),
              key: 'integration',
              width: 120,
              render: (_v, r) => <span className="lr-break">{r.integration.name}</span>,
            },
            {
              title: t('errors.columns.destination'),
              key: 'destination',
              width: 130,
              render: (_v, r) => (
                <>
                  {r.destination.name}
                  <br />
                  <Typography.Text type="secondary">{r.destination.type}</Typography.Text>
                </>
              ),
            },
            {
              title: t('errors.columns.status'),
              dataIndex: 'status',
              width: 100,
              render: (s: DeliveryStatus) => <DeliveryStatusTag status={s} />,
            },
            {
              title: t('errors.columns.message'),
              dataIndex: 'message',
              render: (m: string) => <span className="lr-break">{m}</span>,
            },
            {
              title: t('errors.columns.created'),
              dataIndex: 'createdAt',
              width: 115,
              render: (iso: string) => <When iso={iso} />,
            },
            {
              title: t('errors.columns.restarted'),
              dataIndex: 'restartedAt',
              width: 140,
              render: (iso: string | null) => (iso ? <When iso={iso} /> : never),
            },
            {
              title: t('errors.columns.actions'),
              key: 'actions',
              width: 90,
              align: 'center',
              fixed: 'right',
              render: (_v, r) => (
                <RestartButton
                  iconOnly
                  record={r}
                  running={restarting.includes(r._id)}
                  onRestart={() => onRestart(r)}
                />
              ),
            },
          ]}
        />
      )}
    </>
  );
}
