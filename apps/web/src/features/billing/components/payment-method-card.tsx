import { CreditCardOutlined } from '@ant-design/icons';
import { RENEW_DAYS_BEFORE } from '@leadrelay/shared';
import { Button, Card, Skeleton, Typography } from 'antd';
import { useTranslation } from 'react-i18next';
import { cardLabel } from '../../../components/billing/card-label';
import { usePaymentMethodQuery, useRemovePaymentMethodMutation } from '../../../lib/billing/queries';
import { errorMessage } from '../../../lib/errors';
import { formatDate } from '../../../lib/format';
import { currentLocale } from '../../../lib/locale';
import { useApp } from '../../../lib/use-app';

/** The saved card (mask, type, expiry) and removing it, which stops automatic renewals. */
export function PaymentMethodCard() {
  const { t } = useTranslation('billing');
  const { message, modal } = useApp();
  const method = usePaymentMethodQuery(currentLocale());
  const remove = useRemovePaymentMethodMutation();
  const card = method.data;

  const onRemove = async () => {
    const ok = await modal.confirm({
      title: t('card.removeTitle'),
      content: t('card.removeText'),
      okText: t('card.removeOk'),
      okButtonProps: { danger: true },
      cancelText: t('pay.close'),
    });
    if (!ok) return;
    try {
      await remove.mutateAsync();
      void message.success(t('card.removed'));
    } catch (err) {
      void message.error(errorMessage(err));
    }
  };

  return (
    <Card title={t('card.title')} className="lr-fill lr-billing-card" data-testid="billing-card">
      {method.isPending ? (
        <Skeleton active paragraph={{ rows: 2 }} title={false} />
      ) : method.isError ? (
        <Typography.Paragraph type="danger" role="alert">
          {errorMessage(method.error)}
        </Typography.Paragraph>
      ) : card ? (
        <div className="lr-saved-card">
          <div className="lr-saved-card-line">
            <CreditCardOutlined className="lr-saved-card-icon" aria-hidden />
            <div>
              {/* One card, one label: the provider's raw mask (424242*42) beside it read as a second card. */}
              <Typography.Text strong data-testid="saved-card-label">
                {cardLabel(card, t)}
              </Typography.Text>
              {card.card.expiry && (
                <div>
                  <Typography.Text type="secondary">{t('card.expires', { expiry: card.card.expiry })}</Typography.Text>
                </div>
              )}
            </div>
          </div>
          <Typography.Paragraph type="secondary" className="lr-billing-hint">
            {t('card.autoRenew', { count: RENEW_DAYS_BEFORE })}
          </Typography.Paragraph>
          <Typography.Text type="secondary" className="lr-billing-sub">
            {t('card.added', { date: formatDate(card.createdAt) })}
          </Typography.Text>
          <Button danger onClick={() => void onRemove()} loading={remove.isPending}>
            {t('card.remove')}
          </Button>
        </div>
      ) : (
        <Typography.Paragraph type="secondary" className="lr-billing-hint">
          {t('card.none')}
        </Typography.Paragraph>
      )}
    </Card>
  );
}
