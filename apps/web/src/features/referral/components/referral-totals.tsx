import { PROMO_COOKIE_MAX_AGE_SECONDS } from '@leadrelay/shared';
import { Card, Statistic, Typography } from 'antd';
import { useTranslation } from 'react-i18next';
import { intlLocale } from '../../../lib/format';

interface Props {
  earned: number;
  credit: number;
  invited: number;
  rewardShare: number;
  price: (amount: number) => string;
}

const DAY_SECONDS = 86_400;

/** What the programme gives (the reward rule in words), what it has earned and the balance left. */
export function ReferralTotals({ earned, credit, invited, rewardShare, price }: Props) {
  const { t } = useTranslation('referral');
  const share = new Intl.NumberFormat(intlLocale(), { style: 'percent', maximumFractionDigits: 1 }).format(rewardShare);
  return (
    <Card title={t('rule.title')} className="lr-fill lr-referral-card" data-testid="referral-totals">
      <div className="lr-referral-stats">
        <Statistic title={t('totals.earned')} value={price(earned)} />
        <Statistic title={t('totals.credit')} value={price(credit)} />
        <Statistic title={t('totals.invited')} value={invited} />
      </div>
      <ul className="lr-referral-rules">
        <li>
          <Typography.Text>{t('rule.share', { share })}</Typography.Text>
        </li>
        <li>
          <Typography.Text>{t('rule.spend')}</Typography.Text>
        </li>
        <li>
          <Typography.Text type="secondary">
            {t('rule.cookie', { days: Math.round(PROMO_COOKIE_MAX_AGE_SECONDS / DAY_SECONDS) })}
          </Typography.Text>
        </li>
      </ul>
    </Card>
  );
}
