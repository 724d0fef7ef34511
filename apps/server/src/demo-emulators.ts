// EMULATORS=true: every connector's emulator (each definition's `demo`), the NBU rate and LiqPay
// emulators run inside the server on loopback, and the connectors (OAuth included) and payments
// point at them. For demo installs and the end-to-end suite: a CRM can be connected and leads watched
// arriving without an account at the real service.
import { connectors } from '@leadrelay/connectors';
import type { CrmConfig, PaymentConfig } from './config';
import { readConnectorConfig } from './lib/connector-config';
import { startNbuEmulator } from './modules/currency/nbu-emulator';
import { startLiqPayEmulator } from './modules/payments/providers/liqpay/liqpay-emulator';

export interface DemoEmulators {
  crm: CrmConfig;
  /** The exchange-rate stand-in (the National Bank of Ukraine's API is not reached from a demo). */
  nbuRatesUrl: string;
  /** Payments go to the LiqPay emulator: its checkout page and API, its sandbox keys, test payments count. */
  payment: PaymentConfig;
  /**
   * What GET /api/emulators answers: where each emulator is and the credentials a demo user types in,
   * by connector slug (each connector's `demo` says what), and:
   */
  info: Record<string, Readonly<Record<string, unknown>>> & {
    /** The LiqPay emulator (its checkout page has Pay / Decline / 3-D Secure fails). */
    liqpay: { url: string; publicKey: string };
  };
  /**
   * The emulators' own `address:port` endpoints: the only private addresses EMULATORS=true opens to
   * connectors (ALLOW_PRIVATE_DESTINATIONS alone decides about the rest).
   */
  endpoints: string[];
  close(): Promise<void>;
}

/** The `host:port` of every http URL in the emulators' settings. */
function endpointsIn(value: unknown, found = new Set<string>()): string[] {
  if (typeof value === 'string' && /^http:\/\//.test(value)) {
    const url = new URL(value);
    found.add(`${url.hostname}:${url.port || 80}`);
  } else if (value && typeof value === 'object') {
    for (const item of Object.values(value)) endpointsIn(item, found);
  }
  return [...found].sort();
}

export async function startDemoEmulators(publicUrl: string): Promise<DemoEmulators> {
  const demos = await Promise.all(
    [...connectors.values()].flatMap((c) =>
      c.demo ? [c.demo({ publicUrl }).then((demo) => ({ slug: c.slug, demo }))] : [],
    ),
  );
  const nbu = await startNbuEmulator();
  const liqpay = await startLiqPayEmulator();
  // The emulators' addresses as the connectors' configuration keys, read as env.ts reads them.
  const keys = readConnectorConfig(Object.assign({}, ...demos.map((d) => d.demo.config)));
  const settings: Omit<DemoEmulators, 'endpoints' | 'close'> = {
    nbuRatesUrl: nbu.url,
    payment: {
      provider: 'liqpay',
      publicKey: liqpay.publicKey,
      privateKey: liqpay.privateKey,
      checkoutUrl: liqpay.checkoutUrl,
      apiUrl: liqpay.apiUrl,
      sandbox: true,
    },
    crm: keys.crm as CrmConfig,
    info: {
      ...Object.fromEntries(demos.map((d) => [d.slug, d.demo.info])),
      liqpay: { url: liqpay.url, publicKey: liqpay.publicKey },
    },
  };
  return {
    ...settings,
    endpoints: endpointsIn(settings),
    close: async () => {
      await Promise.all([...demos.map((d) => d.demo.close()), nbu.close(), liqpay.close()]);
    },
  };
}
