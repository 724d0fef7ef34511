import { Alert } from 'antd';
import { useTranslation } from 'react-i18next';
import { usePrice } from '../../lib/currency';
import { useMe } from '../../lib/current-user';
import './billing.css';

/** "Бонусний баланс: $12.00 буде враховано": the referral balance pays first; nothing when empty. */
export function CreditNote() {
  const { t } = useTranslation('billing');
  const { data: user } = useMe();
  const price = usePrice();
  const credit = user?.credit ?? 0;
  if (credit <= 0) return null;
  return (
    <Alert
      type="info"
      showIcon
      className="lr-credit-note"
      data-testid="credit-note"
      title={t('pay.creditNote', { amount: price(credit) })}
    />
  );
}
