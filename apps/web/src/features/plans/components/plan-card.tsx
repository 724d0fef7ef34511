import { CheckOutlined } from '@ant-design/icons';
import type { Plan } from '@leadrelay/shared';
import { Card, Tag, Typography } from 'antd';
import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { limitTexts, planTitle } from './plan-texts';

export type Period = 'monthly' | 'annual';

interface Props {
  plan: Plan;
  period: Period;
  isCurrent: boolean;
  price: (amount: number) => string;
  /** The pay, renew or switch button (PlanActions). */
  actions?: ReactNode;
}

/** One plan: its price for the period (and the annual saving), its limits in words. */
export function PlanCard({ plan, period, isCurrent, price, actions }: Props) {
  const { t, i18n } = useTranslation('plans');
  const title = planTitle(plan, i18n.language);
  const amount = period === 'annual' ? plan.annualAmount : plan.monthlyAmount;
  const saving = Math.round((plan.monthlyAmount * 12 - plan.annualAmount) * 100) / 100;
  return (
    <Card
      className={isCurrent ? 'lr-plan-card lr-plan-card-current' : 'lr-plan-card'}
      data-testid={`plan-${plan._id}`}
      aria-label={title}
      role="region"
    >
      <div className="lr-plan-card-head">
        <Typography.Title level={3} className="lr-plan-title">
          {title}
        </Typography.Title>
        <div className="lr-plan-tags">
          {isCurrent && <Tag color="geekblue">{t('card.current')}</Tag>}
          {!plan.active && <Tag>{t('card.inactive')}</Tag>}
        </div>
      </div>
      <div className="lr-plan-price">
        <span className="lr-plan-amount">{price(amount)}</span>
        <span className="lr-plan-per">{period === 'annual' ? t('price.perYear') : t('price.perMonth')}</span>
      </div>
      <div className="lr-plan-saving">
        {period === 'annual' && saving > 0 && (
          <Typography.Text type="success">{t('price.saving', { amount: price(saving) })}</Typography.Text>
        )}
      </div>
      <ul className="lr-plan-limits">
        {limitTexts(plan.limits, t).map((l) => (
          <li key={l.key}>
            <CheckOutlined className="lr-plan-check" aria-hidden />
            {l.text}
          </li>
        ))}
      </ul>
      {actions}
    </Card>
  );
}
