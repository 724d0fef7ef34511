// The payment providers there is a folder for, by PAYMENT_PROVIDER. A new one (WayForPay,
// monobank) is one more folder implementing PaymentProvider and one more entry here.
import type { PaymentConfig, PaymentProviderName } from '../../../config';
import { createLiqPayProvider, LIQPAY_API_URL, LIQPAY_CHECKOUT_URL } from './liqpay/liqpay';
import type { PaymentProvider } from './provider';

interface ProviderEntry {
  /** Production hosts: PAYMENT_CHECKOUT_URL and PAYMENT_API_URL default to these. */
  urls: { checkoutUrl: string; apiUrl: string };
  create(config: PaymentConfig, fetch: typeof globalThis.fetch): PaymentProvider;
}

export const PAYMENT_PROVIDER_ENTRIES: Record<PaymentProviderName, ProviderEntry> = {
  liqpay: {
    urls: { checkoutUrl: LIQPAY_CHECKOUT_URL, apiUrl: LIQPAY_API_URL },
    create: (config, fetch) => createLiqPayProvider({ ...config, fetch }),
  },
};

/** The provider config.payment describes; `fetch` makes its server-to-server calls (default the global one). */
export function createPaymentProvider(
  config: PaymentConfig,
  fetch: typeof globalThis.fetch = globalThis.fetch,
): PaymentProvider {
  return PAYMENT_PROVIDER_ENTRIES[config.provider].create(config, fetch);
}
