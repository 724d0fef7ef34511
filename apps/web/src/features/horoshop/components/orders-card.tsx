import type { HookStatus, HoroshopOrderRow } from '@leadrelay/shared';
import { Card, Empty, Table, Tag, Tooltip, Typography } from 'antd';
import { useTranslation } from 'react-i18next';
import { HookStatusTag } from '../../../components/hooks/status-tags';
import { formatDateTime, formatNumber, intlLocale } from '../../../lib/format';
import { useIsMobile } from '../../../lib/use-is-mobile';

/** "4 500,00 грн" / "UAH 4,500.00"; an amount in a currency Intl does not know keeps its code. */
export function formatTotal(total: string | null, currency: string | null): string {
  if (total === null) return '—';
  const amount = Number(total);
  if (!Number.isFinite(amount)) return total;
  if (currency && /^[A-Z]{3}$/.test(currency)) {
    try {
      return new Intl.NumberFormat(intlLocale(), { style: 'currency', currency }).format(amount);
    } catch {
      // an unknown code: shown as written below
    }
  }
  return `${formatNumber(amount)}${currency ? ` ${currency}` : ''}`;
}

function Came({ order }: { order: HoroshopOrderRow }) {
  const { t } = useTranslation('horoshop');
  const via = order.via === 'webhook' ? t('orders.viaWebhook') : t('orders.viaPoll');
  if (order.timesSeen <= 1) return <span>{via}</span>;
  const times = t('orders.timesSeen', { count: order.timesSeen });
  return (
    <span className="lr-hs-came">
      {via}
      <Tooltip title={t('orders.repeatsHint', { times })}>
        <Tag className="lr-hs-times" data-testid="times-seen">
          × {order.timesSeen}
        </Tag>
      </Tooltip>
    </span>
  );
}

function Lead({ order }: { order: HoroshopOrderRow }) {
  const { t } = useTranslation('horoshop');
  if (!order.status) return <Typography.Text type="secondary">{t('orders.noHook')}</Typography.Text>;
  return <HookStatusTag status={order.status as HookStatus} />;
}

/** The orders the shop sent (or the check found), newest first, each with what became of its lead. */
export function OrdersCard({ orders }: { orders: HoroshopOrderRow[] }) {
  const { t } = useTranslation('horoshop');
  const mobile = useIsMobile();
  const empty = <Empty image={Empty.PRESENTED_IMAGE_SIMPLE} description={t('orders.empty')} />;

  return (
    <Card title={t('orders.title')} data-testid="horoshop-orders">
      {mobile ? (
        orders.length === 0 ? (
          empty
        ) : (
          <ul className="lr-hs-order-list">
            {orders.map((o) => (
              <li key={o.orderId} className="lr-hs-order" data-testid="horoshop-order">
                <div className="lr-hs-order-head">
                  <Typography.Text strong>{t('orders.number', { id: o.orderId })}</Typography.Text>
                  <Typography.Text strong>{formatTotal(o.total, o.currency)}</Typography.Text>
                </div>
                <div className="lr-break">{[o.name, o.phone].filter(Boolean).join(' · ') || '—'}</div>
                <div className="lr-hs-order-foot">
                  <Typography.Text type="secondary">{formatDateTime(o.receivedAt)}</Typography.Text>
                  <Came order={o} />
                  <Lead order={o} />
                </div>
              </li>
            ))}
          </ul>
        )
      ) : (
        <Table<HoroshopOrderRow>
          rowKey="orderId"
          size="small"
          pagination={false}
          dataSource={orders}
          locale={{ emptyText: empty }}
          onRow={() => ({ 'data-testid': 'horoshop-order' }) as React.HTMLAttributes<HTMLElement>}
          columns={[
            {
              title: t('orders.order'),
              key: 'order',
              render: (_: unknown, o) => (
                <div className="lr-hs-cell">
                  <Typography.Text strong className="lr-nowrap">
                    {t('orders.number', { id: o.orderId })}
                  </Typography.Text>
                  <Typography.Text type="secondary" className="lr-nowrap">
                    {formatDateTime(o.receivedAt)}
                  </Typography.Text>
                </div>
              ),
            },
            {
              title: t('orders.customer'),
              key: 'customer',
              render: (_: unknown, o) => (
                <div className="lr-hs-cell">
                  <span>{o.name ?? '—'}</span>
                  {o.phone && (
                    <Typography.Text type="secondary" className="lr-nowrap">
                      {o.phone}
                    </Typography.Text>
                  )}
                </div>
              ),
            },
            {
              title: t('orders.total'),
              key: 'total',
              align: 'right',
              render: (_: unknown, o) => <span className="lr-nowrap">{formatTotal(o.total, o.currency)}</span>,
            },
            {
              title: t('orders.lead'),
              key: 'lead',
              render: (_: unknown, o) => (
                <div className="lr-hs-cell">
                  <Lead order={o} />
                  <Typography.Text type="secondary">
                    <Came order={o} />
                  </Typography.Text>
                </div>
              ),
            },
          ]}
        />
      )}
    </Card>
  );
}
