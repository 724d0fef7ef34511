import { Col, Row, Typography } from 'antd';
import { useTranslation } from 'react-i18next';
import { CurrencySwitch } from '../../../components/billing/currency-switch';
import { usePaymentFlow } from '../../../components/billing/use-payment-flow';
import { usePrice } from '../../../lib/currency';
import { useMe } from '../../../lib/current-user';
import { CreditBalance } from '../components/credit-balance';
import { InvoicesList } from '../components/invoices-list';
import { OrderNotice } from '../components/order-notice';
import { OrdersList } from '../components/orders-list';
import { PaymentMethodCard } from '../components/payment-method-card';
import { PlanSummary } from '../components/plan-summary';
import '../components/billing.css';

/** /admin/billing: the plan and until when it is paid, the bonus balance, the saved card, invoices and payments. */
export function BillingPage() {
  const { t } = useTranslation('billing');
  const { data: user } = useMe();
  const price = usePrice();
  const flow = usePaymentFlow();

  return (
    <div className="lr-page">
      <div className="lr-billing-head">
        <div>
          <Typography.Title level={2} className="lr-page-title">
            {t('page.title')}
          </Typography.Title>
          <Typography.Paragraph type="secondary">{t('page.intro')}</Typography.Paragraph>
        </div>
        <CurrencySwitch />
      </div>
      <OrderNotice />
      {user && (
        <Row gutter={[16, 16]} className="lr-billing-summary">
          <Col xs={24} lg={8}>
            <PlanSummary user={user} flow={flow} />
          </Col>
          <Col xs={24} md={12} lg={8}>
            <CreditBalance credit={user.credit} price={price} />
          </Col>
          <Col xs={24} md={12} lg={8}>
            <PaymentMethodCard />
          </Col>
        </Row>
      )}
      <InvoicesList price={price} />
      <OrdersList price={price} />
      {flow.element}
    </div>
  );
}
