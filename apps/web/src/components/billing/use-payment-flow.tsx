import type { BillingPeriod, Locale, Order, PaymentAnswer, PaymentMethod } from '@leadrelay/shared';
import { useQueryClient } from '@tanstack/react-query';
import { type ReactNode, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { billingApi } from '../../lib/billing/api';
import { billingKeys, refetchAfterPayment } from '../../lib/billing/queries';
import { useMe } from '../../lib/current-user';
import { errorMessage } from '../../lib/errors';
import { currentLocale } from '../../lib/locale';
import { useApp } from '../../lib/use-app';
import { ChargeSummary } from './charge-summary';
import { CheckoutModal } from './checkout-modal';
import { DeclineMessage } from './decline-message';

/** A period of a plan to pay for, as the plan card shows it. */
export interface Purchase {
  planId: string;
  period: BillingPeriod;
  /** The plan's title in the interface language. */
  title: string;
  /** The plan's price for the period, USD. */
  amount: number;
}

export interface PaymentFlow {
  /** Pays for a plan: the saved card (after a confirmation) or the checkout in a modal. */
  pay: (purchase: Purchase) => Promise<void>;
  /** The current plan and period again, now (the billing page's "Renew now"). */
  renew: (current: Purchase) => Promise<void>;
  /** Which action is under way: a plan id, 'renew' or 'new-card'; null when none. */
  busy: string | null;
  /** The checkout modal: render it once, anywhere on the page. */
  element: ReactNode;
}

/**
 * Paying, as the plan and billing pages do it. A charge that happens at once (a saved card, the
 * bonus balance) is confirmed first with what will be taken; without a card the provider's
 * checkout opens in a modal and nothing is taken before the card is entered there. The outcome
 * comes from the server: a paid order shows a toast (and the account is refetched), a declined
 * one says why and offers another card.
 */
export function usePaymentFlow(): PaymentFlow {
  const { t } = useTranslation('billing');
  const { message, modal } = useApp();
  const qc = useQueryClient();
  const { data: user } = useMe();
  const [open, setOpen] = useState<PaymentAnswer | null>(null);
  const [busy, setBusy] = useState<string | null>(null);
  const lang = currentLocale();
  const titleOf = (order: Order) => order.planTitle[lang as Locale] ?? order.planTitle.uk;

  const paid = (order: Order) => {
    setOpen(null);
    void refetchAfterPayment(qc);
    const plan = titleOf(order);
    void message.success(order.kind === 'credit' ? t('pay.successCredit', { plan }) : t('pay.success', { plan }));
  };

  const declined = (order: Order) => {
    void modal.confirm({
      title: t('pay.declinedTitle'),
      content: <DeclineMessage code={order.errorCode} />,
      okText: t('pay.newCard'),
      cancelText: t('pay.close'),
      onOk: () => void newCard(order),
    });
  };

  const run = async (key: string, call: () => Promise<PaymentAnswer>) => {
    setBusy(key);
    try {
      const answer = await call();
      if (answer.checkout) {
        setOpen(answer);
        return;
      }
      setOpen(null);
      const { order } = answer;
      if (order.status === 'paid') return paid(order);
      void refetchAfterPayment(qc);
      if (order.status === 'failed') return declined(order);
      void message.info(t('pay.pending'));
    } catch (err) {
      void message.error(errorMessage(err));
    } finally {
      setBusy(null);
    }
  };

  /** Always the checkout: the saved card declined, or the user wants another one. */
  function newCard(order: Pick<Order, 'planId' | 'period'>) {
    return run('new-card', () => billingApi.payWithNewCard({ planId: order.planId, period: order.period, lang }));
  }

  /** True when the user agrees to a charge made at once; true at once when a checkout will ask. */
  const agreed = async (purchase: Purchase, renewing: boolean): Promise<boolean> => {
    let card: PaymentMethod | null;
    try {
      card = await qc.fetchQuery({
        queryKey: billingKeys.method,
        queryFn: () => billingApi.paymentMethod(lang),
        staleTime: 30_000,
      });
    } catch (err) {
      void message.error(errorMessage(err));
      return false;
    }
    const fromCredit = Math.min(Math.max(user?.credit ?? 0, 0), purchase.amount);
    const charged = Math.round((purchase.amount - fromCredit) * 100) / 100;
    if (!card && charged > 0) return true;
    const period = t(`period.${purchase.period}`);
    return modal.confirm({
      title: renewing
        ? t('pay.confirmRenewTitle', { plan: purchase.title })
        : t('pay.confirmTitle', { plan: purchase.title, period }),
      content: <ChargeSummary card={card} charged={charged} fromCredit={fromCredit} />,
      okText: t('pay.confirmOk'),
      cancelText: t('pay.close'),
    });
  };

  const pay = async (purchase: Purchase) => {
    setBusy(purchase.planId);
    const ok = await agreed(purchase, false);
    setBusy(null);
    if (!ok) return;
    await run(purchase.planId, () => billingApi.subscribe({ planId: purchase.planId, period: purchase.period }));
  };

  const renew = async (current: Purchase) => {
    setBusy('renew');
    const ok = await agreed(current, true);
    setBusy(null);
    if (!ok) return;
    await run('renew', () => billingApi.renew(lang));
  };

  const element = open?.checkout ? (
    <CheckoutModal
      key={open.order._id}
      order={open.order}
      checkout={open.checkout}
      onClose={() => setOpen(null)}
      onPaid={paid}
      onRetry={(order) => void newCard(order)}
      retrying={busy === 'new-card'}
    />
  ) : null;

  return { pay, renew, busy, element };
}
