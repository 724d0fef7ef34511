import type { PaymentMethod } from '@leadrelay/shared';
import { Typography } from 'antd';
import { useTranslation } from 'react-i18next';
import { useCurrency, usePrice } from '../../lib/currency';
import { cardLabel } from './card-label';

interface Props {
  card: PaymentMethod | null;
  /** Taken from the card, USD. */
  charged: number;
  /** Taken from the bonus balance, USD. */
  fromCredit: number;
}

/** "$29.00 (≈ 1266 грн) will be charged to the card Visa ··4242": the card pays in dollars. */
export function ChargeSummary({ card, charged, fromCredit }: Props) {
  const { t } = useTranslation('billing');
  const [currency] = useCurrency();
  const price = usePrice();
  const usd = (amount: number) => `$${amount.toFixed(2)}`;
  const shown = (amount: number) => (currency === 'UAH' ? `${usd(amount)} (${price(amount)})` : usd(amount));
  return (
    <div className="lr-charge-summary">
      {charged > 0 && card && (
        <Typography.Paragraph>
          {t('pay.confirmCard', { amount: shown(charged), card: cardLabel(card, t) })}
        </Typography.Paragraph>
      )}
      {fromCredit > 0 && (
        <Typography.Paragraph>{t('pay.confirmCredit', { amount: shown(fromCredit) })}</Typography.Paragraph>
      )}
    </div>
  );
}
