import type { Locale } from '@leadrelay/shared';
import { type QueryClient, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { ME_KEY } from '../current-user';
import { billingApi, type Page } from './api';

/** Everything under 'billing' is refetched when a payment settles (PAYMENT_INFORMER, lib/realtime). */
export const billingKeys = {
  all: ['billing'] as const,
  method: ['billing', 'method'] as const,
  invoices: (p: Page) => ['billing', 'invoices', p] as const,
  orders: (p: Page) => ['billing', 'orders', p] as const,
};

/** The plan page's limits and the referral page's list: refetched with the account after a payment. */
export const PLAN_LIMITS_KEY = ['plans', 'limits'] as const;
export const REFERRALS_KEY = ['referrals'] as const;

export function usePaymentMethodQuery(lang: Locale) {
  return useQuery({ queryKey: billingKeys.method, queryFn: () => billingApi.paymentMethod(lang) });
}

export function useInvoicesQuery(p: Page) {
  return useQuery({
    queryKey: billingKeys.invoices(p),
    queryFn: () => billingApi.invoices(p),
    placeholderData: (prev) => prev,
  });
}

export function useOrdersQuery(p: Page) {
  return useQuery({
    queryKey: billingKeys.orders(p),
    queryFn: () => billingApi.orders(p),
    placeholderData: (prev) => prev,
  });
}

/**
 * After a payment (spec 4: a payment-success event refreshes account data) or a removed card: the
 * account (the header's plan and days left), the plan limits, billing and the referral balance.
 */
export function refetchAfterPayment(qc: QueryClient): Promise<unknown> {
  return Promise.all([
    qc.invalidateQueries({ queryKey: ME_KEY }),
    qc.invalidateQueries({ queryKey: PLAN_LIMITS_KEY }),
    qc.invalidateQueries({ queryKey: billingKeys.all }),
    qc.invalidateQueries({ queryKey: REFERRALS_KEY }),
  ]);
}

export function useRefetchAccount() {
  const qc = useQueryClient();
  return () => refetchAfterPayment(qc);
}

export function useRemovePaymentMethodMutation() {
  const refetch = useRefetchAccount();
  return useMutation({ mutationFn: billingApi.removePaymentMethod, onSuccess: () => refetch() });
}
