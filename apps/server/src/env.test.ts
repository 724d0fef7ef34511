// The payment and seller settings as an operator sets them (PAYMENT_*, SELLER_*).
import { describe, expect, it } from 'vitest';
import { DEFAULT_SELLER_CONFIG } from './config';
import { loadEnv } from './env';

const base = { DATA_DIR: '/tmp/leadrelay-env-test' };

describe('payment settings', () => {
  it('without keys there is no payment provider', () => {
    expect(loadEnv(base).payment).toBeNull();
    expect(loadEnv({ ...base, PAYMENT_PUBLIC_KEY: ' ', PAYMENT_PRIVATE_KEY: '' }).payment).toBeNull();
  });

  it('with both keys it is LiqPay at its production hosts, test payments refused', () => {
    expect(loadEnv({ ...base, PAYMENT_PUBLIC_KEY: 'i000001', PAYMENT_PRIVATE_KEY: 'secret' }).payment).toEqual({
      provider: 'liqpay',
      publicKey: 'i000001',
      privateKey: 'secret',
      checkoutUrl: 'https://www.liqpay.ua/api/3/checkout',
      apiUrl: 'https://www.liqpay.ua/api/request',
      sandbox: false,
    });
  });

  it('takes other hosts and sandbox mode when set', () => {
    const env = loadEnv({
      ...base,
      PAYMENT_PROVIDER: 'liqpay',
      PAYMENT_PUBLIC_KEY: 'sandbox_i000001',
      PAYMENT_PRIVATE_KEY: 'sandbox_secret',
      PAYMENT_CHECKOUT_URL: 'http://127.0.0.1:9999/api/3/checkout',
      PAYMENT_API_URL: 'http://127.0.0.1:9999/api/request',
      PAYMENT_SANDBOX: 'true',
    });
    expect(env.payment).toMatchObject({
      checkoutUrl: 'http://127.0.0.1:9999/api/3/checkout',
      apiUrl: 'http://127.0.0.1:9999/api/request',
      sandbox: true,
    });
  });

  it('refuses to start with one key of the two, an unknown provider or a bad URL', () => {
    expect(() => loadEnv({ ...base, PAYMENT_PUBLIC_KEY: 'i000001' })).toThrow(
      /PAYMENT_PUBLIC_KEY and PAYMENT_PRIVATE_KEY/,
    );
    expect(() => loadEnv({ ...base, PAYMENT_PRIVATE_KEY: 'secret' })).toThrow(
      /PAYMENT_PUBLIC_KEY and PAYMENT_PRIVATE_KEY/,
    );
    expect(() => loadEnv({ ...base, PAYMENT_PROVIDER: 'paypal' })).toThrow(/PAYMENT_PROVIDER/);
    expect(() => loadEnv({ ...base, PAYMENT_API_URL: 'not a url' })).toThrow(/PAYMENT_API_URL/);
  });
});

describe('seller settings', () => {
  it('are placeholders until set', () => {
    expect(loadEnv(base).seller).toEqual(DEFAULT_SELLER_CONFIG);
  });

  it('take what the operator sets', () => {
    const env = loadEnv({
      ...base,
      SELLER_NAME: 'ФОП Іваненко Іван Іванович',
      SELLER_CODE: '1234567890',
      SELLER_ADDRESS: 'м. Київ, вул. Хрещатик, 1',
      SELLER_IBAN: 'UA213223130000026007233566001',
      SELLER_BANK: 'АТ КБ «ПриватБанк»',
      SELLER_EMAIL: 'billing@leadrelay.example',
    });
    expect(env.seller).toEqual({
      name: 'ФОП Іваненко Іван Іванович',
      code: '1234567890',
      address: 'м. Київ, вул. Хрещатик, 1',
      iban: 'UA213223130000026007233566001',
      bank: 'АТ КБ «ПриватБанк»',
      email: 'billing@leadrelay.example',
    });
  });
});
