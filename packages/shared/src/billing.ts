// Payments, orders, invoices and the saved card (spec 3 "Payment method", "Invoice", "Order";
// 7 "Billing and plans"). Amounts are US dollars with two decimals, as plan prices are.
import { z } from 'zod';
import { LOCALES } from './constants';

/** What one payment buys: a month or a year of a plan. */
export const BILLING_PERIODS = ['month', 'year'] as const;
export type BillingPeriod = (typeof BILLING_PERIODS)[number];

/** Share of each payment of a referred account credited to its referrer's balance (docs/payments.md). */
export const REFERRAL_REWARD_SHARE = 0.2;
/** A saved card is charged this many days before the paid period ends. */
export const RENEW_DAYS_BEFORE = 3;

/**
 * POST /api/subscriptions/subscribe and POST api/payment/subscribe: the plan and period to pay
 * for. With a saved card it is charged at once; without one the answer carries the checkout.
 */
export const ZSubscribeBody = z
  .object({
    planId: z.uuid({ message: 'VALIDATION_ERROR' }),
    period: z.enum(BILLING_PERIODS, { message: 'VALIDATION_ERROR' }),
  })
  .strict();
export type SubscribeBody = z.infer<typeof ZSubscribeBody>;

/** GET api/payment/auth: the same choice, as a query, plus the checkout page's language. */
export const ZPaymentAuthQuery = ZSubscribeBody.extend({ lang: z.enum(LOCALES).optional() }).strict();
export type PaymentAuthQuery = z.infer<typeof ZPaymentAuthQuery>;

/** expired: a checkout the buyer left without paying (its lifetime passed: docs/payments.md). */
export const ORDER_STATUSES = ['pending', 'paid', 'failed', 'refunded', 'expired'] as const;
export type OrderStatus = (typeof ORDER_STATUSES)[number];
/** checkout: paid on the provider's page; token: charged on the saved card (a plan change or an
 * early renewal); renewal: the periodic renewal; credit: covered by the referral balance alone. */
export const ORDER_KINDS = ['checkout', 'token', 'renewal', 'credit'] as const;
export type OrderKind = (typeof ORDER_KINDS)[number];

const ZTitle = z.object({ uk: z.string(), en: z.string() });

export const ZOrder = z.object({
  _id: z.string(),
  /** Short number shown to people and sent to the provider as order_id. */
  number: z.string(),
  kind: z.enum(ORDER_KINDS),
  status: z.enum(ORDER_STATUSES),
  planId: z.string(),
  planTitle: ZTitle,
  period: z.enum(BILLING_PERIODS),
  /** The plan's price for the period. */
  amount: z.number(),
  /** Taken from the referral balance. */
  creditUsed: z.number(),
  /** Charged to the card: amount − creditUsed. */
  charged: z.number(),
  currency: z.literal('USD'),
  /** The provider's decline code of a failed order (e.g. "limit", "3ds_failed"); the web translates. */
  errorCode: z.string().nullable(),
  createdAt: z.string(),
  paidAt: z.string().nullable(),
});
export type Order = z.infer<typeof ZOrder>;

export const ZInvoice = z.object({
  _id: z.string(),
  /** LR-2026-000123: the number printed on the PDF. */
  number: z.string(),
  orderId: z.string(),
  status: z.enum(['paid', 'refunded']),
  planTitle: ZTitle,
  period: z.enum(BILLING_PERIODS),
  /** The paid period: the account's expDate before and after the payment (YYYY-MM-DD). */
  periodFrom: z.string(),
  periodTo: z.string(),
  amount: z.number(),
  creditUsed: z.number(),
  charged: z.number(),
  currency: z.literal('USD'),
  /** UAH per USD (NBU) on the day of payment, for the hryvnia equivalent. */
  usdRate: z.number().nullable(),
  issuedAt: z.string(),
});
export type Invoice = z.infer<typeof ZInvoice>;

/** GET api/invoices: spec "returns data, total". */
export const ZInvoiceList = z.object({ data: z.array(ZInvoice), total: z.number().int() });
/** GET /api/orders: spec "returns data.data, data.total". */
export const ZOrderList = z.object({ data: z.object({ data: z.array(ZOrder), total: z.number().int() }) });

/** What of a saved card can be shown: never the token. */
export const ZSavedCard = z.object({
  /** As the provider shows it (LiqPay: first six and last two digits, 424242*42). */
  mask: z.string(),
  /** visa, mc, ... when known. */
  type: z.string().nullable(),
  /** MM/YY when the provider tells it. */
  expiry: z.string().nullable(),
});
export type SavedCard = z.infer<typeof ZSavedCard>;

/** The saved card (spec "Payment method: _id, card"): only what can be shown, never the token. */
export const ZPaymentMethod = z.object({
  _id: z.string(),
  card: ZSavedCard,
  createdAt: z.string(),
});

/** User (me).paymentInfo (spec 3): the saved card as the account header and plan page may show it; null without one. */
export const ZPaymentInfo = z.object({ card: ZSavedCard, savedAt: z.string() });
export type PaymentInfo = z.infer<typeof ZPaymentInfo>;
export type PaymentMethod = z.infer<typeof ZPaymentMethod>;
export const ZPaymentMethodAnswer = z.object({ data: ZPaymentMethod.nullable() });

/** The provider's checkout: POST `fields` to `action` (in an iframe on the plan page). */
export const ZCheckout = z.object({ action: z.string(), fields: z.record(z.string(), z.string()) });
export type Checkout = z.infer<typeof ZCheckout>;

/** Answer of the paying calls: the order, and the checkout when the card is still to be entered. */
export const ZPaymentAnswer = z.object({
  data: z.object({ order: ZOrder, checkout: ZCheckout.nullable() }),
});
export type PaymentAnswer = z.infer<typeof ZPaymentAnswer>['data'];

/** PAYMENT_INFORMER (real-time): an order of the account changed; the web refreshes the account. */
export const ZPaymentInformer = z.object({ orderId: z.string(), status: z.enum(ORDER_STATUSES) });
export type PaymentInformer = z.infer<typeof ZPaymentInformer>;
