// The LiqPay provider on its own: the checkout form, callback verification against hostile input,
// the status mapping, and what a failing API becomes. The emulator end to end is liqpay-emulator.test.ts.
import { describe, expect, it } from 'vitest';
import { PaymentProviderError } from '../provider';
import { createLiqPayProvider, LIQPAY_API_URL, LIQPAY_CHECKOUT_URL, liqpayOutcome, SANDBOX_REFUSED } from './liqpay';
import { decodeData, encodeData, liqpaySignature } from './signature';

const KEYS = { publicKey: 'i00000000001', privateKey: 'test-private-key' };
const provider = createLiqPayProvider(KEYS);

const request = {
  orderId: 'LR-1001',
  amount: 12.5,
  currency: 'USD' as const,
  description: 'LeadRelay: «Бізнес», month',
  language: 'uk' as const,
  resultUrl: 'https://app.example/admin/plan?paid=LR-1001',
  callbackUrl: 'https://app.example/api/payment/callback',
  saveCard: true,
};

/** A callback body as LiqPay signs it. */
const signed = (payload: Record<string, unknown>, privateKey = KEYS.privateKey) => {
  const data = encodeData(payload);
  return { data, signature: liqpaySignature(privateKey, data) };
};

const paid = {
  payment_id: 2699352001,
  action: 'pay',
  status: 'success',
  version: 3,
  public_key: KEYS.publicKey,
  order_id: 'LR-1001',
  amount: 12.5,
  currency: 'USD',
  card_token: 'B5B0B0D00B88B00ED00A00D0D',
  sender_card_mask2: '424242*42',
  sender_card_type: 'visa',
};

describe('checkout', () => {
  it('is a form to LiqPay’s checkout with data and signature fields', () => {
    const checkout = provider.checkout(request);
    expect(checkout.action).toBe(LIQPAY_CHECKOUT_URL);
    expect(Object.keys(checkout.fields).sort()).toEqual(['data', 'signature']);
    expect(checkout.fields.signature).toBe(liqpaySignature(KEYS.privateKey, checkout.fields.data!));
    expect(decodeData(checkout.fields.data)).toEqual({
      version: 3,
      public_key: KEYS.publicKey,
      action: 'pay',
      amount: 12.5,
      currency: 'USD',
      description: request.description,
      order_id: 'LR-1001',
      language: 'uk',
      result_url: request.resultUrl,
      server_url: request.callbackUrl,
      recurringbytoken: '1',
    });
  });

  it('asks for a card token only when the card is to be saved, and marks sandbox payments', () => {
    const once = decodeData(provider.checkout({ ...request, saveCard: false }).fields.data);
    expect(once).not.toHaveProperty('recurringbytoken');
    expect(once).not.toHaveProperty('sandbox');
    const test = createLiqPayProvider({ ...KEYS, sandbox: true, checkoutUrl: 'http://127.0.0.1:9/api/3/checkout' });
    const checkout = test.checkout(request);
    expect(checkout.action).toBe('http://127.0.0.1:9/api/3/checkout');
    expect(decodeData(checkout.fields.data)).toMatchObject({ sandbox: '1' });
  });

  it('sends amounts with two decimals and refuses a non-positive one', () => {
    expect(decodeData(provider.checkout({ ...request, amount: 10.005 + 0.0001 }).fields.data)).toMatchObject({
      amount: 10.01,
    });
    expect(() => provider.checkout({ ...request, amount: 0 })).toThrow(RangeError);
    expect(() => provider.checkout({ ...request, amount: Number.NaN })).toThrow(RangeError);
  });
});

describe('verifyCallback', () => {
  it('turns a genuine callback into an event with the card to save', () => {
    expect(provider.verifyCallback(signed(paid))).toEqual({
      orderId: 'LR-1001',
      paymentId: '2699352001',
      outcome: 'success',
      amount: 12.5,
      currency: 'USD',
      card: { token: paid.card_token, mask: '424242*42', type: 'visa', expiry: null },
      errorCode: null,
      raw: paid,
    });
  });

  it('gives a decline its LiqPay error code', () => {
    const event = provider.verifyCallback(
      signed({
        ...paid,
        status: 'failure',
        err_code: '9859',
        err_description: 'Insufficient funds',
        card_token: undefined,
      }),
    );
    expect(event).toMatchObject({ outcome: 'failure', errorCode: '9859', card: null });
  });

  it('refuses a forged signature', () => {
    const body = signed(paid, 'somebody-elses-key');
    expect(provider.verifyCallback(body)).toBeNull();
    expect(provider.verifyCallback({ ...signed(paid), signature: 'x4uWEaw2f35T0IoiVfECyKsbIeY=' })).toBeNull();
  });

  it('refuses data changed after signing (a bigger amount, another order)', () => {
    const genuine = signed(paid);
    for (const change of [{ amount: 1200 }, { order_id: 'LR-9999' }, { status: 'success', public_key: 'x' }]) {
      expect(
        provider.verifyCallback({ data: encodeData({ ...paid, ...change }), signature: genuine.signature }),
      ).toBeNull();
    }
  });

  it('refuses malformed bodies without throwing', () => {
    const garbage = (data: string) => ({ data, signature: liqpaySignature(KEYS.privateKey, data) });
    const bodies: unknown[] = [
      {},
      null,
      undefined,
      { data: signed(paid).data },
      { signature: signed(paid).signature },
      { data: 42, signature: 42 },
      { data: [signed(paid).data], signature: [signed(paid).signature] },
      { data: { nested: true }, signature: 'abc' },
      garbage('not base64!'),
      garbage(Buffer.from('not json').toString('base64')),
      garbage(Buffer.from('[1,2]').toString('base64')),
      signed({ ...paid, order_id: undefined }),
      signed({ ...paid, status: undefined }),
      signed({ ...paid, amount: 'lots' }),
      signed({ ...paid, public_key: 'i99999999999' }),
      { data: 'A'.repeat(200_000), signature: 'x' },
      { ...signed(paid), signature: 'x'.repeat(10_000) },
    ];
    for (const body of bodies) {
      expect(() => provider.verifyCallback(body as Record<string, unknown>)).not.toThrow();
      expect(provider.verifyCallback(body as Record<string, unknown>)).toBeNull();
    }
  });

  it('counts a sandbox payment as paid only when set up for test payments', () => {
    const sandboxPaid = signed({ ...paid, status: 'sandbox' });
    expect(provider.verifyCallback(sandboxPaid)).toMatchObject({ outcome: 'failure', errorCode: SANDBOX_REFUSED });
    const test = createLiqPayProvider({ ...KEYS, sandbox: true });
    expect(test.verifyCallback(sandboxPaid)).toMatchObject({ outcome: 'success', errorCode: null });
  });
});

