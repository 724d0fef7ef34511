import { daysLeft, headerWarning, type Locale, type User } from '@leadrelay/shared';
import { Button, Card, Descriptions, Typography } from 'antd';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import type { PaymentFlow } from '../../../components/billing/use-payment-flow';
import { formatDay } from '../../../lib/format';
import { localePath } from '../../../lib/locale';
import { paidPlanTitle, usePlansQuery } from '../../../lib/plans';

/** The current plan, until when it is paid, and "Renew now" (or "Choose a plan" in the demo). */
export function PlanSummary({ user, flow }: { user: User; flow: PaymentFlow }) {
  const { t, i18n } = useTranslation('billing');
  const { t: tl } = useTranslation('layout');
  const plans = usePlansQuery();
  const plan = user.planId ? plans.data?.find((p) => p._id === user.planId) : undefined;
  const demo = !user.planId;
  const title = demo
    ? t('summary.demo')
    : plan
      ? (plan.title[i18n.language as Locale] ?? plan.title.uk)
      : (paidPlanTitle(user, i18n.language) ?? '—');
  const paidFor = user.subscription?.period;
  const period = paidFor ?? 'month';
  const left = daysLeft(user.expDate);
  const warning = headerWarning(left);

  return (
    <Card
      title={t('summary.title')}
      className="lr-fill lr-billing-card"
      data-testid="billing-plan"
      extra={demo ? null : <Link to={localePath('/admin/plan')}>{t('summary.changePlan')}</Link>}
    >
      <Typography.Title level={4} className="lr-billing-plan-title">
        {title}
      </Typography.Title>
      <Descriptions column={1} size="small" className="lr-billing-facts">
        <Descriptions.Item label={demo ? t('summary.demoUntil') : t('summary.paidUntil')}>
          {user.expDate ? (
            <span>
              {formatDay(user.expDate)}
              {left !== null && (
                <Typography.Text type={warning === 'none' ? 'secondary' : 'danger'} className="lr-billing-left">
                  {' · '}
                  {left <= 0 ? t('summary.expired') : tl('header.daysLeft', { count: left })}
                </Typography.Text>
              )}
            </span>
          ) : (
            t('summary.noEnd')
          )}
        </Descriptions.Item>
        {!demo && paidFor && <Descriptions.Item label={t('summary.period')}>{t(`period.${period}`)}</Descriptions.Item>}
      </Descriptions>
      {demo ? (
        <Link to={localePath('/admin/plan')}>
          <Button type="primary">{t('summary.choosePlan')}</Button>
        </Link>
      ) : (
        <div className="lr-billing-renew">
          <Button
            type="primary"
            loading={flow.busy === 'renew'}
            disabled={!plan || (flow.busy !== null && flow.busy !== 'renew')}
            onClick={() =>
              plan &&
              void flow.renew({
                planId: plan._id,
                period,
                title,
                amount: period === 'year' ? plan.annualAmount : plan.monthlyAmount,
              })
            }
          >
            {t('summary.renew')}
          </Button>
          <Typography.Text type="secondary" className="lr-billing-hint">
            {t('summary.renewHint')}
          </Typography.Text>
        </div>
      )}
    </Card>
  );
}
