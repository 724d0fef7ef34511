// Placeholder copy of the provider interface from the brief; replaced by the liqpay branch's file.
export interface CheckoutRequest {
  orderId: string;
  amount: number;
  currency: 'USD' | 'UAH';
  description: string;
  language: 'uk' | 'en';
  resultUrl: string;
  callbackUrl: string;
  saveCard: boolean;
}
export interface Checkout {
  action: string;
  fields: Record<string, string>;
}
export type PaymentOutcome = 'success' | 'failure' | 'pending' | 'reversed';
export interface PaymentEvent {
  orderId: string;
  paymentId: string | null;
  outcome: PaymentOutcome;
  amount: number;
  currency: string;
  card: { token: string; mask: string; type: string | null; expiry?: string | null } | null;
  errorCode: string | null;
  raw: Record<string, unknown>;
}
export interface PaymentProvider {
  readonly name: string;
  checkout(request: CheckoutRequest): Checkout;
  verifyCallback(body: Record<string, unknown>): PaymentEvent | null;
  chargeToken(request: {
    orderId: string;
    amount: number;
    currency: 'USD' | 'UAH';
    description: string;
    token: string;
    callbackUrl: string;
  }): Promise<PaymentEvent>;
  refund(request: { orderId: string; amount: number }): Promise<PaymentEvent>;
  status(orderId: string): Promise<PaymentEvent | null>;
}
