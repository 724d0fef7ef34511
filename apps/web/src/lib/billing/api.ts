// Paying, the saved card, invoices and orders (spec 7 "Billing and plans"; shapes in
// @leadrelay/shared billing.ts). The plan page and the billing page both pay, so this is lib/.
import type {
  BillingPeriod,
  Invoice,
  Locale,
  Order,
  PaymentAnswer,
  PaymentMethod,
  SubscribeBody,
} from '@leadrelay/shared';
import { api, httpFile } from '../http';

const id = (value: string) => encodeURIComponent(value);
type Answer = { data: PaymentAnswer };

export interface Page {
  page: number;
  limit: number;
}

export const billingApi = {
  /** Charges the saved card at once, or answers the checkout to pay with a new one. */
  subscribe: (body: SubscribeBody) => api.post<Answer>('/api/subscriptions/subscribe', body).then((r) => r.data),
  /** Always the checkout: pay with a new card (it replaces the saved one). */
  payWithNewCard: (q: { planId: string; period: BillingPeriod; lang: Locale }) =>
    api.get<Answer>('/api/payment/auth', q).then((r) => r.data),
  /** The current plan and period again, now (the saved card, else the checkout). */
  renew: (lang: Locale) => api.get<Answer>('/api/payment/renew', { lang }).then((r) => r.data),
  paymentMethod: (lang: Locale) =>
    api.get<{ data: PaymentMethod | null }>('/api/payment/method', { lang }).then((r) => r.data),
  removePaymentMethod: () => api.delete<{ success: true }>('/api/payment/method'),
  invoices: ({ page, limit }: Page) => api.get<{ data: Invoice[]; total: number }>('/api/invoices', { page, limit }),
  invoicePdf: (invoiceId: string) => httpFile(`/api/invoices/${id(invoiceId)}/pdf`),
  orders: ({ page, limit }: Page) =>
    api.get<{ data: { data: Order[]; total: number } }>('/api/orders', { page, limit }).then((r) => r.data),
};
