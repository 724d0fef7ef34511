import type { Plan } from '@leadrelay/shared';
import { Button } from 'antd';
import { useTranslation } from 'react-i18next';
import type { Purchase } from '../../../components/billing/use-payment-flow';
import type { Period } from './plan-card';
import { planTitle } from './plan-texts';

export interface PlanActionsProps {
  plan: Plan;
  period: Period;
  isCurrent: boolean;
  /** The account has a plan (else it is in its demo period). */
  hasPlan: boolean;
  /** The plan id whose payment is under way (or another action's key); null when none. */
  busy: string | null;
  onPay: (purchase: Purchase) => void;
}

/** A plan card's button for the chosen period: "Pay" in the demo, "Renew" its own plan, "Switch" to another. */
export function PlanActions({ plan, period, isCurrent, hasPlan, busy, onPay }: PlanActionsProps) {
  const { t, i18n } = useTranslation('plans');
  const label = !hasPlan ? t('actions.pay') : isCurrent ? t('actions.renew') : t('actions.switch');
  const annual = period === 'annual';
  return (
    <div className="lr-plan-actions">
      <Button
        type={isCurrent || !hasPlan ? 'primary' : 'default'}
        block
        size="large"
        loading={busy === plan._id}
        disabled={busy !== null && busy !== plan._id}
        onClick={() =>
          onPay({
            planId: plan._id,
            period: annual ? 'year' : 'month',
            title: planTitle(plan, i18n.language),
            amount: annual ? plan.annualAmount : plan.monthlyAmount,
          })
        }
      >
        {label}
      </Button>
    </div>
  );
}
