// The payment and seller settings as an operator sets them (PAYMENT_*, SELLER_*).

import { facebook, GRAPH_API_VERSION, graphVersionStatus, staleGraphVersions } from '@leadrelay/connectors';
import { describe, expect, it } from 'vitest';
import { loadEnv } from './app-modules';
import { DEFAULT_CHECKOUT_LIFETIME_SECONDS, DEFAULT_SELLER_CONFIG } from './config';
import { connectorConfig } from './lib/connector-config';

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

  it('an unpaid checkout is abandoned after an hour, or the seconds set', () => {
    expect(loadEnv(base).checkoutLifetimeSeconds).toBe(DEFAULT_CHECKOUT_LIFETIME_SECONDS);
    expect(DEFAULT_CHECKOUT_LIFETIME_SECONDS).toBe(3600);
    expect(loadEnv({ ...base, PAYMENT_CHECKOUT_LIFETIME_SECONDS: '900' }).checkoutLifetimeSeconds).toBe(900);
    expect(() => loadEnv({ ...base, PAYMENT_CHECKOUT_LIFETIME_SECONDS: '0' })).toThrow(
      /PAYMENT_CHECKOUT_LIFETIME_SECONDS/,
    );
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

describe('e-mail parser settings', () => {
  it('listen on 2525 by default, for addresses at the public host name', () => {
    const env = loadEnv({ ...base, PUBLIC_URL: 'https://app.example.ua', HOST: '0.0.0.0' });
    expect(env.parsers).toMatchObject({
      mailDomain: 'app.example.ua',
      smtp: { port: 2525, host: '0.0.0.0' },
      maxMailBytes: 10 * 1024 * 1024,
      ratePerMinute: 30,
      imapEveryMs: 60_000,
    });
  });

  it('take MAIL_DOMAIN, limits and "off" as set, and refuse what is no port or domain', () => {
    const env = loadEnv({
      ...base,
      PARSER_SMTP_PORT: 'off',
      MAIL_DOMAIN: 'leads.example.ua',
      PARSER_MAX_MAIL_BYTES: '2000000',
      PARSER_RATE_PER_MINUTE: '5',
      PARSER_IMAP_POLL_SECONDS: '30',
    });
    expect(env.parsers).toMatchObject({
      smtp: null,
      mailDomain: 'leads.example.ua',
      maxMailBytes: 2_000_000,
      ratePerMinute: 5,
      imapEveryMs: 30_000,
    });
    expect(loadEnv({ ...base, PARSER_SMTP_PORT: '25', PARSER_SMTP_HOST: '127.0.0.1' }).parsers.smtp).toEqual({
      port: 25,
      host: '127.0.0.1',
    });
    expect(() => loadEnv({ ...base, PARSER_SMTP_PORT: 'twenty-five' })).toThrow(/PARSER_SMTP_PORT/);
    expect(() => loadEnv({ ...base, MAIL_DOMAIN: 'not a domain' })).toThrow(/MAIL_DOMAIN/);
  });
});

describe('mail preview', () => {
  it('is off unless MAIL_PREVIEW or EMULATORS turns it on', () => {
    expect(loadEnv(base).mailPreview).toBe(false);
    expect(loadEnv({ ...base, NODE_ENV: 'development' }).mailPreview).toBe(false);
    expect(loadEnv({ ...base, MAIL_PREVIEW: 'true' }).mailPreview).toBe(true);
    expect(loadEnv({ ...base, EMULATORS: 'true' }).mailPreview).toBe(true);
  });
});

describe('Facebook Graph version', () => {
  it('both defaults call the one current version, and Meta still serves it', () => {
    const env = loadEnv(base);
    expect(env.crm.facebook?.graphUrl).toBe(`https://graph.facebook.com/${GRAPH_API_VERSION}`);
    expect(env.crm.facebook?.dialogUrl).toBe(`https://www.facebook.com/${GRAPH_API_VERSION}/dialog/oauth`);
    // Fails on the day Meta's published end of this version (versions.ts) has come: move it then.
    expect(graphVersionStatus(GRAPH_API_VERSION)).toBe('live');
    expect(staleGraphVersions(connectorConfig(env.crm, facebook))).toEqual([]);
  });

  it('names a pinned version Meta has retired (v20.0), not an emulator URL', () => {
    const env = loadEnv({
      ...base,
      FACEBOOK_GRAPH_URL: 'https://graph.facebook.com/v20.0',
      FACEBOOK_DIALOG_URL: 'http://127.0.0.1:9/v20.0/dialog/oauth',
    });
    expect(staleGraphVersions(connectorConfig(env.crm, facebook), new Date('2025-06-01T12:00:00Z'))).toEqual([]);
    expect(staleGraphVersions(connectorConfig(env.crm, facebook), new Date('2026-11-27T12:00:00Z'))).toEqual([
      { setting: 'FACEBOOK_GRAPH_URL', version: 'v20.0', status: 'retired', current: GRAPH_API_VERSION },
    ]);
  });
});
