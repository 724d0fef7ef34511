// The only reader of process.env: everything else receives its settings from here or from
// buildApp's options.
import { resolve } from 'node:path';
import {
  FACEBOOK_DEFAULT_DIALOG_URL,
  FACEBOOK_DEFAULT_GRAPH_URL,
  GRAPH_API_VERSION,
  graphVersionOfUrl,
  graphVersionStatus,
} from '@leadrelay/connectors';
import { DEFAULT_DEMO_DAYS } from '@leadrelay/shared';
import { z } from 'zod';
import {
  type CrmConfig,
  DEFAULT_SELLER_CONFIG,
  type FacebookConfig,
  PAYMENT_PROVIDERS,
  type PaymentConfig,
  type SellerConfig,
  type SupportChatConfig,
} from './config';
import { DEFAULT_POOL_SIZE, DEFAULT_WORKER_POOL_SIZE } from './db/client';
import { StartupError } from './db/startup-error';
import { DEFAULT_WORKER_CONCURRENCY } from './delivery/worker';
import { hostList, readConnectorConfig } from './lib/connector-config';
import { ENCRYPTION_KEY_FORMAT, parseEncryptionKey } from './lib/secret-box';
import { NBU_USD_URL } from './modules/currency/nbu';
import { DEFAULT_PARSERS_CONFIG, type ParsersConfig } from './modules/parsers/parsers-deps';
import { PAYMENT_PROVIDER_ENTRIES } from './modules/payments/providers';

const DEFAULT_WEB_DIST = resolve(import.meta.dirname, '../../web/dist');

const boolish = z
  .enum(['true', 'false', '1', '0', 'yes', 'no', ''])
  .default('false')
  .transform((v) => v === 'true' || v === '1' || v === 'yes');

const blankToUndefined = (v: unknown) => (typeof v === 'string' && v.trim() === '' ? undefined : v);
const optionalText = z.preprocess(blankToUndefined, z.string().optional());

const textOr = (fallback: string) => z.preprocess(blankToUndefined, z.string().default(fallback));

const encryptionKey = z.preprocess(
  blankToUndefined,
  z
    .string()
    .refine((v) => parseEncryptionKey(v) !== undefined, { message: ENCRYPTION_KEY_FORMAT })
    .optional(),
);

