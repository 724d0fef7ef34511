// LiqPay (PrivatBank) as a PaymentProvider: the checkout form (API 3), the signed callback, and the
// server-to-server API for charges by card token, refunds and status. docs/payments-liqpay.md says
// which parts of the protocol are confirmed from LiqPay's documentation and SDKs and which assumed.
import type {
  ChargeTokenRequest,
  Checkout,
  CheckoutRequest,
  PaymentEvent,
  PaymentOutcome,
  PaymentProvider,
  RefundRequest,
} from '../provider';
import { PaymentProviderError } from '../provider';
import { decodeData, encodeData, liqpaySignature, verifySignature } from './signature';

export const LIQPAY_CHECKOUT_URL = 'https://www.liqpay.ua/api/3/checkout';
export const LIQPAY_API_URL = 'https://www.liqpay.ua/api/request';
/** LiqPay's PHP SDK waits 15 s for the API; so do we. */
export const LIQPAY_TIMEOUT_MS = 15_000;
const API_VERSION = 3;
/** A callback's `data` is a few kilobytes; anything far bigger is not one. */
const MAX_DATA_LENGTH = 64 * 1024;

export interface LiqPayOptions {
  publicKey: string;
  privateKey: string;
  checkoutUrl?: string;
  apiUrl?: string;
  /** Sandbox keys or the emulator: requests carry sandbox=1 and status "sandbox" counts as paid. */
  sandbox?: boolean;
  fetch?: typeof globalThis.fetch;
  timeoutMs?: number;
}

const SUCCESS = new Set(['success', 'wait_compensation']);
const FAILURE = new Set(['failure', 'error']);

/**
 * LiqPay's status word as our outcome. success and wait_compensation (paid, settled in the daily
 * payout) are paid; failure and error failed; reversed was refunded; sandbox is paid only when the
 * provider is set up for test payments (a production install never grants a plan for a test
 * payment). Every other word (3ds_verify, otp_verify, wait_secure, wait_accept, processing,
 * hold_wait, invoice_wait, anything new) is pending: nothing is granted or failed on it.
 */
export function liqpayOutcome(status: string, sandbox: boolean): PaymentOutcome {
  if (SUCCESS.has(status)) return 'success';
  if (FAILURE.has(status)) return 'failure';
  if (status === 'reversed') return 'reversed';
  if (status === 'sandbox') return sandbox ? 'success' : 'failure';
  return 'pending';
}

/** Our errorCode for a test payment reaching a production install. */
export const SANDBOX_REFUSED = 'sandbox_not_accepted';

const text = (v: unknown): string | null =>
  typeof v === 'string' && v !== '' ? v : typeof v === 'number' && Number.isFinite(v) ? String(v) : null;
const number = (v: unknown): number | null => {
  const n = typeof v === 'number' ? v : typeof v === 'string' && v.trim() !== '' ? Number(v) : Number.NaN;
  return Number.isFinite(n) ? n : null;
};
/** Two decimals, as LiqPay takes amounts. */
const money = (amount: number): number => {
  if (!Number.isFinite(amount) || amount <= 0)
    throw new RangeError(`LiqPay: the amount must be positive, not ${amount}`);
  return Math.round(amount * 100) / 100;
};

interface Fallback {
  orderId: string;
  amount: number;
  currency: string;
  /** The status to assume when an answer has none (a refund answered result: ok). */
  status?: string;
}

/** The event a decoded LiqPay object describes, or null when it names no order or status. */
function eventOf(raw: Record<string, unknown>, sandbox: boolean, fallback?: Fallback): PaymentEvent | null {
  const orderId = text(raw.order_id) ?? fallback?.orderId ?? null;
  const status = text(raw.status) ?? fallback?.status ?? null;
  const amount = number(raw.amount) ?? fallback?.amount ?? null;
  if (orderId === null || status === null || amount === null) return null;
  const outcome = liqpayOutcome(status, sandbox);
  const token = text(raw.card_token);
  return {
    orderId,
    paymentId: text(raw.payment_id),
    outcome,
    amount,
    currency: text(raw.currency) ?? fallback?.currency ?? '',
    card: token
      ? { token, mask: text(raw.sender_card_mask2) ?? '', type: text(raw.sender_card_type), expiry: null }
      : null,
    errorCode: outcome !== 'failure' ? null : status === 'sandbox' ? SANDBOX_REFUSED : (text(raw.err_code) ?? status),
    raw,
  };
}

