import { Card, Typography } from 'antd';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { localePath } from '../../../lib/locale';

/** The referral balance and what it is for. */
export function CreditBalance({ credit, price }: { credit: number; price: (n: number) => string }) {
  const { t } = useTranslation('billing');
  return (
    <Card
      title={t('credit.title')}
      className="lr-fill lr-billing-card"
      data-testid="billing-credit"
      extra={<Link to={localePath('/admin/referral')}>{t('credit.referral')}</Link>}
    >
      <div className="lr-billing-amount">{price(credit)}</div>
      <Typography.Paragraph type="secondary" className="lr-billing-hint">
        {t('credit.hint')}
      </Typography.Paragraph>
    </Card>
  );
}