const ZEnv = z.object({
  PORT: z.coerce.number().int().min(0).max(65_535).default(3000),
  HOST: z.string().default('0.0.0.0'),
  PUBLIC_URL: z.preprocess(blankToUndefined, z.url().optional()),
  DATA_DIR: z.preprocess(blankToUndefined, z.string().default('./data')),
  DATABASE_URL: optionalText,
  JWT_SECRET: z.preprocess(blankToUndefined, z.string().min(32).optional()),
  ENCRYPTION_KEY: encryptionKey,
  ENCRYPTION_KEY_PREVIOUS: encryptionKey,
  SMTP_URL: optionalText,
  MAIL_FROM: z.preprocess(blankToUndefined, z.string().default('LeadRelay <no-reply@localhost>')),
  DEMO_DAYS: z.coerce.number().int().min(0).default(DEFAULT_DEMO_DAYS),
  LOG_LEVEL: z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']).default('info'),
  OWNER_LOGIN: optionalText,
  OWNER_PASSWORD: optionalText,
  WEB_DIST: z.preprocess(blankToUndefined, z.string().default(DEFAULT_WEB_DIST)),
  TRUST_PROXY: boolish,
  ROLE: z.enum(['api', 'worker', 'all']).default('all'),
  WORKER_CONCURRENCY: z.coerce.number().int().min(1).max(256).default(DEFAULT_WORKER_CONCURRENCY),
  DB_POOL_SIZE: z.coerce.number().int().min(1).max(50).default(DEFAULT_POOL_SIZE),
  WORKER_DB_POOL_SIZE: z.coerce.number().int().min(1).max(50).default(DEFAULT_WORKER_POOL_SIZE),
  ALLOW_PRIVATE_DESTINATIONS: boolish,
  METRICS_TOKEN: z.preprocess(blankToUndefined, z.string().min(16).max(200).optional()),
  RETENTION_DAYS: z.coerce.number().int().min(7).max(3650).default(180),
  RATE_LIMIT_WEBHOOK_PER_MINUTE: z.coerce.number().int().min(0).max(1_000_000).default(1200),
  RATE_LIMIT_WIDGET_PER_MINUTE: z.coerce.number().int().min(0).max(1_000_000).default(120),
  RATE_LIMIT_AUTH_PER_MINUTE: z.coerce.number().int().min(0).max(1_000_000).default(30),
  RATE_LIMIT_SIGNIN_PER_MINUTE: z.coerce.number().int().min(0).max(1_000_000).default(300),
  AUTH_HOST: z.preprocess(blankToUndefined, z.url().optional()),
  EMULATORS: boolish,
  MAIL_PREVIEW: boolish,
  FACEBOOK_APP_ID: optionalText,
  FACEBOOK_APP_SECRET: optionalText,
  FACEBOOK_VERIFY_TOKEN: optionalText,
  // One setting: both defaults name GRAPH_API_VERSION (packages/connectors/src/facebook/versions.ts).
  FACEBOOK_GRAPH_URL: z.preprocess(blankToUndefined, z.url().default(FACEBOOK_DEFAULT_GRAPH_URL)),
  FACEBOOK_DIALOG_URL: z.preprocess(blankToUndefined, z.url().default(FACEBOOK_DEFAULT_DIALOG_URL)),
  FACEBOOK_APP_IDS_BY_HOST: optionalText,
  NBU_RATES_URL: z.preprocess(blankToUndefined, z.url().default(NBU_USD_URL)),
  PAYMENT_PROVIDER: z.preprocess(blankToUndefined, z.enum(PAYMENT_PROVIDERS).default('liqpay')),
  PAYMENT_PUBLIC_KEY: optionalText,
  PAYMENT_PRIVATE_KEY: optionalText,
  PAYMENT_CHECKOUT_URL: z.preprocess(blankToUndefined, z.url().optional()),
  PAYMENT_API_URL: z.preprocess(blankToUndefined, z.url().optional()),
  PAYMENT_SANDBOX: boolish,
  SELLER_NAME: textOr(DEFAULT_SELLER_CONFIG.name),
  SELLER_CODE: textOr(DEFAULT_SELLER_CONFIG.code),
  SELLER_ADDRESS: textOr(DEFAULT_SELLER_CONFIG.address),
  SELLER_IBAN: textOr(DEFAULT_SELLER_CONFIG.iban),
  SELLER_BANK: textOr(DEFAULT_SELLER_CONFIG.bank),
  SELLER_EMAIL: textOr(DEFAULT_SELLER_CONFIG.email),
  SUPPORT_CHAT_SCRIPT_URL: z.preprocess(blankToUndefined, z.url().optional()),
  SUPPORT_CHAT_ORGANIZATION: optionalText,
  SUPPORT_CHAT_LOAD_IMMEDIATELY: boolish,
  // E-mail parsers (docs/parsers.md): the inbound SMTP listener ("off": none), the addresses' domain, limits.
  PARSER_SMTP_PORT: z.preprocess(
    blankToUndefined,
    z.union([z.literal('off'), z.coerce.number().int().min(1).max(65_535)]).default(2525),
  ),
  PARSER_SMTP_HOST: optionalText,
  MAIL_DOMAIN: z.preprocess(
    blankToUndefined,
    z
      .string()
      .regex(/^[A-Za-z0-9.-]+$/)
      .optional(),
  ),
  PARSER_MAX_MAIL_BYTES: z.coerce
    .number()
    .int()
    .min(10_000)
    .max(50 * 1024 * 1024)
    .default(DEFAULT_PARSERS_CONFIG.maxMailBytes),
  PARSER_RATE_PER_MINUTE: z.coerce.number().int().min(1).max(10_000).default(DEFAULT_PARSERS_CONFIG.ratePerMinute),
  PARSER_IMAP_POLL_SECONDS: z.coerce.number().int().min(5).max(3600).default(60),
});