export function createLiqPayProvider(options: LiqPayOptions): PaymentProvider {
  const { publicKey, privateKey } = options;
  const checkoutUrl = options.checkoutUrl ?? LIQPAY_CHECKOUT_URL;
  const apiUrl = options.apiUrl ?? LIQPAY_API_URL;
  const sandbox = options.sandbox ?? false;
  const doFetch = options.fetch ?? globalThis.fetch;
  const timeoutMs = options.timeoutMs ?? LIQPAY_TIMEOUT_MS;
  const sandboxFlag = sandbox ? { sandbox: '1' } : {};

  const envelope = (params: Record<string, unknown>) => {
    const data = encodeData({ version: API_VERSION, public_key: publicKey, ...params });
    return { data, signature: liqpaySignature(privateKey, data) };
  };

  /** One call of the server-to-server API: its JSON answer, or a PaymentProviderError when there is none to read. */
  async function call(action: string, params: Record<string, unknown>, orderId: string) {
    const what = `LiqPay ${action} for order ${orderId}`;
    let body: string;
    try {
      const response = await doFetch(apiUrl, {
        method: 'POST',
        headers: { 'content-type': 'application/x-www-form-urlencoded' },
        body: new URLSearchParams(envelope({ action, ...params })).toString(),
        signal: AbortSignal.timeout(timeoutMs),
      });
      if (!response.ok) {
        await response.body?.cancel().catch(() => {});
        throw new PaymentProviderError(`${what}: the API answered HTTP ${response.status}`, 'http');
      }
      body = await response.text();
    } catch (error) {
      if (error instanceof PaymentProviderError) throw error;
      const timedOut = error instanceof Error && (error.name === 'TimeoutError' || error.name === 'AbortError');
      throw timedOut
        ? new PaymentProviderError(`${what}: no answer within ${timeoutMs} ms`, 'timeout', { cause: error })
        : new PaymentProviderError(`${what}: the API could not be reached`, 'network', { cause: error });
    }
    let answer: unknown;
    try {
      answer = JSON.parse(body);
    } catch {
      answer = null;
    }
    if (answer === null || typeof answer !== 'object' || Array.isArray(answer)) {
      throw new PaymentProviderError(`${what}: the answer is not a JSON object`, 'protocol');
    }
    return answer as Record<string, unknown>;
  }

  const readable = (event: PaymentEvent | null, action: string, orderId: string): PaymentEvent => {
    if (!event)
      throw new PaymentProviderError(`LiqPay ${action} for order ${orderId}: the answer has no status`, 'protocol');
    return event;
  };

  return {
    name: 'liqpay',

    checkout(request: CheckoutRequest): Checkout {
      const { data, signature } = envelope({
        action: 'pay',
        amount: money(request.amount),
        currency: request.currency,
        description: request.description,
        order_id: request.orderId,
        language: request.language,
        result_url: request.resultUrl,
        server_url: request.callbackUrl,
        ...(request.saveCard ? { recurringbytoken: '1' } : {}),
        ...sandboxFlag,
      });
      return { action: checkoutUrl, fields: { data, signature } };
    },

    verifyCallback(body: Record<string, unknown>): PaymentEvent | null {
      try {
        const { data, signature } = body ?? {};
        if (typeof data !== 'string' || typeof signature !== 'string') return null;
        if (data.length > MAX_DATA_LENGTH || signature.length > 128) return null;
        if (!verifySignature(privateKey, data, signature)) return null;
        const decoded = decodeData(data);
        // Signed with our private key yet naming another shop: not ours to act on.
        if (!decoded || (decoded.public_key !== undefined && decoded.public_key !== publicKey)) return null;
        return eventOf(decoded, sandbox);
      } catch {
        return null;
      }
    },

    async chargeToken(request: ChargeTokenRequest): Promise<PaymentEvent> {
      const amount = money(request.amount);
      const answer = await call(
        'paytoken',
        {
          amount,
          currency: request.currency,
          description: request.description,
          order_id: request.orderId,
          card_token: request.token,
          server_url: request.callbackUrl,
          ...sandboxFlag,
        },
        request.orderId,
      );
      // An error answer with no status word still means no money moved: a failure.
      const status = answer.result === 'error' ? 'error' : undefined;
      const fallback = { orderId: request.orderId, amount, currency: request.currency, status };
      return readable(eventOf(answer, sandbox, fallback), 'paytoken', request.orderId);
    },

    async refund(request: RefundRequest): Promise<PaymentEvent> {
      const amount = money(request.amount);
      const answer = await call('refund', { order_id: request.orderId, amount }, request.orderId);
      // Confirmed: a refund is answered with the payment's new status (reversed); an answer with
      // result ok and no status is taken as done, result error as refused (outcome failure).
      const status = answer.result === 'ok' ? 'reversed' : 'error';
      const fallback = { orderId: request.orderId, amount, currency: '', status };
      return readable(eventOf(answer, sandbox, fallback), 'refund', request.orderId);
    },

    async status(orderId: string): Promise<PaymentEvent | null> {
      const answer = await call('status', { order_id: orderId }, orderId);
      if (answer.err_code === 'payment_not_found') return null;
      // An answer about the request itself (a wrong key, no access) names no order: that is not
      // the payment failing, and nothing may be concluded from it.
      if (text(answer.order_id) === null) {
        const code = text(answer.err_code) ?? 'no order_id';
        throw new PaymentProviderError(`LiqPay status for order ${orderId}: the API refused (${code})`, 'protocol');
      }
      return eventOf(answer, sandbox);
    },
  };
}
