// buildApp's options, and what the app makes of them. A started process builds them from its
// environment (appOptions, for main.ts), kept apart so tests can check what a given environment
// allows (private addresses with EMULATORS=true); tests pass their own.
import { randomBytes } from 'node:crypto';
import { join } from 'node:path';
import { DEFAULT_DEMO_DAYS } from '@leadrelay/shared';
import type { FastifyInstance, FastifyServerOptions } from 'fastify';
import type { Env } from './app-modules';
import {
  type AppConfig,
  type CrmConfig,
  DEFAULT_CHECKOUT_LIFETIME_SECONDS,
  DEFAULT_CRM_CONFIG,
  DEFAULT_SELLER_CONFIG,
  type PaymentConfig,
  type SellerConfig,
  type SupportChatConfig,
  type ThrottleOptions,
} from './config';
import { type Database, DEFAULT_POOL_SIZE, DEFAULT_WORKER_POOL_SIZE, type OpenDatabaseOptions } from './db/client';
import type { PeriodicSchedulerOptions } from './delivery/periodic';
import type { DeliveryWorkerOptions } from './delivery/worker';
import type { DemoEmulators } from './demo-emulators';
import { loadOrCreateEncryptionKey } from './lib/encryption-key';
import { loadOrCreateJwtSecret } from './lib/jwt-secret';
import type { MailTransportOptions } from './lib/mail/mailer';
import { createSecretBox, ENCRYPTION_KEY_FORMAT, parseEncryptionKey, type SecretBox } from './lib/secret-box';
import { loggerOptions } from './logger';
import { DEFAULT_THROTTLE } from './modules/auth';
import { NBU_USD_URL } from './modules/currency';
import type { ParsersConfig } from './modules/parsers';
import type { RateLimits } from './plugins/rate-limit';

