import { endpointAllowed } from '@leadrelay/connectors';
import type { FastifyBaseLogger } from 'fastify';
import type { Db } from './db/client';
import { type ConnectorConfigValues, readConnectorConfig } from './lib/connector-config';
import type { EngineEventBus } from './lib/events';
import type { AppLocks } from './lib/locks';
import type { Mailer } from './lib/mail/mailer';
import type { SecretBox } from './lib/secret-box';

/** The sign-in throttle (modules/auth/throttle.service.ts; docs/operations.md). */
export interface ThrottleOptions {
  /** Failed sign-ins on one login from one address within the window before that pair gets 429. */
  pairFailures: number;
  /** Failed sign-ins on one login from all addresses before each address that failed on it waits… */
  loginFailures: number;
  /** …this long after its own latest failure there (addresses with none are never held). */
  loginDelaySeconds: number;
  /** Failed sign-ins from one address, whatever the login, before the address gets 429 (a spray). */
  ipFailures: number;
  windowSeconds: number;
}

/** Settings the modules read, resolved once by buildApp. */
export interface AppConfig {
  publicUrl: string;
  jwtSecret: string;
  demoDays: number;
  throttle: ThrottleOptions;
  /** How long the refresh token replaced by a rotation is still accepted (two tabs at once). */
  refreshGraceMs: number;
  /** Secure cookies when the public address is https. */
  secureCookies: boolean;
  /** Connectors may reach private and loopback addresses (ALLOW_PRIVATE_DESTINATIONS; self-hosted installs, tests). */
  allowPrivateDestinations: boolean;
  /** Exact `address:port` endpoints reachable whatever the above says: the demo emulators' own (EMULATORS). */
  allowedEndpoints: string[];
  /** Where the OAuth "start" calls live (spec: {auth host}). */
  authHost: string;
  /** The connectors' configuration (their app credentials, API URLs and hosts), by slug. */
  crm: CrmConfig;
  /**
   * Sign-in with a social account: its JS SDK's app id per host the page is served from (spec 9:
   * another app id on one production host); the app's keys are its connector's (crm).
   */
  signinAppIdsByHost: Readonly<Record<string, string>>;
  /** Where the official USD rate is taken from (NBU_RATES_URL; the National Bank of Ukraine's API). */
  nbuRatesUrl: string;
  /** The payment provider's keys and hosts (PAYMENT_*); null when no keys are set. */
  payment: PaymentConfig | null;
  /** Who sells, as printed on invoices (SELLER_*). */
  seller: SellerConfig;
  /** A checkout unpaid this long is abandoned: its order becomes expired (PAYMENT_CHECKOUT_LIFETIME_SECONDS). */
  checkoutLifetimeSeconds: number;
}

/** The payment providers there is a folder for (modules/payments/providers/<name>). */
export const PAYMENT_PROVIDERS = ['liqpay'] as const;
export type PaymentProviderName = (typeof PAYMENT_PROVIDERS)[number];

export interface PaymentConfig {
  provider: PaymentProviderName;
  publicKey: string;
  privateKey: string;
  /** Where the buyer's browser posts the checkout form (LiqPay: https://www.liqpay.ua/api/3/checkout). */
  checkoutUrl: string;
  /** The server-to-server API: charges by card token, refunds, status (LiqPay: https://www.liqpay.ua/api/request). */
  apiUrl: string;
  /** Test payments count as paid (LiqPay's status "sandbox"): for sandbox keys and the emulator, never production. */
  sandbox: boolean;
}

/** How long a checkout may stay unpaid before it is abandoned, its order expired
 * (PAYMENT_CHECKOUT_LIFETIME_SECONDS). LiqPay's own link lifetime is not in our reference. */
export const DEFAULT_CHECKOUT_LIFETIME_SECONDS = 60 * 60;

/** The seller's details on invoices. The defaults are placeholders an operator must replace. */
export interface SellerConfig {
  name: string;
  /** ЄДРПОУ (a company) or ІПН/РНОКПП (a sole proprietor). */
  code: string;
  address: string;
  iban: string;
  bank: string;
  email: string;
}

export const DEFAULT_SELLER_CONFIG: SellerConfig = {
  name: 'LeadRelay (set SELLER_NAME)',
  code: '00000000',
  address: 'Україна (set SELLER_ADDRESS)',
  iban: 'UA000000000000000000000000000',
  bank: 'set SELLER_BANK',
  email: 'billing@localhost',
};

/**
 * The connectors' configuration by slug, field by field as their definitions declare the keys
 * (lib/connector-config: a key `<SLUG>_CLIENT_ID` is `<slug>.clientId`). A new connector needs
 * nothing here: the generic code reads a connector's values by the names its definition declares.
 */
export type CrmConfig = Record<string, ConnectorConfigValues | undefined>;

/** Production hosts (the definitions' defaults); buildApp's default when no crm options are given (tests pass emulator URLs). */
export const DEFAULT_CRM_CONFIG = readConnectorConfig().crm as CrmConfig;

/** True when `host` (lower case, no port unless the pattern has one) matches one of the patterns ("*.x.y" or exact). */
export function hostAllowed(patterns: string[], hostWithPort: string): boolean {
  const host = hostWithPort.toLowerCase();
  return patterns.some((p) =>
    p.startsWith('*.') ? host.endsWith(p.slice(1)) && host.length > p.length - 1 : host === p,
  );
}

/** What services get besides their arguments. */
export interface Deps {
  db: Db;
  mailer: Mailer;
  config: AppConfig;
  log: FastifyBaseLogger;
  /** Seals and opens integration credentials (ENCRYPTION_KEY). */
  secrets: SecretBox;
  /** Locks across processes for connectors (contacts, token refresh). */
  locks: AppLocks;
  /** In-process events (lib/events.ts): what a service tells the real-time channel and the worker. */
  events: EngineEventBus;
}

/** What a fetch toward a user-given or connector address may reach (docs/adr/009-input-boundary.md). */
export function destinationPolicy(config: Pick<AppConfig, 'allowPrivateDestinations' | 'allowedEndpoints'>): {
  allowPrivate: boolean;
  allowEndpoints: string[];
} {
  return { allowPrivate: config.allowPrivateDestinations, allowEndpoints: config.allowedEndpoints };
}

/** Plain http (not https) is fine for this URL: private destinations are on, or it is an allowed endpoint. */
export function plainHttpAllowed(
  config: Pick<AppConfig, 'allowPrivateDestinations' | 'allowedEndpoints'>,
  url: URL,
): boolean {
  return config.allowPrivateDestinations || endpointAllowed(url, config.allowedEndpoints);
}

/** The embedded customer-support chat (spec 1, 3 "Support widget settings"): a third-party script. */
export interface SupportChatConfig {
  scriptUrl: string;
  organization: string;
  loadImmediately: boolean;
}
