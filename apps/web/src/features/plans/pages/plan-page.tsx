import { Button, Card, Col, Empty, Row, Spin, Typography } from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { CreditNote } from '../../../components/billing/credit-note';
import { usePaymentFlow } from '../../../components/billing/use-payment-flow';
import { priceFormatter, useCurrency, useCurrencyRatesQuery } from '../../../lib/currency';
import { useMe } from '../../../lib/current-user';
import { errorMessage } from '../../../lib/errors';
import { PlanActions } from '../components/plan-actions';
import { type Period, PlanCard } from '../components/plan-card';
import { PlanStatus } from '../components/plan-status';
import { planTitle } from '../components/plan-texts';
import { PriceSwitches } from '../components/price-switches';
import { UsageCard } from '../components/usage-card';
import { usePlanLimitsQuery, usePlansQuery } from '../queries';
import '../components/plans.css';

/** /admin/plan: the plans side by side, the account's own marked, and its usage of the limits. */
export function PlanPage() {
  const { t, i18n } = useTranslation('plans');
  const { data: user } = useMe();
  const plans = usePlansQuery();
  const limits = usePlanLimitsQuery();
  const rates = useCurrencyRatesQuery();
  const [period, setPeriod] = useState<Period>('monthly');
  const [currency, setCurrency] = useCurrency();
  const price = priceFormatter(currency, rates.data);
  const flow = usePaymentFlow();

  const planId = user?.planId ?? null;
  // Switched-off plans are not offered, but the account's own stays visible as its current plan.
  const shown = (plans.data ?? []).filter((p) => p.active || p._id === planId);
  const current = plans.data?.find((p) => p._id === planId);
  const currentTitle = planId === null ? null : current ? planTitle(current, i18n.language) : '…';

  return (
    <div className="lr-page">
      <Typography.Title level={2} className="lr-page-title">
        {t('page.title')}
      </Typography.Title>
      <Typography.Paragraph type="secondary">{t('page.intro')}</Typography.Paragraph>

      {user && <PlanStatus title={currentTitle} expDate={user.expDate} />}

      <PriceSwitches
        period={period}
        onPeriod={setPeriod}
        currency={currency}
        onCurrency={setCurrency}
        rates={rates.data}
      />

      <CreditNote />

      {plans.isPending ? (
        <Spin className="lr-spinner-inline" />
      ) : plans.isError ? (
        <Card>
          <Empty description={errorMessage(plans.error)}>
            <Button onClick={() => void plans.refetch()}>{t('page.retry')}</Button>
          </Empty>
        </Card>
      ) : shown.length === 0 ? (
        <Card>
          <Empty description={t('page.empty')} />
        </Card>
      ) : (
        // One row of three from 992 px, one column below: never two and one left alone.
        <Row gutter={[16, 16]} className="lr-plan-grid">
          {shown.map((plan) => (
            <Col key={plan._id} xs={24} lg={8}>
              <PlanCard
                plan={plan}
                period={period}
                isCurrent={plan._id === planId}
                price={price}
                actions={
                  <PlanActions
                    plan={plan}
                    period={period}
                    isCurrent={plan._id === planId}
                    hasPlan={planId !== null}
                    busy={flow.busy}
                    onPay={(purchase) => void flow.pay(purchase)}
                  />
                }
              />
            </Col>
          ))}
        </Row>
      )}

      {limits.data && <UsageCard data={limits.data} />}
      {limits.isError && (
        <Typography.Paragraph type="danger" role="alert">
          {errorMessage(limits.error)}
        </Typography.Paragraph>
      )}
      {flow.element}
    </div>
  );
}