export interface Env {
  port: number;
  host: string;
  publicUrl: string;
  dataDir: string;
  databaseUrl?: string;
  jwtSecret?: string;
  /** Seals integration credentials; generated into DATA_DIR when unset. */
  encryptionKey?: string;
  /** The key before a rotation: still opens what it sealed. */
  encryptionKeyPrevious?: string;
  smtpUrl?: string;
  mailFrom: string;
  demoDays: number;
  logLevel: string;
  owner?: { login: string; password: string };
  webDist: string;
  trustProxy: boolean;
  /** api: HTTP only; worker: deliveries (and /api/health); all: both, one process. */
  role: 'api' | 'worker' | 'all';
  /** Deliveries one worker process runs at once. */
  workerConcurrency: number;
  /** PostgreSQL connections of the data pool (API requests). */
  dbPoolSize: number;
  /** PostgreSQL connections of the worker: its own pool in ROLE=all, the data pool in ROLE=worker. */
  workerDbPoolSize: number;
  allowPrivateDestinations: boolean;
  metricsToken?: string;
  retentionDays: number;
  rateLimits: { webhook: number; widget: number; auth: number; signin: number };
  /** Where the OAuth "start" calls live (spec: {auth host}); this server unless AUTH_HOST names another. */
  authHost: string;
  crm: CrmConfig;
  facebook: FacebookConfig;
  nbuRatesUrl: string;
  /** The payment provider (PAYMENT_*); null without keys: paying answers PAYMENT_NOT_CONFIGURED. */
  payment: PaymentConfig | null;
  /** The seller on invoices (SELLER_*; placeholders until set). */
  seller: SellerConfig;
  /** The embedded support chat (SUPPORT_CHAT_*); null when no script address is set. */
  supportChat: SupportChatConfig | null;
  /** Start the CRM emulators in-process and point the connectors at them (demo installs, end-to-end tests). */
  emulators: boolean;
  /** GET /api/dev/mail (MAIL_PREVIEW=true, or EMULATORS=true): every mail with sample data. */
  mailPreview: boolean;
  /** E-mail parsers: the SMTP listener (null: off), MAIL_DOMAIN, size and rate limits, poll interval. */
  parsers: ParsersConfig;
}

/**
 * FACEBOOK_GRAPH_URL and FACEBOOK_DIALOG_URL pinned by the operator to a Graph version Meta has
 * retired (or that we do not know): Meta would quietly serve such calls with another version (or
 * refuse lead retrieval), so the server says so at start. Only facebook.com hosts (not an emulator).
 */
export function staleFacebookVersions(
  fb: Pick<FacebookConfig, 'graphUrl' | 'dialogUrl'>,
  at: Date = new Date(),
): { setting: string; version: string; status: 'retired' | 'unknown'; current: string }[] {
  const out: { setting: string; version: string; status: 'retired' | 'unknown'; current: string }[] = [];
  for (const [setting, url] of [
    ['FACEBOOK_GRAPH_URL', fb.graphUrl],
    ['FACEBOOK_DIALOG_URL', fb.dialogUrl],
  ] as const) {
    const host = URL.canParse(url) ? new URL(url).hostname : '';
    if (host !== 'facebook.com' && !host.endsWith('.facebook.com')) continue;
    const version = graphVersionOfUrl(url) ?? '(none)';
    const status = graphVersionStatus(version, at);
    if (status !== 'live') out.push({ setting, version, status, current: GRAPH_API_VERSION });
  }
  return out;
}

