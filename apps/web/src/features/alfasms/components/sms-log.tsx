import { SMS_STATUSES, type SmsMessage, type SmsStatus } from '@leadrelay/shared';
import { Card, Empty, Select, Table, Tag, Typography } from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { formatDateTime, intlLocale } from '../../../lib/format';
import { usePageSize } from '../../../lib/query-behaviours';
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
  const money = (n: number | null) =>
    n === null ? '—' : new Intl.NumberFormat(intlLocale(), { maximumFractionDigits: 4 }).format(n);

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
      <Table<SmsMessage>
        rowKey="_id"
        size="small"
        loading={log.isFetching && !log.data}
        dataSource={log.data?.data ?? []}
        scroll={{ x: 860 }}
        locale={{ emptyText: <Empty image={Empty.PRESENTED_IMAGE_SIMPLE} description={t('log.empty')} /> }}
        pagination={{
          current: page,
          pageSize,
          total: log.data?.total ?? 0,
          hideOnSinglePage: true,
          showSizeChanger: true,
          onChange: (p, size) => {
            setPage(size === pageSize ? p : 1);
            setPageSize(size);
          },
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
            render: (_, m) => (
              <Tag color={STATUS_COLOR[m.status]} data-status={m.status}>
                {t(`status.${m.status}`)}
              </Tag>
            ),
          },
          { key: 'cost', title: t('log.cost'), width: 90, align: 'right', render: (_, m) => money(m.cost) },
        ]}
      />
    </Card>
  );
}
