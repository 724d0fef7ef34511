import type { Client } from '@leadrelay/shared';
import { Empty, Pagination, Table, Tag, Tooltip, Typography } from 'antd';
import { useTranslation } from 'react-i18next';
import { EmailText } from '../../../components/email-text';
import { usePrice } from '../../../lib/currency';
import { formatDate } from '../../../lib/format';
import { useIsMobile } from '../../../lib/use-is-mobile';
import { ClientActions, type ClientDialog } from './client-actions';

export interface ClientsTableProps {
  data: Client[];
  loading: boolean;
  me: { _id: string; role: Client['role'] };
  pagination: {
    current: number;
    pageSize: number;
    total: number;
    onChange: (page: number, size: number) => void;
  };
  onOpen: (dialog: ClientDialog, client: Client) => void;
}

function StatusTag({ client }: { client: Client }) {
  const { t } = useTranslation('clients');
  if (client.deletedAt) return <Tag color="default">{t('status.deleted')}</Tag>;
  return client.isActive ? (
    <Tag color="green">{t('status.active')}</Tag>
  ) : (
    <Tag color="orange">{t('status.inactive')}</Tag>
  );
}

/** On a phone: one card per account, its login whole, the actions beside it. */
function ClientCards({ data, me, pagination, onOpen }: ClientsTableProps) {
  const { t } = useTranslation('clients');
  if (data.length === 0) return <Empty description={t('empty')} image={Empty.PRESENTED_IMAGE_SIMPLE} />;
  return (
    <>
      {data.map((c) => (
        <div key={c._id} className="lr-client-card">
          <div className="lr-client-card-head">
            <Typography.Link onClick={() => onOpen('stats', c)}>
              <EmailText value={c.login} />
            </Typography.Link>
            <ClientActions client={c} me={me} onOpen={onOpen} />
          </div>
          <div className="lr-client-card-meta">
            <StatusTag client={c} />
            <Typography.Text type="secondary">
              {t(`roles.${c.role}`)} · {c.planTitle ?? t('demo')}
              {c.expDate ? ` · ${t('columns.expDate')} ${formatDate(c.expDate)}` : ''}
            </Typography.Text>
          </div>
        </div>
      ))}
      {pagination.total > pagination.pageSize && (
        <Pagination className="lr-clients-pagination" size="small" {...pagination} showSizeChanger={false} />
      )}
    </>
  );
}

export function ClientsTable(props: ClientsTableProps) {
  const { data, loading, me, pagination, onOpen } = props;
  const { t } = useTranslation('clients');
  const mobile = useIsMobile();
  // A balance is money: in the currency the operator chose, like every amount of the app.
  const price = usePrice();
  if (mobile) return <ClientCards {...props} />;
  return (
    <Table<Client>
      rowKey="_id"
      size="small"
      loading={loading}
      dataSource={data}
      scroll={{ x: 1040 }}
      className="lr-clients-table"
      locale={{ emptyText: t('empty') }}
      pagination={{ ...pagination, showSizeChanger: true, pageSizeOptions: [10, 20, 50] }}
      columns={[
        {
          title: t('columns.login'),
          key: 'login',
          render: (_v, c) => (
            <div>
              <Typography.Link onClick={() => onOpen('stats', c)}>
                <EmailText value={c.login} />
              </Typography.Link>
              {(c.name || c.company) && (
                <div>
                  <Typography.Text type="secondary" className="lr-break">
                    {[c.name, c.company].filter(Boolean).join(' · ')}
                  </Typography.Text>
                </div>
              )}
            </div>
          ),
        },
        { title: t('columns.status'), key: 'status', width: 110, render: (_v, c) => <StatusTag client={c} /> },
        { title: t('columns.role'), key: 'role', width: 120, render: (_v, c) => t(`roles.${c.role}`) },
        {
          title: t('columns.plan'),
          key: 'plan',
          width: 140,
          render: (_v, c) => c.planTitle ?? <Typography.Text type="secondary">{t('demo')}</Typography.Text>,
        },
        {
          title: t('columns.expDate'),
          key: 'expDate',
          width: 150,
          render: (_v, c) => <span className="lr-nowrap">{c.expDate ? formatDate(c.expDate) : '—'}</span>,
        },
        {
          title: t('columns.credit'),
          key: 'credit',
          width: 100,
          align: 'right',
          render: (_v, c) => <span className="lr-nowrap">{price(c.credit)}</span>,
        },
        {
          title: t('columns.createdAt'),
          key: 'createdAt',
          width: 150,
          render: (_v, c) => (
            <Tooltip title={c._id}>
              <span className="lr-nowrap">{formatDate(c.createdAt)}</span>
            </Tooltip>
          ),
        },
        {
          title: '',
          key: 'actions',
          width: 130,
          fixed: 'right',
          render: (_v, c) => <ClientActions client={c} me={me} onOpen={onOpen} />,
        },
      ]}
    />
  );
}
