// A stateful stand-in for LiqPay on loopback (EMULATORS=true, the tests, the end-to-end suite):
// the checkout page a buyer pays on (Pay / Decline / 3-D Secure fails), the signed callbacks to
// server_url, and the server-to-server API (paytoken, refund, status), with switches for the
// awkward cases: declined charges, duplicate, late or replayed callbacks, an API that fails.
import { randomBytes } from 'node:crypto';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { decodeData, encodeData, liqpaySignature, verifySignature } from './signature';

export const EMULATOR_PUBLIC_KEY = 'sandbox_emulator_public';
export const EMULATOR_PRIVATE_KEY = 'sandbox_emulator_private';
/** The one card the checkout page pays with: Visa 4242 4242 4242 4242, shown as LiqPay masks it. */
export const EMULATOR_CARD = { mask: '424242*42', type: 'visa' } as const;
const DECLINE_CODE = 'limit';
const THREE_DS_CODE = 'expired_3ds';
const MAX_BODY_BYTES = 64 * 1024;

export interface EmulatedCard {
  mask: string;
  type: string;
  /** The order that saved it (null for one made by createToken). */
  orderId: string | null;
}

export interface EmulatedPayment {
  orderId: string;
  paymentId: number;
  /** LiqPay's status word: success, sandbox, failure, reversed. */
  status: string;
  amount: number;
  currency: string;
  description: string;
  serverUrl: string | null;
  /** Total refunded so far. */
  refunded: number;
  /** What the last callback or status answer carried. */
  data: Record<string, unknown>;
}

export interface SentCallback {
  url: string;
  data: string;
  signature: string;
  /** The decoded data. */
  payload: Record<string, unknown>;
  /** Our server's HTTP status, or null when it could not be reached (then `error`). */
  answer: number | null;
  error: string | null;
  sentAt: string;
}

export interface LiqPayEmulator {
  /** The emulator's root, e.g. http://127.0.0.1:41234. */
  url: string;
  /** PAYMENT_CHECKOUT_URL: {url}/api/3/checkout. */
  checkoutUrl: string;
  /** PAYMENT_API_URL: {url}/api/request. */
  apiUrl: string;
  publicKey: string;
  privateKey: string;
  /** Card tokens issued (checkout with recurringbytoken, or createToken). */
  tokens: ReadonlyMap<string, EmulatedCard>;
  /** Payments by order_id. */
  payments: ReadonlyMap<string, EmulatedPayment>;
  /** Every callback sent, in order (a duplicate is sent and listed twice). */
  sentCallbacks: readonly SentCallback[];
  /** The next n paytoken charges are declined (status failure, err_code `code`, default "limit"). */
  declineNextCharges(n: number, code?: string): void;
  /** Send every callback twice, as a provider retrying a delivery does. */
  duplicateCallbacks(on: boolean): void;
  /** Send callbacks this long after the event (the buyer's page and the API answer do not wait). */
  delayCallbacksMs(ms: number): void;
  /** The next n API requests answer this HTTP status with no JSON (default 503). */
  failNextApiRequests(n: number, status?: number): void;
  /** Sends sentCallbacks[index] again, as it was: a late or out-of-order delivery. */
  resendCallback(index: number): Promise<SentCallback>;
  /** A saved card without a checkout (a test that starts from "the account has a card"). */
  createToken(card?: Partial<Pick<EmulatedCard, 'mask' | 'type'>>): string;
  /** Resolves when every delayed callback has been sent. */
  settled(): Promise<void>;
  close(): Promise<void>;
}

export interface LiqPayEmulatorOptions {
  publicKey?: string;
  privateKey?: string;
  /** 0 (default): a free port. */
  port?: number;
}

type Params = Record<string, unknown>;
type Choice = 'pay' | 'decline' | '3ds-fail';

const esc = (v: unknown) => String(v ?? '').replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);
const str = (v: unknown) => (typeof v === 'string' || typeof v === 'number' ? String(v) : '');
const amountOf = (v: unknown) => {
  const n = typeof v === 'number' ? v : typeof v === 'string' ? Number(v) : Number.NaN;
  return Number.isFinite(n) && n > 0 ? Math.round(n * 100) / 100 : null;
};