export interface AppOptions {
  /** Address users reach the app at; links in e-mails start with it. */
  publicUrl?: string;
  /** Folder for the embedded PostgreSQL cluster (when databaseUrl is unset), mail files, the
   * generated JWT secret and encryption key. */
  dataDir?: string;
  databaseUrl?: string;
  /** An already opened database (tests share one per file); buildApp does not close it. */
  database?: Database;
  jwtSecret?: string;
  /** Seals integration credentials (32 bytes, base64 or hex). Unset: DATA_DIR/encryption-key,
   * or without a data dir a random key (tests). */
  encryptionKey?: string;
  /** The key before a rotation: opens what it sealed; the reseal task moves rows to the new key. */
  encryptionKeyPrevious?: string;
  /** Where mail goes; default SMTP when smtpUrl is set, else .eml files in dataDir/mail, else memory. */
  mail?: MailTransportOptions;
  smtpUrl?: string;
  mailFrom?: string;
  demoDays?: number;
  logger?: FastifyServerOptions['logger'];
  owner?: { login: string; password: string };
  webDist?: string;
  trustProxy?: boolean;
  throttle?: Partial<ThrottleOptions>;
  refreshGraceSeconds?: number;
  /** api: HTTP only; worker: the delivery worker and /api/health; all (default): both. */
  role?: 'api' | 'worker' | 'all';
  /** Run the delivery worker's background loop (main.ts turns it on for worker and all).
   * Off by default: tests drive the worker with app.deliveryWorker.runOnce() / drain(). */
  worker?: boolean;
  /** Worker settings: tests pass a fake clock, their own destinations, a short lease. */
  delivery?: Partial<Omit<DeliveryWorkerOptions, 'db' | 'events' | 'log'>>;
  /** PostgreSQL: connections of the data pool (DB_POOL_SIZE; ROLE=worker uses workerDbPoolSize). */
  dbPoolSize?: number;
  /** PostgreSQL: the worker's connections (WORKER_DB_POOL_SIZE): with ROLE=all and the worker's
   * loop on, a pool of its own, so a busy API cannot starve it. */
  workerDbPoolSize?: number;
  /** Periodic housekeeping (runs where the worker runs); tests pass their own tasks and timing. */
  periodic?: Partial<Omit<PeriodicSchedulerOptions, 'db' | 'log'>>;
  /** Let destinations reach private and loopback addresses (self-hosted installs, tests). */
  allowPrivateDestinations?: boolean;
  /** Exact `address:port` endpoints reachable even without private destinations: the emulators'. */
  allowedEndpoints?: string[];
  /** METRICS_TOKEN: the bearer token /metrics asks of a scraper that is not on loopback. */
  metricsToken?: string;
  /** RETENTION_DAYS: how long the lead log (hooks, leads, deliveries, attempts) is kept. */
  retentionDays?: number;
  /** RATE_LIMIT_*_PER_MINUTE: shared limits of the public webhook, widget and auth calls; default none. */
  rateLimits?: RateLimits;
  /** Where the OAuth "start" calls live (AUTH_HOST); default publicUrl. */
  authHost?: string;
  /** CRM app credentials and hosts; default DEFAULT_CRM_CONFIG (tests point them at emulators). */
  crm?: Partial<CrmConfig>;
  /** Sign-in with a social account: its JS SDK's app id per host (the auth module's setting); default none. */
  signinAppIdsByHost?: Readonly<Record<string, string>>;
  /** Where the official USD rate is taken from (NBU_RATES_URL); tests point it at a stand-in. */
  nbuRatesUrl?: string;
  /** The payment provider's keys and hosts (PAYMENT_*); unset: none. */
  payment?: PaymentConfig | null;
  /** The seller's details printed on invoices (SELLER_*); default placeholders. */
  seller?: SellerConfig;
  /** A checkout unpaid this long is abandoned (PAYMENT_CHECKOUT_LIFETIME_SECONDS); default an hour. */
  checkoutLifetimeSeconds?: number;
  /** The embedded support chat (SUPPORT_CHAT_*); unset: none. */
  supportChat?: SupportChatConfig | null;
  /** GET /api/dev/mail, every mail drawn with sample data (docs/mail.md); off unless set. */
  mailPreview?: boolean;
  /** EMULATORS=true: where the in-process emulators are, answered by GET /api/emulators. */
  emulators?: DemoEmulators['info'];
  /** The web app's locale files the translations screen starts from; default apps/web/src/locales. */
  localesDir?: string;
  /** E-mail parsers: the SMTP listener (off unless given), MAIL_DOMAIN (default: PUBLIC_URL's host), limits, poll. */
  parsers?: Partial<ParsersConfig>;
  /** Extra routes, registered after the modules (tests of the access rule). */
  register?: (app: FastifyInstance) => void | Promise<void>;
}

/** The app's options from the environment (and the emulators when EMULATORS=true). */
export function appOptions(env: Env, emulators?: DemoEmulators): AppOptions {
  return {
    publicUrl: env.publicUrl,
    dataDir: env.dataDir,
    databaseUrl: env.databaseUrl,
    jwtSecret: env.jwtSecret,
    encryptionKey: env.encryptionKey,
    encryptionKeyPrevious: env.encryptionKeyPrevious,
    smtpUrl: env.smtpUrl,
    mailFrom: env.mailFrom,
    demoDays: env.demoDays,
    logger: loggerOptions(env.logLevel),
    owner: env.owner,
    webDist: env.webDist,
    trustProxy: env.trustProxy,
    role: env.role,
    // Tests drive the worker by hand; a real process runs its loop unless it only serves the API.
    worker: env.role !== 'api',
    delivery: { concurrency: env.workerConcurrency },
    dbPoolSize: env.dbPoolSize,
    workerDbPoolSize: env.workerDbPoolSize,
    // ALLOW_PRIVATE_DESTINATIONS alone opens private addresses; the emulators (on loopback) are
    // reached through their own endpoints only.
    allowPrivateDestinations: env.allowPrivateDestinations,
    allowedEndpoints: emulators?.endpoints ?? [],
    metricsToken: env.metricsToken,
    retentionDays: env.retentionDays,
    rateLimits: env.rateLimits,
    authHost: env.authHost,
    crm: emulators?.crm ?? env.crm,
    signinAppIdsByHost: env.signinAppIdsByHost,
    nbuRatesUrl: emulators?.nbuRatesUrl ?? env.nbuRatesUrl,
    payment: emulators?.payment ?? env.payment,
    seller: env.seller,
    checkoutLifetimeSeconds: env.checkoutLifetimeSeconds,
    supportChat: env.supportChat,
    // Inbound SMTP where webhooks are taken (api, all); the mailbox poll runs with the worker.
    parsers: { ...env.parsers, smtp: env.role === 'worker' ? null : env.parsers.smtp },
    emulators: emulators?.info,
    mailPreview: env.mailPreview,
  };
}

