// The provider against the LiqPay emulator, as the app and a buyer use them: the checkout form is
// posted, a button pressed, and the signed callback arrives at a server of ours and verifies.
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { Checkout, CheckoutRequest, PaymentProvider } from '../provider';
import { createLiqPayProvider } from './liqpay';
import { EMULATOR_CARD, type LiqPayEmulator, startLiqPayEmulator } from './liqpay-emulator';

interface Receiver {
  url: string;
  bodies: Record<string, string>[];
  /** Resolves once `n` callbacks have arrived in all. */
  waitFor(n: number): Promise<Record<string, string>[]>;
  close(): Promise<void>;
}

/** Our end of the callbacks: records each form-encoded POST and answers 200. */
async function startReceiver(): Promise<Receiver> {
  const bodies: Record<string, string>[] = [];
  const waiters: { n: number; resolve: () => void }[] = [];
  const server: Server = createServer((req, res) => {
    let body = '';
    req.setEncoding('utf8');
    req.on('data', (chunk: string) => {
      body += chunk;
    });
    req.on('end', () => {
      bodies.push(Object.fromEntries(new URLSearchParams(body)));
      for (const w of waiters.filter((w) => bodies.length >= w.n)) w.resolve();
      res.writeHead(200, { 'content-type': 'application/json' }).end('{"ok":true}');
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}/api/payment/callback`,
    bodies,
    waitFor: (n) =>
      bodies.length >= n
        ? Promise.resolve(bodies)
        : new Promise((resolve) => waiters.push({ n, resolve: () => resolve(bodies) })),
    close: () => new Promise((resolve) => server.close(() => resolve())),
  };
}

let emulator: LiqPayEmulator;
let receiver: Receiver;
let provider: PaymentProvider;
let orders = 0;
const nextOrder = () => `LR-${Date.now()}-${++orders}`;

beforeAll(async () => {
  emulator = await startLiqPayEmulator();
  receiver = await startReceiver();
  provider = createLiqPayProvider({
    publicKey: emulator.publicKey,
    privateKey: emulator.privateKey,
    checkoutUrl: emulator.checkoutUrl,
    apiUrl: emulator.apiUrl,
  });
});
afterAll(async () => {
  await emulator?.close();
  await receiver?.close();
});
afterEach(() => {
  emulator.duplicateCallbacks(false);
  emulator.delayCallbacksMs(0);
  receiver.bodies.length = 0;
});

const requestOf = (orderId: string, overrides: Partial<CheckoutRequest> = {}): CheckoutRequest => ({
  orderId,
  amount: 29,
  currency: 'USD',
  description: 'LeadRelay — тариф «Бізнес», місяць',
  language: 'uk',
  resultUrl: 'http://app.test/admin/plan',
  callbackUrl: receiver.url,
  saveCard: true,
  ...overrides,
});
const checkoutOf = (orderId: string, overrides: Partial<CheckoutRequest> = {}) =>
  provider.checkout(requestOf(orderId, overrides));

/** What a browser does with the checkout: posts the form and gets the page. */
async function open(checkout: Checkout): Promise<{ status: number; html: string }> {
  const res = await fetch(checkout.action, {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams(checkout.fields).toString(),
  });
  return { status: res.status, html: await res.text() };
}

/** Presses the button with this test id: posts the form it sits in. */
async function press(html: string, testId: string): Promise<string> {
  const form = new RegExp(`<form method="post" action="([^"]+)"><button[^>]*data-testid="${testId}"`).exec(html);
  expect(form, `a form with the ${testId} button`).not.toBeNull();
  const res = await fetch(new URL(form![1]!, emulator.url), { method: 'POST' });
  expect(res.status).toBe(200);
  return res.text();
}

describe('checkout', () => {
  it('shows the amount and description, and paying sends a signed callback with the saved card', async () => {
    const orderId = nextOrder();
    const page = await open(checkoutOf(orderId));
    expect(page.status).toBe(200);
    expect(page.html).toContain('29.00 USD');
    expect(page.html).toContain('LeadRelay — тариф «Бізнес», місяць');
    expect(page.html).toContain('Сплатити');
    for (const id of ['liqpay-pay', 'liqpay-decline', 'liqpay-3ds-fail'])
      expect(page.html).toContain(`data-testid="${id}"`);

    const result = await press(page.html, 'liqpay-pay');
    expect(result).toContain('data-status="success"');
    expect(result).toContain('href="http://app.test/admin/plan"');
    expect(result).toContain('postMessage');

    const [callback] = await receiver.waitFor(1);
    const event = provider.verifyCallback(callback!);
    expect(event).toMatchObject({ orderId, outcome: 'success', amount: 29, currency: 'USD', errorCode: null });
    expect(event?.card).toEqual({ token: expect.any(String), mask: EMULATOR_CARD.mask, type: 'visa', expiry: null });
    expect(emulator.tokens.get(event!.card!.token)).toMatchObject({ orderId, mask: '424242*42' });
  });

  it('speaks English when asked, and saves no card unless asked', async () => {
    const page = await open(checkoutOf(nextOrder(), { language: 'en', saveCard: false }));
    expect(page.html).toContain('Pay 29.00 USD');
    expect(page.html).toContain('3-D Secure fails');
    await press(page.html, 'liqpay-pay');
    const [callback] = await receiver.waitFor(1);
    expect(provider.verifyCallback(callback!)).toMatchObject({ outcome: 'success', card: null });
  });

  it('a declined card and a failed 3-D Secure are failures with their codes', async () => {
    const declined = nextOrder();
    await press((await open(checkoutOf(declined))).html, 'liqpay-decline');
    const threeDs = nextOrder();
    const result = await press((await open(checkoutOf(threeDs))).html, 'liqpay-3ds-fail');
    expect(result).toContain('data-status="failure"');
    const callbacks = await receiver.waitFor(2);
    const events = callbacks.map((c) => provider.verifyCallback(c));
    expect(events[0]).toMatchObject({ orderId: declined, outcome: 'failure', errorCode: 'limit', card: null });
    expect(events[1]).toMatchObject({ orderId: threeDs, outcome: 'failure', errorCode: 'expired_3ds', card: null });
  });

  it('a form with a bad signature gets an error page, and nothing is paid', async () => {
    const checkout = checkoutOf(nextOrder());
    const forged = { ...checkout, fields: { ...checkout.fields, signature: 'AAAAAAAAAAAAAAAAAAAAAAAAAAA=' } };
    const page = await open(forged);
    expect(page.status).toBe(400);
    expect(page.html).toContain('data-testid="liqpay-error"');
    expect(page.html).toContain('invalid_signature');
    expect(page.html).not.toContain('liqpay-pay');
    const otherKey = createLiqPayProvider({
      publicKey: emulator.publicKey,
      privateKey: 'wrong',
      checkoutUrl: emulator.checkoutUrl,
    });
    expect((await open(otherKey.checkout(requestOf(nextOrder())))).status).toBe(400);
  });

  it('an order that is paid cannot be paid again', async () => {
    const orderId = nextOrder();
    await press((await open(checkoutOf(orderId))).html, 'liqpay-pay');
    const again = await open(checkoutOf(orderId));
    expect(again.status).toBe(400);
    expect(again.html).toContain('order_id_duplicate');
  });

  it('a sandbox provider gets status "sandbox" and counts it as paid', async () => {
    const sandbox = createLiqPayProvider({
      publicKey: emulator.publicKey,
      privateKey: emulator.privateKey,
      checkoutUrl: emulator.checkoutUrl,
      sandbox: true,
    });
    const orderId = nextOrder();
    const page = await open(sandbox.checkout(requestOf(orderId)));
    await press(page.html, 'liqpay-pay');
    const [callback] = await receiver.waitFor(1);
    expect(sandbox.verifyCallback(callback!)).toMatchObject({
      orderId,
      outcome: 'success',
      raw: { status: 'sandbox' },
    });
    expect(provider.verifyCallback(callback!)).toMatchObject({ outcome: 'failure', errorCode: 'sandbox_not_accepted' });
  });
});

describe('charges by card token, refunds, status', () => {
  const charge = (token: string, orderId = nextOrder()) =>
    provider.chargeToken({
      orderId,
      amount: 29,
      currency: 'USD',
      description: 'Renewal',
      token,
      callbackUrl: receiver.url,
    });

  it('a saved token is charged, the callback comes as well, and the next charge is declined on demand', async () => {
    const token = emulator.createToken();
    const ok = await charge(token);
    expect(ok).toMatchObject({ outcome: 'success', amount: 29, errorCode: null });
    const [callback] = await receiver.waitFor(1);
    expect(provider.verifyCallback(callback!)).toMatchObject({ orderId: ok.orderId, outcome: 'success' });

    emulator.declineNextCharges(1);
    await expect(charge(token)).resolves.toMatchObject({ outcome: 'failure', errorCode: 'limit' });
    await expect(charge(token)).resolves.toMatchObject({ outcome: 'success' });
    emulator.declineNextCharges(1, '9859');
    await expect(charge(token)).resolves.toMatchObject({ outcome: 'failure', errorCode: '9859' });
  });

  it('an unknown token or a reused order id is refused, not thrown', async () => {
    await expect(charge('NO-SUCH-TOKEN')).resolves.toMatchObject({
      outcome: 'failure',
      errorCode: 'err_no_card_token',
    });
    const token = emulator.createToken();
    const first = await charge(token);
    await expect(charge(token, first.orderId)).resolves.toMatchObject({
      outcome: 'failure',
      errorCode: 'order_id_duplicate',
    });
  });

  it('a refund reverses the payment, tells the callback, and shows in status', async () => {
    const paid = await charge(emulator.createToken());
    await receiver.waitFor(1);
    await expect(provider.refund({ orderId: paid.orderId, amount: 10 })).resolves.toMatchObject({
      orderId: paid.orderId,
      outcome: 'reversed',
      raw: { refund_amount: 10 },
    });
    const callbacks = await receiver.waitFor(2);
    expect(provider.verifyCallback(callbacks[1]!)).toMatchObject({ orderId: paid.orderId, outcome: 'reversed' });
    await expect(provider.status(paid.orderId)).resolves.toMatchObject({ outcome: 'reversed' });
    // 19 of 29 are left: asking for more is refused.
    await expect(provider.refund({ orderId: paid.orderId, amount: 20 })).resolves.toMatchObject({
      outcome: 'failure',
      errorCode: 'err_amount_hold',
    });
    await expect(provider.refund({ orderId: 'LR-never', amount: 1 })).resolves.toMatchObject({
      outcome: 'failure',
      errorCode: 'payment_not_found',
    });
  });

  it('status answers what LiqPay knows, null for an unknown order', async () => {
    const paid = await charge(emulator.createToken());
    await expect(provider.status(paid.orderId)).resolves.toMatchObject({ outcome: 'success', amount: 29 });
    await expect(provider.status('LR-unknown')).resolves.toBeNull();
  });

  it('an API that fails is an exception with the order in its message', async () => {
    emulator.failNextApiRequests(1);
    await expect(charge(emulator.createToken(), 'LR-down')).rejects.toMatchObject({
      name: 'PaymentProviderError',
      kind: 'http',
      message: expect.stringContaining('LR-down'),
    });
  });
});

describe('awkward callbacks', () => {
  it('duplicate callbacks arrive twice, identical', async () => {
    emulator.duplicateCallbacks(true);
    const paid = await provider.chargeToken({
      orderId: nextOrder(),
      amount: 5,
      currency: 'UAH',
      description: 'x',
      token: emulator.createToken(),
      callbackUrl: receiver.url,
    });
    const [first, second] = await receiver.waitFor(2);
    expect(second).toEqual(first);
    expect(provider.verifyCallback(second!)).toMatchObject({
      orderId: paid.orderId,
      outcome: 'success',
      currency: 'UAH',
    });
  });

  it('a delayed callback comes after the answer; a replayed old one comes after the refund', async () => {
    emulator.delayCallbacksMs(150);
    const paid = await provider.chargeToken({
      orderId: nextOrder(),
      amount: 7,
      currency: 'USD',
      description: 'x',
      token: emulator.createToken(),
      callbackUrl: receiver.url,
    });
    expect(receiver.bodies).toHaveLength(0);
    await emulator.settled();
    expect(receiver.bodies).toHaveLength(1);

    emulator.delayCallbacksMs(0);
    await provider.refund({ orderId: paid.orderId, amount: 7 });
    await receiver.waitFor(2);
    const successIndex = emulator.sentCallbacks.findIndex(
      (c) => c.payload.order_id === paid.orderId && c.payload.status === 'success',
    );
    const replay = await emulator.resendCallback(successIndex);
    expect(replay.answer).toBe(200);
    const bodies = await receiver.waitFor(3);
    expect(bodies.map((b) => provider.verifyCallback(b)?.outcome)).toEqual(['success', 'reversed', 'success']);
  });
});
