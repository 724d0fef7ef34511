import type { Checkout, Locale, Order } from '@leadrelay/shared';
import { Alert, Button, Modal, Spin, Typography } from 'antd';
import { useCallback, useEffect, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { billingApi } from '../../lib/billing/api';
import { CHECKOUT_RETURN_MESSAGE } from '../../lib/billing/checkout-return';
import { onPaymentInformer } from '../../lib/realtime';
import { DeclineMessage } from './decline-message';
import './billing.css';

// After the checkout page says it is done, the order is looked up until the server knows the
// outcome (its callback may come a moment later): every 2 s, for a minute at most.
const CHECK_EVERY_MS = 2000;
const CHECK_TIMES = 30;

interface Props {
  order: Order;
  checkout: Checkout;
  onClose: () => void;
  /** The server says the order is paid. */
  onPaid: (order: Order) => void;
  /** "Pay with another card" after a decline: a new order and checkout. */
  onRetry: (order: Order) => void;
  retrying: boolean;
}

/** A message from the checkout page in the frame; only a hint to ask the server, never trusted. */
function isCheckoutDone(event: MessageEvent): boolean {
  const data: unknown = event.data;
  if (!data || typeof data !== 'object') return false;
  const d = data as Record<string, unknown>;
  return d.liqpay === 'done' || (d.type === CHECKOUT_RETURN_MESSAGE && event.origin === window.location.origin);
}

/** The frame, and the provider's form posted into it once it is in the document. */
function CheckoutFrame({ checkout, name, title }: { checkout: Checkout; name: string; title: string }) {
  const formRef = useRef<HTMLFormElement>(null);
  const posted = useRef(false);
  useEffect(() => {
    // Once: a second post would open a second checkout of the same order.
    if (posted.current) return;
    posted.current = true;
    formRef.current?.submit();
  }, []);
  return (
    <>
      <form ref={formRef} method="POST" action={checkout.action} target={name} acceptCharset="utf-8" hidden>
        {Object.entries(checkout.fields).map(([field, value]) => (
          <input key={field} type="hidden" name={field} value={value} />
        ))}
      </form>
      <iframe name={name} title={title} className="lr-checkout-frame" data-testid="checkout-frame" />
    </>
  );
}

/**
 * The provider's checkout in a frame (a full-screen sheet on a phone): its form is posted into the
 * frame on opening. The modal learns the outcome from the server only: PAYMENT_INFORMER for this
 * order, or, when the checkout page posts that it is done, by looking the order up.
 */
export function CheckoutModal({ order, checkout, onClose, onPaid, onRetry, retrying }: Props) {
  const { t, i18n } = useTranslation('billing');
  const [checking, setChecking] = useState(false);
  const [failed, setFailed] = useState<Order | null>(null);
  const alive = useRef(true);
  const polling = useRef(false);
  // The server's PAYMENT_INFORMER and the lookup after the checkout page's "done" may both find
  // the order paid, one while the other's answer is on its way: it is paid once (one toast).
  const paidOrder = useRef<string | null>(null);
  const paidOnce = useCallback(
    (found: Order) => {
      if (paidOrder.current === found._id) return;
      paidOrder.current = found._id;
      onPaid(found);
    },
    [onPaid],
  );
  const plan = order.planTitle[i18n.language as Locale] ?? order.planTitle.uk;

  useEffect(() => {
    alive.current = true;
    return () => {
      alive.current = false;
    };
  }, []);

  const settle = useCallback(
    (found: Order) => {
      if (found.status === 'paid') paidOnce(found);
      else if (found.status === 'failed') setFailed(found);
    },
    [paidOnce],
  );

  const check = useCallback(async () => {
    if (polling.current) return;
    polling.current = true;
    setChecking(true);
    try {
      for (let i = 0; i < CHECK_TIMES && alive.current; i++) {
        try {
          const list = await billingApi.orders({ page: 1, limit: 20 });
          const found = list.data.find((o) => o._id === order._id);
          // An expired checkout is still settled by a late callback (the money may have moved): wait for it.
          if (found && found.status !== 'pending' && found.status !== 'expired') {
            if (alive.current) settle(found);
            return;
          }
        } catch (err) {
          console.warn('order lookup failed', err);
        }
        await new Promise((r) => setTimeout(r, CHECK_EVERY_MS));
      }
    } finally {
      polling.current = false;
      if (alive.current) setChecking(false);
    }
  }, [order._id, settle]);

  useEffect(
    () =>
      onPaymentInformer((payment) => {
        if (payment.orderId !== order._id) return;
        // The event is the server's word; a decline's reason is on the order itself.
        if (payment.status === 'paid') paidOnce({ ...order, status: 'paid' });
        else void check();
      }),
    [order, paidOnce, check],
  );

  useEffect(() => {
    const onMessage = (event: MessageEvent) => {
      if (isCheckoutDone(event)) void check();
    };
    window.addEventListener('message', onMessage);
    return () => window.removeEventListener('message', onMessage);
  }, [check]);

  return (
    <Modal
      open
      centered
      title={t('pay.modalTitle', { plan, period: t(`period.${order.period}`) })}
      onCancel={onClose}
      footer={null}
      // A full-screen sheet below the spec's 768 px (md), a dialog above.
      width={{ xs: '100vw', sm: '100vw', md: 520 }}
      rootClassName="lr-checkout-root"
      className="lr-checkout-modal"
      destroyOnHidden
      maskClosable={false}
    >
      <div className="lr-checkout" data-testid="checkout">
        {failed && (
          <Alert
            type="error"
            showIcon
            className="lr-checkout-alert"
            title={t('pay.declinedTitle')}
            description={<DeclineMessage code={failed.errorCode} />}
            action={
              <Button size="small" type="primary" loading={retrying} onClick={() => onRetry(failed)}>
                {t('pay.newCard')}
              </Button>
            }
          />
        )}
        {checking && !failed && (
          <div className="lr-checkout-checking" role="status">
            <Spin size="small" />
            <Typography.Text type="secondary">{t('pay.checking')}</Typography.Text>
          </div>
        )}
        <CheckoutFrame checkout={checkout} name={`lr-checkout-${order._id}`} title={t('pay.frameTitle')} />
      </div>
    </Modal>
  );
}
