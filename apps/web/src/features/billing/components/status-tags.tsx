import type { Invoice, OrderStatus } from '@leadrelay/shared';
import { Tag } from 'antd';
import { useTranslation } from 'react-i18next';

const ORDER_COLORS: Record<OrderStatus, string> = {
  pending: 'gold',
  paid: 'green',
  failed: 'red',
  refunded: 'default',
  // An abandoned checkout: nothing was charged and nothing waits (not gold like pending).
  expired: 'default',
};

export function OrderStatusTag({ status }: { status: OrderStatus }) {
  const { t } = useTranslation('billing');
  return <Tag color={ORDER_COLORS[status]}>{t(`orderStatus.${status}`)}</Tag>;
}

export function InvoiceStatusTag({ status }: { status: Invoice['status'] }) {
  const { t } = useTranslation('billing');
  return <Tag color={status === 'paid' ? 'green' : 'default'}>{t(`invoiceStatus.${status}`)}</Tag>;
}