const LABELS = {
  uk: {
    title: 'Оплата',
    order: 'Замовлення',
    amount: 'Сума',
    card: 'Картка',
    pay: 'Сплатити',
    decline: 'Відхилити',
    threeDs: '3-D Secure не пройдено',
    paid: 'Оплату прийнято',
    failed: 'Оплату не проведено',
    back: 'Повернутися до магазину',
    error: 'Помилка запиту',
  },
  en: {
    title: 'Payment',
    order: 'Order',
    amount: 'Amount',
    card: 'Card',
    pay: 'Pay',
    decline: 'Decline',
    threeDs: '3-D Secure fails',
    paid: 'Payment accepted',
    failed: 'Payment failed',
    back: 'Back to the shop',
    error: 'Request error',
  },
};
const labelsOf = (language: unknown) => (language === 'en' ? LABELS.en : LABELS.uk);

const page = (title: string, body: string, lang: string) =>
  `<!doctype html><html lang="${esc(lang)}"><head><meta charset="utf-8"><title>${esc(title)} · LiqPay emulator</title>` +
  '<meta name="viewport" content="width=device-width, initial-scale=1">' +
  '<style>body{font-family:system-ui,sans-serif;max-width:420px;margin:24px auto;padding:0 16px;color:#222}' +
  'button{display:block;width:100%;margin:8px 0;padding:12px;font-size:16px;border-radius:6px;border:1px solid #888;cursor:pointer}' +
  '.pay{background:#77cc5d;color:#fff;border-color:#5aa845}dt{color:#666}dd{margin:0 0 8px}</style></head>' +
  `<body>${body}<p style="color:#888;font-size:12px;margin-top:32px">LiqPay emulator · no money moves</p></body></html>`;

async function readBody(req: IncomingMessage): Promise<string | null> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of req) {
    size += (chunk as Buffer).length;
    if (size > MAX_BODY_BYTES) return null;
    chunks.push(chunk as Buffer);
  }
  return Buffer.concat(chunks).toString('utf8');
}