export function loadEnv(source: NodeJS.ProcessEnv = process.env): Env {
  const parsed = ZEnv.safeParse(source);
  if (!parsed.success) {
    const problems = parsed.error.issues.map((i) => `${i.path.join('.')}: ${i.message}`).join('; ');
    throw new StartupError(`Invalid environment: ${problems}`);
  }
  // The connectors' keys, by the names their definitions declare (AMOCRM_*, PIPEDRIVE_*, SENDPULSE_API_URL …).
  const connectorKeys = readConnectorConfig(source);
  if (connectorKeys.problems.length) {
    throw new StartupError(`Invalid environment: ${connectorKeys.problems.join('; ')}`);
  }
  const e = parsed.data;
  if (e.ROLE !== 'all' && !e.DATABASE_URL) {
    throw new StartupError(
      `ROLE=${e.ROLE} runs beside other processes on one PostgreSQL server: set DATABASE_URL (the embedded database belongs to one app)`,
    );
  }
  if (!!e.PAYMENT_PUBLIC_KEY !== !!e.PAYMENT_PRIVATE_KEY) {
    throw new StartupError('Invalid environment: set both PAYMENT_PUBLIC_KEY and PAYMENT_PRIVATE_KEY, or neither');
  }
  // `npm start` at the repository root runs this workspace with cwd apps/server; a relative
  // DATA_DIR means the folder the user started npm from.
  const baseDir = source.INIT_CWD ?? process.cwd();
  return {
    port: e.PORT,
    host: e.HOST,
    publicUrl: (e.PUBLIC_URL ?? `http://localhost:${e.PORT}`).replace(/\/+$/, ''),
    dataDir: resolve(baseDir, e.DATA_DIR),
    databaseUrl: e.DATABASE_URL,
    jwtSecret: e.JWT_SECRET,
    encryptionKey: e.ENCRYPTION_KEY,
    encryptionKeyPrevious: e.ENCRYPTION_KEY_PREVIOUS,
    smtpUrl: e.SMTP_URL,
    mailFrom: e.MAIL_FROM,
    demoDays: e.DEMO_DAYS,
    logLevel: e.LOG_LEVEL,
    owner: e.OWNER_LOGIN && e.OWNER_PASSWORD ? { login: e.OWNER_LOGIN, password: e.OWNER_PASSWORD } : undefined,
    webDist: resolve(baseDir, e.WEB_DIST),
    trustProxy: e.TRUST_PROXY,
    role: e.ROLE,
    workerConcurrency: e.WORKER_CONCURRENCY,
    dbPoolSize: e.DB_POOL_SIZE,
    workerDbPoolSize: e.WORKER_DB_POOL_SIZE,
    allowPrivateDestinations: e.ALLOW_PRIVATE_DESTINATIONS,
    metricsToken: e.METRICS_TOKEN,
    retentionDays: e.RETENTION_DAYS,
    rateLimits: {
      webhook: e.RATE_LIMIT_WEBHOOK_PER_MINUTE,
      widget: e.RATE_LIMIT_WIDGET_PER_MINUTE,
      auth: e.RATE_LIMIT_AUTH_PER_MINUTE,
      signin: e.RATE_LIMIT_SIGNIN_PER_MINUTE,
    },
    authHost: (e.AUTH_HOST ?? e.PUBLIC_URL ?? `http://localhost:${e.PORT}`).replace(/\/+$/, ''),
    crm: connectorKeys.crm as CrmConfig,
    nbuRatesUrl: e.NBU_RATES_URL,
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
    parsers: {
      ...DEFAULT_PARSERS_CONFIG,
      mailDomain: e.MAIL_DOMAIN ?? new URL(e.PUBLIC_URL ?? `http://localhost:${e.PORT}`).hostname,
      smtp: e.PARSER_SMTP_PORT === 'off' ? null : { port: e.PARSER_SMTP_PORT, host: e.PARSER_SMTP_HOST ?? e.HOST },
      maxMailBytes: e.PARSER_MAX_MAIL_BYTES,
      ratePerMinute: e.PARSER_RATE_PER_MINUTE,
      imapEveryMs: e.PARSER_IMAP_POLL_SECONDS * 1000,
    },
    seller: {
      name: e.SELLER_NAME,
      code: e.SELLER_CODE,
      address: e.SELLER_ADDRESS,
      iban: e.SELLER_IBAN,
      bank: e.SELLER_BANK,
      email: e.SELLER_EMAIL,
    },
    facebook: {
      appId: e.FACEBOOK_APP_ID,
      appSecret: e.FACEBOOK_APP_SECRET,
      verifyToken: e.FACEBOOK_VERIFY_TOKEN,
      graphUrl: e.FACEBOOK_GRAPH_URL.replace(/\/+$/, ''),
      dialogUrl: e.FACEBOOK_DIALOG_URL,
      appIdsByHost: Object.fromEntries(
        hostList(e.FACEBOOK_APP_IDS_BY_HOST ?? '')
          .map((pair) => pair.split('='))
          .filter((kv): kv is [string, string] => kv.length === 2 && !!kv[0] && !!kv[1]),
      ),
    },
    supportChat: e.SUPPORT_CHAT_SCRIPT_URL
      ? {
          scriptUrl: e.SUPPORT_CHAT_SCRIPT_URL,
          organization: e.SUPPORT_CHAT_ORGANIZATION ?? '',
          loadImmediately: e.SUPPORT_CHAT_LOAD_IMMEDIATELY,
        }
      : null,
    emulators: e.EMULATORS,
    mailPreview: e.MAIL_PREVIEW || e.EMULATORS,
  };
}