describe('liqpayOutcome', () => {
  it.each([
    ['success', 'success'],
    ['wait_compensation', 'success'],
    ['failure', 'failure'],
    ['error', 'failure'],
    ['reversed', 'reversed'],
    ['3ds_verify', 'pending'],
    ['otp_verify', 'pending'],
    ['wait_secure', 'pending'],
    ['wait_accept', 'pending'],
    ['processing', 'pending'],
    ['hold_wait', 'pending'],
    ['something_new', 'pending'],
  ])('%s is %s', (status, outcome) => {
    expect(liqpayOutcome(status, false)).toBe(outcome);
  });
});

describe('the server-to-server API', () => {
  const charge = {
    orderId: 'LR-1002',
    amount: 29,
    currency: 'USD' as const,
    description: 'Renewal',
    token: 'TOKEN',
    callbackUrl: request.callbackUrl,
  };
  const answering = (respond: () => Promise<Response>) =>
    createLiqPayProvider({ ...KEYS, fetch: respond as unknown as typeof fetch, timeoutMs: 200 });

  it('posts a signed paytoken request to LiqPay’s API', async () => {
    let seen: { url: string; body: URLSearchParams } | undefined;
    const p = createLiqPayProvider({
      ...KEYS,
      fetch: (async (url: string, init: RequestInit) => {
        seen = { url, body: new URLSearchParams(String(init.body)) };
        return Response.json({ result: 'ok', status: 'success', order_id: 'LR-1002', amount: 29, currency: 'USD' });
      }) as unknown as typeof fetch,
    });
    await expect(p.chargeToken(charge)).resolves.toMatchObject({ outcome: 'success', orderId: 'LR-1002' });
    expect(seen?.url).toBe(LIQPAY_API_URL);
    const data = seen!.body.get('data')!;
    expect(seen!.body.get('signature')).toBe(liqpaySignature(KEYS.privateKey, data));
    expect(decodeData(data)).toEqual({
      version: 3,
      public_key: KEYS.publicKey,
      action: 'paytoken',
      amount: 29,
      currency: 'USD',
      description: 'Renewal',
      order_id: 'LR-1002',
      card_token: 'TOKEN',
      server_url: request.callbackUrl,
    });
  });

  it('makes a refused charge a failure event, not an exception', async () => {
    const p = answering(async () => Response.json({ result: 'error', err_code: 'err_no_card_token' }));
    await expect(p.chargeToken(charge)).resolves.toMatchObject({
      orderId: 'LR-1002',
      outcome: 'failure',
      errorCode: 'err_no_card_token',
      amount: 29,
    });
  });

  it('throws a PaymentProviderError when the outcome is unknown', async () => {
    const cases: [() => Promise<Response>, string][] = [
      [async () => Promise.reject(new TypeError('fetch failed')), 'network'],
      [async () => new Response('<html>Bad gateway</html>', { status: 502 }), 'http'],
      [async () => new Response('<html>ok?</html>', { status: 200 }), 'protocol'],
      [async () => Response.json({ result: 'ok' }), 'protocol'],
    ];
    for (const [respond, kind] of cases) {
      const error = await answering(respond)
        .chargeToken(charge)
        .catch((e: unknown) => e);
      expect(error).toBeInstanceOf(PaymentProviderError);
      expect((error as PaymentProviderError).kind).toBe(kind);
      expect((error as Error).message).toContain('LR-1002');
      expect((error as Error).message).not.toContain(KEYS.privateKey);
    }
  });

  it('gives up after its timeout', async () => {
    const hanging = (_url: string, init: RequestInit) =>
      new Promise<Response>((_resolve, reject) => {
        init.signal?.addEventListener('abort', () => reject(init.signal?.reason));
      });
    const p = createLiqPayProvider({ ...KEYS, fetch: hanging as unknown as typeof fetch, timeoutMs: 50 });
    const started = Date.now();
    const error = await p.status('LR-1').catch((e: unknown) => e);
    expect(error).toMatchObject({ name: 'PaymentProviderError', kind: 'timeout' });
    expect(Date.now() - started).toBeLessThan(2_000);
  });

  it('answers null for an order LiqPay does not know, and throws when the API refuses the request', async () => {
    const unknown = answering(async () =>
      Response.json({ result: 'error', status: 'error', err_code: 'payment_not_found' }),
    );
    await expect(unknown.status('LR-404')).resolves.toBeNull();
    const refused = answering(async () => Response.json({ result: 'error', status: 'error', err_code: 'err_access' }));
    await expect(refused.status('LR-1')).rejects.toMatchObject({ kind: 'protocol' });
  });
});
