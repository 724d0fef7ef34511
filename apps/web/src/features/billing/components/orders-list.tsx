import type { Locale, Order } from '@leadrelay/shared';
import { Tooltip, Typography } from 'antd';
import { useTranslation } from 'react-i18next';
import { declineReason } from '../../../components/billing/decline-message';
import { useOrdersQuery } from '../../../lib/billing/queries';
import { formatDateTime } from '../../../lib/format';
import { BillingList } from './billing-list';
import { usePaging } from './paging';
import { OrderStatusTag } from './status-tags';

/** Every attempt to pay: its number, plan, method, status (a decline with its reason) and amount. */
export function OrdersList({ price }: { price: (amount: number) => string }) {
  const { t, i18n } = useTranslation('billing');
  const paging = usePaging();
  const { page, limit } = paging;
  const query = useOrdersQuery({ page, limit });
  const data = query.data?.data ?? [];
  const total = query.data?.total ?? 0;
  const plan = (o: Order) => `${o.planTitle[i18n.language as Locale] ?? o.planTitle.uk}, ${t(`period.${o.period}`)}`;
  const why = (o: Order) =>
    o.status !== 'failed'
      ? null
      : (declineReason(o.errorCode) ??
        [t('decline.generic'), o.errorCode && t('decline.code', { code: o.errorCode })].filter(Boolean).join(' '));
  const status = (o: Order) => {
    const declined = why(o);
    return declined ? (
      <Tooltip title={declined}>
        <span>
          <OrderStatusTag status={o.status} />
        </span>
      </Tooltip>
    ) : (
      <OrderStatusTag status={o.status} />
    );
  };
  return (
    <BillingList<Order>
      title={t('orders.title')}
      testId="orders"
      totalLabel={t('orders.total', { count: total })}
      emptyText={t('orders.empty')}
      query={query}
      data={data}
      total={total}
      paging={paging}
      card={(o) => (
        <>
          <div className="lr-billing-item-head">
            <Typography.Text strong>{o.number}</Typography.Text>
            <OrderStatusTag status={o.status} />
          </div>
          <Typography.Text>{plan(o)}</Typography.Text>
          {why(o) && <Typography.Text type="danger">{why(o)}</Typography.Text>}
          <div className="lr-billing-item-foot">
            <Typography.Text type="secondary">{t(`kind.${o.kind}`)}</Typography.Text>
            <span className="lr-billing-item-amount lr-billing-nowrap">{price(o.amount)}</span>
          </div>
          <Typography.Text type="secondary" className="lr-billing-sub">
            {formatDateTime(o.createdAt)}
          </Typography.Text>
        </>
      )}
      columns={[
        {
          title: t('orders.number'),
          dataIndex: 'number',
          render: (n: string) => <span className="lr-billing-nowrap">{n}</span>,
        },
        { title: t('orders.date'), dataIndex: 'createdAt', render: (iso: string) => formatDateTime(iso) },
        { title: t('orders.plan'), key: 'plan', render: (_v, o) => plan(o) },
        { title: t('orders.kind'), dataIndex: 'kind', render: (k: Order['kind']) => t(`kind.${k}`) },
        { title: t('orders.status'), key: 'status', render: (_v, o) => status(o) },
        {
          title: t('orders.amount'),
          key: 'amount',
          align: 'right',
          render: (_v, o) => <span className="lr-billing-nowrap">{price(o.amount)}</span>,
        },
      ]}
    />
  );
}
