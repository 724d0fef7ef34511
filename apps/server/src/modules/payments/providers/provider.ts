// What the payments service asks of a payment provider. One provider is one folder beside this
// file (liqpay/) and one line in providers/index.ts; nothing else knows which provider it is.
import type { Checkout } from '@leadrelay/shared';

export type { Checkout };

export type PaymentCurrency = 'USD' | 'UAH';

export interface CheckoutRequest {
  /** Our order's id, echoed back in every event about it (unique per attempt: a provider refuses a reused one). */
  orderId: string;
  /** Major units, two decimals (12.5 is $12.50). */
  amount: number;
  currency: PaymentCurrency;
  description: string;
  /** The provider's page language. */
  language: 'uk' | 'en';
  /** Where the buyer's browser goes back to after paying. */
  resultUrl: string;
  /** Where the provider posts its signed server-to-server callback. */
  callbackUrl: string;
  /** Ask for a card token so later charges need no buyer (recurring charges). */
  saveCard: boolean;
}

export type PaymentOutcome = 'success' | 'failure' | 'pending' | 'reversed';

export interface SavedCard {
  /** Charges this card later (chargeToken). A secret: seal it, never show or log it. */
  token: string;
  /** As the provider shows it (LiqPay: first six and last two digits, "424242*42"). */
  mask: string;
  /** visa, mc … when the provider tells it. */
  type: string | null;
  /** MM/YY when the provider tells it (LiqPay does not). */
  expiry?: string | null;
}

export interface PaymentEvent {
  orderId: string;
  /** The provider's id of the payment, when there is one. */
  paymentId: string | null;
  outcome: PaymentOutcome;
  /** Major units, as the provider reports them. */
  amount: number;
  currency: string;
  /** The card to save: only when a token was asked for and the provider issued one. */
  card: SavedCard | null;
  /** The provider's reason for a failure (LiqPay's err_code: "limit", "9859" …), else null. */
  errorCode: string | null;
  /** Everything the provider said, its own status word included (never shown to a buyer: it holds the card token). */
  raw: Record<string, unknown>;
}

export interface ChargeTokenRequest {
  orderId: string;
  amount: number;
  currency: PaymentCurrency;
  description: string;
  token: string;
  callbackUrl: string;
}

export interface RefundRequest {
  orderId: string;
  /** Major units; less than the payment is a partial refund. */
  amount: number;
}

/**
 * The network calls (chargeToken, refund, status) resolve to an event whenever the provider
 * answered, a decline included (outcome 'failure' with its errorCode). They reject with a
 * PaymentProviderError only when the outcome is unknown: no answer, a timeout, an HTTP error, an
 * unreadable body. The charge may then have happened: ask status() or wait for the callback.
 */
export interface PaymentProvider {
  readonly name: string;
  /** The form the buyer's browser posts (in an iframe or the top window). Pure, no network. */
  checkout(request: CheckoutRequest): Checkout;
  /** The verified event of a callback body, or null when the signature does not match or the body is malformed. Never throws. */
  verifyCallback(body: Record<string, unknown>): PaymentEvent | null;
  /** Charges a saved card with no buyer present. */
  chargeToken(request: ChargeTokenRequest): Promise<PaymentEvent>;
  /** Returns money of a successful payment to the card: outcome 'reversed' when done. */
  refund(request: RefundRequest): Promise<PaymentEvent>;
  /** What the provider knows of an order now; null when it knows none. */
  status(orderId: string): Promise<PaymentEvent | null>;
}

/** The provider could not be asked or its answer could not be read: the outcome is unknown. */
export class PaymentProviderError extends Error {
  override readonly name = 'PaymentProviderError';
  constructor(
    message: string,
    /** network: no connection; timeout; http: a non-2xx answer; protocol: a 2xx answer we cannot read. */
    readonly kind: 'network' | 'timeout' | 'http' | 'protocol',
    options?: { cause?: unknown },
  ) {
    super(message, options);
  }
}
