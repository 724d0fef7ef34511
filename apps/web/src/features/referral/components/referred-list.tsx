import type { Referral } from '@leadrelay/shared';
import { Card, Empty, Pagination, Table, Tag, Typography } from 'antd';
import { useTranslation } from 'react-i18next';
import { formatDate } from '../../../lib/format';
import { useIsMobile } from '../../../lib/use-is-mobile';

const STATUS_COLORS: Record<Referral['status'], string> = { demo: 'gold', paid: 'green', expired: 'default' };

function StatusTag({ status }: { status: Referral['status'] }) {
  const { t } = useTranslation('referral');
  return <Tag color={STATUS_COLORS[status]}>{t(`status.${status}`)}</Tag>;
}

interface Props {
  data: Referral[];
  total: number;
  loading: boolean;
  price: (amount: number) => string;
  pagination: {
    current: number;
    pageSize: number;
    total: number;
    onChange: (page: number, size: number) => void;
  };
}

/** The accounts that signed up through the link: masked login, date, status, paid, reward. */
export function ReferredList({ data, total, loading, price, pagination }: Props) {
  const { t } = useTranslation('referral');
  const mobile = useIsMobile();
  const empty = <Empty image={Empty.PRESENTED_IMAGE_SIMPLE} description={t('list.empty')} />;
  const paging = { ...pagination, showSizeChanger: true, pageSizeOptions: [10, 20, 50], hideOnSinglePage: true };

  return (
    <Card
      title={t('list.title')}
      className="lr-referral-list"
      data-testid="referred"
      extra={total > 0 && <Typography.Text type="secondary">{t('list.total', { count: total })}</Typography.Text>}
    >
      {mobile ? (
        loading ? null : data.length === 0 ? (
          empty
        ) : (
          <>
            <ul className="lr-referral-items">
              {data.map((r) => (
                <li key={r._id} className="lr-referral-item" data-testid="referred-card">
                  <div className="lr-referral-item-head">
                    <Typography.Text strong className="lr-referral-login">
                      {r.login}
                    </Typography.Text>
                    <StatusTag status={r.status} />
                  </div>
                  <Typography.Text type="secondary">
                    {t('list.date')}: {formatDate(r.createdAt)}
                  </Typography.Text>
                  <div className="lr-referral-item-foot">
                    <span>
                      {t('list.paid')}: {price(r.paid)}
                    </span>
                    <Typography.Text strong>
                      {t('list.reward')}: {price(r.reward)}
                    </Typography.Text>
                  </div>
                </li>
              ))}
            </ul>
            {total > pagination.pageSize && <Pagination className="lr-referral-pagination" size="small" {...paging} />}
          </>
        )
      ) : (
        <Table<Referral>
          rowKey="_id"
          size="small"
          loading={loading}
          dataSource={data}
          locale={{ emptyText: empty }}
          pagination={paging}
          columns={[
            {
              title: t('list.login'),
              dataIndex: 'login',
              render: (l: string) => <span className="lr-referral-login">{l}</span>,
            },
            { title: t('list.date'), dataIndex: 'createdAt', render: (iso: string) => formatDate(iso) },
            {
              title: t('list.status'),
              dataIndex: 'status',
              render: (s: Referral['status']) => <StatusTag status={s} />,
            },
            { title: t('list.paid'), dataIndex: 'paid', align: 'right', render: (n: number) => price(n) },
            { title: t('list.reward'), dataIndex: 'reward', align: 'right', render: (n: number) => price(n) },
          ]}
        />
      )}
    </Card>
  );
}
