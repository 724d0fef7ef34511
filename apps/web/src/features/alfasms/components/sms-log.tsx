import { SMS_STATUSES, type SmsMessage, type SmsStatus } from '@leadrelay/shared';
import { Card, Empty, Pagination, Select, Table, Tag, Typography } from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { formatDateTime, intlLocale } from '../../../lib/format';
import { usePageSize } from '../../../lib/query-behaviours';
import { useIsMobile } from '../../../lib/use-is-mobile';
import { useSmsLog } from '../queries';

const STATUS_COLOR: Record<SmsStatus, string> = {
  sent: 'blue',
  delivered: 'green',
  read: 'cyan',
  undelivered: 'red',
  expired: 'orange',
};

const phoneText = (digits: string) => `+${digits}`;

/** The messages this integration sent, newest first: when, to whom, the text, parts, status and cost. */
export function SmsLog({ integrationId }: { integrationId: string }) {
  const { t } = useTranslation('sms');
  const [pageSize, setPageSize] = usePageSize();
  const [page, setPage] = useState(1);
  const [status, setStatus] = useState<SmsStatus | undefined>(undefined);
  const log = useSmsLog({ page, limit: pageSize, integrationId, status });
  const mobile = useIsMobile();
  const money = (n: number | null) =>
    n === null
      ? '—'
      : new Intl.NumberFormat(intlLocale(), { minimumFractionDigits: 2, maximumFractionDigits: 4 }).format(n);
  const rows = log.data?.data ?? [];
  const total = log.data?.total ?? 0;
  const onPage = (p: number, size: number) => {
    setPage(size === pageSize ? p : 1);
    setPageSize(size);
  };
  const statusTag = (m: SmsMessage) => (
    <Tag color={STATUS_COLOR[m.status]} data-status={m.status}>
      {t(`status.${m.status}`)}
    </Tag>
  );

  return (
    <Card
      title={t('log.title')}
      extra={
        <Select<SmsStatus | 'all'>
          value={status ?? 'all'}
          onChange={(v) => {
            setStatus(v === 'all' ? undefined : v);
            setPage(1);
          }}
          options={[
            { value: 'all', label: t('log.allStatuses') },
            ...SMS_STATUSES.map((s) => ({ value: s, label: t(`status.${s}`) })),
          ]}
          aria-label={t('log.status')}
          className="lr-sms-status-filter"
        />
      }
    >
      <Typography.Paragraph type="secondary" className="lr-hint">
        {t('log.hint')}
      </Typography.Paragraph>
      {mobile ? (
        <>
          {!rows.length && !log.isFetching && (
            <Empty image={Empty.PRESENTED_IMAGE_SIMPLE} description={t('log.empty')} />
          )}
          <div className="lr-sms-cards">
            {rows.map((m) => (
              <div key={m._id} className="lr-sms-card" data-testid="sms-card">
                <div className="lr-sms-card-head">
                  <Typography.Text type="secondary">{formatDateTime(m.createdAt)}</Typography.Text>
                  {statusTag(m)}
                </div>
                <div className="lr-sms-log-text">{m.text}</div>
                <div className="lr-sms-card-meta">
                  <span className="lr-mono">{phoneText(m.phone)}</span>
                  <Typography.Text type="secondary">{t(`recipients.${m.recipient}`)}</Typography.Text>
                  <Typography.Text type="secondary">
                    {t('log.parts')}: {m.parts}
                    {m.channel !== 'sms' && ' · Viber'}
                  </Typography.Text>
                  {m.cost !== null && (
                    <Typography.Text type="secondary">
                      {t('log.cost')}: {money(m.cost)}
                    </Typography.Text>
                  )}
                </div>
              </div>
            ))}
          </div>
          {total > pageSize && (
            <Pagination
              className="lr-mt"
              current={page}
              pageSize={pageSize}
              total={total}
              onChange={onPage}
              size="small"
            />
          )}
        </>
      ) : (
        <Table<SmsMessage>
          rowKey="_id"
          size="small"
          loading={log.isFetching && !log.data}
          dataSource={rows}
          scroll={{ x: 860 }}
          locale={{ emptyText: <Empty image={Empty.PRESENTED_IMAGE_SIMPLE} description={t('log.empty')} /> }}
          pagination={{
            current: page,
            pageSize,
            total,
            hideOnSinglePage: true,
            showSizeChanger: true,
            onChange: onPage,
          }}
          columns={[
            { key: 'at', title: t('log.at'), width: 150, render: (_, m) => formatDateTime(m.createdAt) },
            {
              key: 'to',
              title: t('log.to'),
              width: 170,
              render: (_, m) => (
                <span>
                  <span className="lr-mono">{phoneText(m.phone)}</span>
                  <br />
                  <Typography.Text type="secondary">{t(`recipients.${m.recipient}`)}</Typography.Text>
                </span>
              ),
            },
            {
              key: 'text',
              title: t('log.text'),
              render: (_, m) => <div className="lr-sms-log-text">{m.text}</div>,
            },
            {
              key: 'parts',
              title: t('log.parts'),
              width: 80,
              render: (_, m) => (
                <span>
                  {m.parts}
                  {m.channel !== 'sms' && (
                    <>
                      <br />
                      <Typography.Text type="secondary">Viber</Typography.Text>
                    </>
                  )}
                </span>
              ),
            },
            {
              key: 'status',
              title: t('log.status'),
              width: 130,
              render: (_, m) => statusTag(m),
            },
            { key: 'cost', title: t('log.cost'), width: 90, align: 'right', render: (_, m) => money(m.cost) },
          ]}
        />
      )}
    </Card>
  );
}
