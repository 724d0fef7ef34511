import { Col, Row } from 'antd';
import { useTranslation } from 'react-i18next';
import { MoneyPageHead } from '../../../components/billing/money-page-head';
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
      <MoneyPageHead title={t('page.title')} intro={t('page.intro')} />
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