/** Settings the modules read (deps.config), from the options and their defaults. */
export function appConfig(options: AppOptions, publicUrl: string): AppConfig {
  return {
    publicUrl,
    jwtSecret: options.jwtSecret ?? (options.dataDir ? loadOrCreateJwtSecret(options.dataDir) : randomSecret()),
    demoDays: options.demoDays ?? DEFAULT_DEMO_DAYS,
    throttle: { ...DEFAULT_THROTTLE, ...options.throttle },
    refreshGraceMs: (options.refreshGraceSeconds ?? 10) * 1000,
    secureCookies: publicUrl.startsWith('https:'),
    allowPrivateDestinations: options.allowPrivateDestinations ?? false,
    allowedEndpoints: options.allowedEndpoints ?? [],
    authHost: (options.authHost ?? publicUrl).replace(/\/+$/, ''),
    crm: { ...DEFAULT_CRM_CONFIG, ...options.crm },
    signinAppIdsByHost: options.signinAppIdsByHost ?? {},
    nbuRatesUrl: options.nbuRatesUrl ?? NBU_USD_URL,
    payment: options.payment ?? null,
    seller: options.seller ?? DEFAULT_SELLER_CONFIG,
    checkoutLifetimeSeconds: options.checkoutLifetimeSeconds ?? DEFAULT_CHECKOUT_LIFETIME_SECONDS,
  };
}

/** Where mail goes. */
export function mailTransport(options: AppOptions): MailTransportOptions {
  if (options.mail) return options.mail;
  if (options.smtpUrl) return { kind: 'smtp', url: options.smtpUrl };
  if (options.dataDir) return { kind: 'eml', dir: join(options.dataDir, 'mail') };
  return { kind: 'memory' };
}

const randomSecret = () => randomBytes(32).toString('base64url');

/** The pools of a process on PostgreSQL, by role (README: the connection budget). */
export function databaseOptions(options: AppOptions): OpenDatabaseOptions {
  const { databaseUrl, dataDir } = options;
  const role = options.role ?? 'all';
  const workerPoolSize = options.workerDbPoolSize ?? DEFAULT_WORKER_POOL_SIZE;
  if (role === 'worker') return { databaseUrl, dataDir, poolSize: workerPoolSize };
  const poolSize = options.dbPoolSize ?? DEFAULT_POOL_SIZE;
  if (role === 'all' && options.worker) return { databaseUrl, dataDir, poolSize, workerPoolSize };
  return { databaseUrl, dataDir, poolSize };
}

function parsedKey(name: string, text: string): Buffer {
  const key = parseEncryptionKey(text);
  if (!key) throw new Error(`${name} ${ENCRYPTION_KEY_FORMAT}`);
  return key;
}

/** Seals and opens integration credentials; throws on a malformed key, before anything opens. */
export function secretBoxOf(options: AppOptions): SecretBox {
  const key = options.encryptionKey
    ? parsedKey('encryptionKey', options.encryptionKey)
    : options.dataDir
      ? loadOrCreateEncryptionKey(options.dataDir)
      : randomBytes(32);
  const previous = options.encryptionKeyPrevious
    ? [parsedKey('encryptionKeyPrevious', options.encryptionKeyPrevious)]
    : [];
  return createSecretBox(key, previous);
}
