// The payments module's environment settings (README: PAYMENT_*, SELLER_*), read by env.ts.
import { z } from 'zod';
import {
  DEFAULT_CHECKOUT_LIFETIME_SECONDS,
  DEFAULT_SELLER_CONFIG,
  PAYMENT_PROVIDERS,
  type PaymentConfig,
  type SellerConfig,
} from '../../config';
import { blankToUndefined, boolish, defineSettings, optionalText, textOr } from '../../lib/env-settings';
import { PAYMENT_PROVIDER_ENTRIES } from './providers';

export interface PaymentsEnv {
  /** The payment provider (PAYMENT_*); null without keys: paying answers PAYMENT_NOT_CONFIGURED. */
  payment: PaymentConfig | null;
  /** The seller on invoices (SELLER_*; placeholders until set). */
  seller: SellerConfig;
  /** A checkout unpaid this long is abandoned (PAYMENT_CHECKOUT_LIFETIME_SECONDS). */
  checkoutLifetimeSeconds: number;
}

export const paymentsSettings = defineSettings({
  keys: {
    PAYMENT_PROVIDER: z.preprocess(blankToUndefined, z.enum(PAYMENT_PROVIDERS).default('liqpay')),
    PAYMENT_PUBLIC_KEY: optionalText,
    PAYMENT_PRIVATE_KEY: optionalText,
    PAYMENT_CHECKOUT_URL: z.preprocess(blankToUndefined, z.url().optional()),
    PAYMENT_API_URL: z.preprocess(blankToUndefined, z.url().optional()),
    PAYMENT_SANDBOX: boolish,
    PAYMENT_CHECKOUT_LIFETIME_SECONDS: z.coerce
      .number()
      .int()
      .min(10)
      .max(7 * 86_400)
      .default(DEFAULT_CHECKOUT_LIFETIME_SECONDS),
    SELLER_NAME: textOr(DEFAULT_SELLER_CONFIG.name),
    SELLER_CODE: textOr(DEFAULT_SELLER_CONFIG.code),
    SELLER_ADDRESS: textOr(DEFAULT_SELLER_CONFIG.address),
    SELLER_IBAN: textOr(DEFAULT_SELLER_CONFIG.iban),
    SELLER_BANK: textOr(DEFAULT_SELLER_CONFIG.bank),
    SELLER_EMAIL: textOr(DEFAULT_SELLER_CONFIG.email),
  },
  problem: (e) =>
    !!e.PAYMENT_PUBLIC_KEY !== !!e.PAYMENT_PRIVATE_KEY
      ? 'set both PAYMENT_PUBLIC_KEY and PAYMENT_PRIVATE_KEY, or neither'
      : undefined,
  read: (e): PaymentsEnv => ({
    payment:
      e.PAYMENT_PUBLIC_KEY && e.PAYMENT_PRIVATE_KEY
        ? {
            provider: e.PAYMENT_PROVIDER,
            publicKey: e.PAYMENT_PUBLIC_KEY,
            privateKey: e.PAYMENT_PRIVATE_KEY,
            checkoutUrl: e.PAYMENT_CHECKOUT_URL ?? PAYMENT_PROVIDER_ENTRIES[e.PAYMENT_PROVIDER].urls.checkoutUrl,
            apiUrl: e.PAYMENT_API_URL ?? PAYMENT_PROVIDER_ENTRIES[e.PAYMENT_PROVIDER].urls.apiUrl,
            sandbox: e.PAYMENT_SANDBOX,
          }
        : null,
    checkoutLifetimeSeconds: e.PAYMENT_CHECKOUT_LIFETIME_SECONDS,
    seller: {
      name: e.SELLER_NAME,
      code: e.SELLER_CODE,
      address: e.SELLER_ADDRESS,
      iban: e.SELLER_IBAN,
      bank: e.SELLER_BANK,
      email: e.SELLER_EMAIL,
    },
  }),
});