export async function startLiqPayEmulator(options: LiqPayEmulatorOptions = {}): Promise<LiqPayEmulator> {
  const publicKey = options.publicKey ?? EMULATOR_PUBLIC_KEY;
  const privateKey = options.privateKey ?? EMULATOR_PRIVATE_KEY;
  const sessions = new Map<string, Params>();
  const payments = new Map<string, EmulatedPayment>();
  const tokens = new Map<string, EmulatedCard>();
  const sentCallbacks: SentCallback[] = [];
  const delayed = new Set<Promise<unknown>>();
  let declines: { left: number; code: string } = { left: 0, code: DECLINE_CODE };
  let apiFaults = { left: 0, status: 503 };
  let duplicate = false;
  let delayMs = 0;
  let nextPaymentId = 1_000_000_001;
  let closed = false;

  const newToken = () => randomBytes(13).toString('hex').toUpperCase().slice(0, 25);

  async function deliver(url: string, data: string, signature: string): Promise<SentCallback> {
    const record: SentCallback = {
      url,
      data,
      signature,
      payload: decodeData(data) ?? {},
      answer: null,
      error: null,
      sentAt: new Date().toISOString(),
    };
    sentCallbacks.push(record);
    try {
      const response = await fetch(url, {
        method: 'POST',
        headers: { 'content-type': 'application/x-www-form-urlencoded' },
        body: new URLSearchParams({ data, signature }).toString(),
        signal: AbortSignal.timeout(10_000),
      });
      record.answer = response.status;
      await response.body?.cancel().catch(() => {});
    } catch (error) {
      record.error = error instanceof Error ? error.message : String(error);
    }
    return record;
  }

  /** Signs the payload and posts it to server_url (twice when duplicating; later when delaying). */
  async function sendCallback(url: string | null, payload: Params): Promise<void> {
    if (!url) return;
    const data = encodeData(payload);
    const signature = liqpaySignature(privateKey, data);
    const send = async () => {
      await deliver(url, data, signature);
      if (duplicate) await deliver(url, data, signature);
    };
    if (delayMs <= 0) return send();
    const later = new Promise<void>((resolve) => setTimeout(resolve, delayMs))
      .then(() => (closed ? undefined : send()))
      .finally(() => delayed.delete(later));
    delayed.add(later);
  }

  /** A payment's callback/status fields, in LiqPay's names. */
  function paymentData(p: EmulatedPayment, extra: Params = {}): Params {
    const now = Date.now();
    return {
      payment_id: p.paymentId,
      action: 'pay',
      status: p.status,
      version: 3,
      type: 'buy',
      paytype: 'card',
      public_key: publicKey,
      acq_id: 414963,
      order_id: p.orderId,
      liqpay_order_id: `EMU${p.paymentId}`,
      description: p.description,
      sender_card_mask2: EMULATOR_CARD.mask,
      sender_card_bank: 'Test',
      sender_card_type: EMULATOR_CARD.type,
      sender_card_country: 804,
      amount: p.amount,
      currency: p.currency,
      sender_commission: 0,
      receiver_commission: Math.round(p.amount * 1.5) / 100,
      is_3ds: false,
      create_date: now,
      end_date: now,
      transaction_id: p.paymentId,
      ...(p.refunded > 0 ? { refund_amount: p.refunded } : {}),
      ...extra,
    };
  }

  /** Records a payment of an order and says what its callback carries. */
  function settle(
    params: Params,
    outcome: 'paid' | 'declined' | '3ds-failed',
    options: { card?: EmulatedCard & { token: string }; declineCode?: string } = {},
  ) {
    const { card, declineCode = DECLINE_CODE } = options;
    const orderId = str(params.order_id);
    const payment: EmulatedPayment = {
      orderId,
      paymentId: nextPaymentId++,
      status: outcome !== 'paid' ? 'failure' : params.sandbox === '1' || params.sandbox === 1 ? 'sandbox' : 'success',
      amount: amountOf(params.amount) ?? 0,
      currency: str(params.currency),
      description: str(params.description),
      serverUrl: str(params.server_url) || null,
      refunded: 0,
      data: {},
    };
    const failure =
      outcome === 'declined'
        ? { err_code: declineCode, err_description: 'The limit for the amount or number of payments is exceeded' }
        : outcome === '3ds-failed'
          ? { err_code: THREE_DS_CODE, err_description: '3-D Secure verification failed', is_3ds: true }
          : {};
    const saved = card ? { card_token: card.token } : {};
    payment.data = paymentData(payment, { language: str(params.language) || 'uk', ...failure, ...saved });
    payments.set(orderId, payment);
    return payment;
  }

  const alreadyPaid = (orderId: string) => {
    const known = payments.get(orderId);
    return !!known && known.status !== 'failure';
  };

  /** The signed request of a form or query, or what is wrong with it. */
  function signedParams(form: URLSearchParams): { params: Params } | { error: string; description: string } {
    const data = form.get('data');
    const signature = form.get('signature');
    if (!data || !signature) return { error: 'err_missing', description: 'data and signature are required' };
    if (!verifySignature(privateKey, data, signature))
      return { error: 'invalid_signature', description: 'Invalid signature' };
    const params = decodeData(data);
    if (!params) return { error: 'err_wrong', description: 'data is not base64 of a JSON object' };
    if (params.public_key !== publicKey) return { error: 'public_key_not_found', description: 'Unknown public_key' };
    if (Number(params.version) !== 3) return { error: 'err_wrong', description: 'version must be 3' };
    return { params };
  }

  function errorPage(res: ServerResponse, code: string, description: string, language: unknown) {
    const l = labelsOf(language);
    res.writeHead(400, { 'content-type': 'text/html; charset=utf-8' });
    res.end(
      page(
        l.error,
        `<h1>${esc(l.error)}</h1><p data-testid="liqpay-error" data-code="${esc(code)}">${esc(code)}: ${esc(description)}</p>`,
        language === 'en' ? 'en' : 'uk',
      ),
    );
  }

  function checkoutPage(res: ServerResponse, form: URLSearchParams) {
    const signed = signedParams(form);
    if ('error' in signed) return errorPage(res, signed.error, signed.description, undefined);
    const { params } = signed;
    const amount = amountOf(params.amount);
    const missing = ['action', 'currency', 'description', 'order_id'].find((key) => !str(params[key]));
    if (missing || amount === null) {
      return errorPage(res, 'err_missing', `${missing ?? 'amount'} is required`, params.language);
    }
    if (!['USD', 'UAH', 'EUR'].includes(str(params.currency))) {
      return errorPage(res, 'err_wrong_currency', 'currency must be USD, UAH or EUR', params.language);
    }
    if (alreadyPaid(str(params.order_id))) {
      return errorPage(res, 'order_id_duplicate', 'This order_id is already paid', params.language);
    }
    const session = randomBytes(12).toString('hex');
    sessions.set(session, params);
    const l = labelsOf(params.language);
    const lang = params.language === 'en' ? 'en' : 'uk';
    const sum = `${amount.toFixed(2)} ${str(params.currency)}`;
    const button = (choice: Choice, testId: string, label: string, cls = '') =>
      `<form method="post" action="/api/3/checkout/${session}/${choice}">` +
      `<button type="submit" class="${cls}" data-testid="${testId}">${esc(label)}</button></form>`;
    res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' });
    res.end(
      page(
        l.title,
        `<h1>${esc(l.title)}</h1><p data-testid="liqpay-description">${esc(params.description)}</p>` +
          `<dl><dt>${esc(l.amount)}</dt><dd data-testid="liqpay-amount">${esc(sum)}</dd>` +
          `<dt>${esc(l.order)}</dt><dd>${esc(params.order_id)}</dd>` +
          `<dt>${esc(l.card)}</dt><dd>4242 4242 4242 4242</dd></dl>` +
          button('pay', 'liqpay-pay', `${l.pay} ${sum}`, 'pay') +
          button('decline', 'liqpay-decline', l.decline) +
          button('3ds-fail', 'liqpay-3ds-fail', l.threeDs),
        lang,
      ),
    );
  }

  async function decide(res: ServerResponse, session: string, choice: Choice) {
    const params = sessions.get(session);
    if (!params) return errorPage(res, 'err_cache', 'This checkout has expired or was already used', undefined);
    sessions.delete(session);
    if (alreadyPaid(str(params.order_id))) {
      return errorPage(res, 'order_id_duplicate', 'This order_id is already paid', params.language);
    }
    let card: (EmulatedCard & { token: string }) | undefined;
    if (choice === 'pay' && str(params.recurringbytoken) === '1') {
      const token = newToken();
      card = { token, mask: EMULATOR_CARD.mask, type: EMULATOR_CARD.type, orderId: str(params.order_id) };
      tokens.set(token, { mask: card.mask, type: card.type, orderId: card.orderId });
    }
    const payment = settle(params, choice === 'pay' ? 'paid' : choice === 'decline' ? 'declined' : '3ds-failed', {
      card,
    });
    await sendCallback(payment.serverUrl, payment.data);
    const l = labelsOf(params.language);
    const ok = payment.status !== 'failure';
    const resultUrl = str(params.result_url);
    // In an iframe the parent page hears it; alone, the page goes back to the shop as LiqPay's does.
    const message = JSON.stringify({ liqpay: 'done', status: payment.status, orderId: payment.orderId }).replace(
      /</g,
      '\\u003c',
    );
    const script =
      `<script>(function(){var m=${message},r=${JSON.stringify(resultUrl).replace(/</g, '\\u003c')};` +
      'try{window.top.postMessage(m,"*")}catch(e){}' +
      'if(window.top===window&&r){setTimeout(function(){location.href=r},1500)}})();</script>';
    res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' });
    res.end(
      page(
        ok ? l.paid : l.failed,
        `<h1 data-testid="liqpay-result" data-status="${esc(payment.status)}">${esc(ok ? l.paid : l.failed)}</h1>` +
          (resultUrl
            ? `<p><a data-testid="liqpay-return" href="${esc(resultUrl)}" target="_top">${esc(l.back)}</a></p>`
            : '') +
          script,
        params.language === 'en' ? 'en' : 'uk',
      ),
    );
  }

  /** The server-to-server API: always HTTP 200 with JSON, as LiqPay answers. */
  async function api(form: URLSearchParams): Promise<Params> {
    const signed = signedParams(form);
    if ('error' in signed)
      return { result: 'error', status: 'error', err_code: signed.error, err_description: signed.description };
    const { params } = signed;
    const orderId = str(params.order_id);
    const refused = (code: string, description: string) => ({
      result: 'error',
      status: 'error',
      err_code: code,
      err_description: description,
      ...(orderId ? { order_id: orderId } : {}),
    });
    if (!orderId) return refused('order_id_empty', 'order_id is required');
    switch (params.action) {
      case 'paytoken': {
        const token = str(params.card_token);
        const card = tokens.get(token);
        if (!card) return refused('err_no_card_token', 'No card with this token');
        if (amountOf(params.amount) === null || !str(params.currency))
          return refused('err_missing', 'amount and currency are required');
        if (alreadyPaid(orderId)) return refused('order_id_duplicate', 'This order_id is already paid');
        const declined = declines.left > 0;
        if (declined) declines = { ...declines, left: declines.left - 1 };
        const payment = settle(params, declined ? 'declined' : 'paid', { declineCode: declines.code });
        payment.data = {
          ...payment.data,
          action: 'paytoken',
          sender_card_mask2: card.mask,
          sender_card_type: card.type,
        };
        await sendCallback(payment.serverUrl, payment.data);
        return { result: declined ? 'error' : 'ok', ...payment.data };
      }
      case 'refund': {
        const payment = payments.get(orderId);
        if (!payment) return refused('payment_not_found', 'Payment not found');
        if (payment.status !== 'success' && payment.status !== 'sandbox' && payment.status !== 'reversed') {
          return refused('payment_err_status', 'The payment cannot be refunded in its status');
        }
        const requested = params.amount === undefined ? payment.amount - payment.refunded : amountOf(params.amount);
        const left = Math.round((payment.amount - payment.refunded) * 100) / 100;
        if (requested === null || requested > left || left <= 0) {
          return refused('err_amount_hold', 'The amount is more than is left to refund');
        }
        payment.refunded = Math.round((payment.refunded + requested) * 100) / 100;
        payment.status = 'reversed';
        payment.data = { ...payment.data, status: 'reversed', refund_amount: payment.refunded };
        await sendCallback(payment.serverUrl, payment.data);
        return { result: 'ok', ...payment.data };
      }
      case 'status': {
        const payment = payments.get(orderId);
        if (!payment) return refused('payment_not_found', 'Payment not found');
        return { result: 'ok', ...payment.data };
      }
      default:
        return refused('err_api_action', `Unknown action ${str(params.action)}`);
    }
  }

  const server = createServer((req, res) => {
    void (async () => {
      const url = new URL(req.url ?? '/', 'http://emulator');
      const body = req.method === 'POST' ? await readBody(req) : '';
      if (body === null) {
        res.writeHead(413).end();
        return;
      }
      const form = req.method === 'POST' ? new URLSearchParams(body) : url.searchParams;
      if (url.pathname === '/api/3/checkout' || url.pathname === '/api/3/checkout/') {
        return checkoutPage(res, form);
      }
      const decision = /^\/api\/3\/checkout\/([0-9a-f]{24})\/(pay|decline|3ds-fail)$/.exec(url.pathname);
      if (decision && req.method === 'POST') return decide(res, decision[1]!, decision[2] as Choice);
      if (url.pathname === '/api/request' && req.method === 'POST') {
        if (apiFaults.left > 0) {
          apiFaults = { ...apiFaults, left: apiFaults.left - 1 };
          res.writeHead(apiFaults.status, { 'content-type': 'text/html' }).end('<html>Service Unavailable</html>');
          return;
        }
        const answer = await api(form);
        res.writeHead(200, { 'content-type': 'application/json; charset=utf-8' }).end(JSON.stringify(answer));
        return;
      }
      res.writeHead(404, { 'content-type': 'text/plain' }).end('not found');
    })().catch((error: unknown) => {
      if (!res.headersSent) res.writeHead(500, { 'content-type': 'text/plain' });
      res.end(error instanceof Error ? error.message : 'error');
    });
  });
  await new Promise<void>((resolve) => server.listen(options.port ?? 0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  const root = `http://127.0.0.1:${port}`;

  return {
    url: root,
    checkoutUrl: `${root}/api/3/checkout`,
    apiUrl: `${root}/api/request`,
    publicKey,
    privateKey,
    tokens,
    payments,
    sentCallbacks,
    declineNextCharges: (n, code = DECLINE_CODE) => {
      declines = { left: n, code };
    },
    duplicateCallbacks: (on) => {
      duplicate = on;
    },
    delayCallbacksMs: (ms) => {
      delayMs = ms;
    },
    failNextApiRequests: (n, status = 503) => {
      apiFaults = { left: n, status };
    },
    resendCallback: async (index) => {
      const sent = sentCallbacks[index];
      if (!sent) throw new Error(`No callback #${index}: ${sentCallbacks.length} were sent`);
      return deliver(sent.url, sent.data, sent.signature);
    },
    createToken: (card = {}) => {
      const token = newToken();
      tokens.set(token, {
        mask: card.mask ?? EMULATOR_CARD.mask,
        type: card.type ?? EMULATOR_CARD.type,
        orderId: null,
      });
      return token;
    },
    settled: async () => {
      while (delayed.size > 0) await Promise.all([...delayed]);
    },
    close: async () => {
      closed = true;
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}
