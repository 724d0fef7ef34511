import type { Locale } from '@leadrelay/shared';
import { Alert } from 'antd';
import { useTranslation } from 'react-i18next';
import { useSearchParams } from 'react-router';
import { DeclineMessage } from '../../../components/billing/decline-message';
import { useOrdersQuery } from '../../../lib/billing/queries';

/**
 * /admin/billing?order=ID is where the provider sends the buyer back: how that order went, as the
 * server knows it (the list refetches when PAYMENT_INFORMER arrives).
 */
export function OrderNotice() {
  const { t, i18n } = useTranslation('billing');
  const [params, setParams] = useSearchParams();
  const orderId = params.get('order');
  const orders = useOrdersQuery({ page: 1, limit: 20 });
  const order = orderId ? orders.data?.data.find((o) => o._id === orderId) : undefined;
  if (!order) return null;
  const plan = order.planTitle[i18n.language as Locale] ?? order.planTitle.uk;
  const close = () =>
    setParams(
      (p) => {
        p.delete('order');
        return p;
      },
      { replace: true },
    );
  const common = { showIcon: true, closable: { onClose: close }, className: 'lr-billing-notice' } as const;
  if (order.status === 'paid') return <Alert {...common} type="success" title={t('pay.success', { plan })} />;
  if (order.status === 'failed')
    return (
      <Alert
        {...common}
        type="error"
        title={t('pay.declinedTitle')}
        description={<DeclineMessage code={order.errorCode} />}
      />
    );
  if (order.status === 'pending') return <Alert {...common} type="info" title={t('pay.pending')} />;
  if (order.status === 'expired') return <Alert {...common} type="warning" title={t('pay.expired')} />;
  return null;
}
