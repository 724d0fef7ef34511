// The only reader of process.env: everything else receives its settings from here or from
// buildApp's options. It knows no module: the modules declare their own keys (lib/env-settings.ts)
// and the boot code hands the list to readEnv (app-modules.ts: loadEnv).
import { resolve } from 'node:path';
import { DEFAULT_DEMO_DAYS } from '@leadrelay/shared';
import { z } from 'zod';
import type { CrmConfig } from './config';
import { DEFAULT_POOL_SIZE, DEFAULT_WORKER_POOL_SIZE } from './db/client';
import { StartupError } from './db/startup-error';
import { DEFAULT_WORKER_CONCURRENCY } from './delivery/worker';
import { readConnectorConfig } from './lib/connector-config';
import { type AnyModuleSettings, blankToUndefined, boolish, type ModulesEnv, optionalText } from './lib/env-settings';
import { ENCRYPTION_KEY_FORMAT, parseEncryptionKey } from './lib/secret-box';

const DEFAULT_WEB_DIST = resolve(import.meta.dirname, '../../web/dist');

const encryptionKey = z.preprocess(
  blankToUndefined,
  z
    .string()
    .refine((v) => parseEncryptionKey(v) !== undefined, { message: ENCRYPTION_KEY_FORMAT })
    .optional(),
);

/** The server's own keys; the modules' follow them, in the order of the list (app-modules.ts). */
const SERVER_KEYS = {
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
  WORKER_CONCURRENCY: z.coerce.number().int().min(1).max(1024).default(DEFAULT_WORKER_CONCURRENCY),
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
};

/** The server's own settings; the modules add theirs (app-modules.ts: Env). */
export interface ServerEnv {
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
  /** Start the CRM emulators in-process and point the connectors at them (demo installs, end-to-end tests). */
  emulators: boolean;
  /** GET /api/dev/mail (MAIL_PREVIEW=true, or EMULATORS=true): every mail with sample data. */
  mailPreview: boolean;
}

/** The keys of the server and of the modules as one schema; a key two modules declare is a mistake. */
function envSchema(modules: readonly AnyModuleSettings[]) {
  const keys: Record<string, z.ZodRawShape[string]> = { ...SERVER_KEYS };
  for (const settings of modules) {
    for (const [key, schema] of Object.entries(settings.keys as z.ZodRawShape)) {
      if (Object.hasOwn(keys, key)) throw new Error(`${key} is declared twice`);
      keys[key] = schema;
    }
  }
  return z.object(keys);
}

/**
 * The environment, checked: the server's keys, the connectors' and those of `modules` (each
 * module's part of Env beside the server's). Anything wrong stops the start with one line.
 */
export function readEnv<const M extends readonly { readonly settings?: AnyModuleSettings }[]>(
  source: NodeJS.ProcessEnv,
  modules: M,
): ServerEnv & ModulesEnv<M> {
  const declared = modules.flatMap((m) => (m.settings ? [m.settings] : []));
  const parsed = envSchema(declared).safeParse(source);
  if (!parsed.success) {
    const problems = parsed.error.issues.map((i) => `${i.path.join('.')}: ${i.message}`).join('; ');
    throw new StartupError(`Invalid environment: ${problems}`);
  }
  // The connectors' keys, by the names their definitions declare (<SLUG>_CLIENT_ID, <SLUG>_API_URL …).
  const connectorKeys = readConnectorConfig(source);
  if (connectorKeys.problems.length) {
    throw new StartupError(`Invalid environment: ${connectorKeys.problems.join('; ')}`);
  }
  const e = parsed.data as z.output<z.ZodObject<typeof SERVER_KEYS>>;
  if (e.ROLE !== 'all' && !e.DATABASE_URL) {
    throw new StartupError(
      `ROLE=${e.ROLE} runs beside other processes on one PostgreSQL server: set DATABASE_URL (the embedded database belongs to one app)`,
    );
  }
  for (const settings of declared) {
    const problem = settings.problem?.(parsed.data);
    if (problem) throw new StartupError(`Invalid environment: ${problem}`);
  }
  const server = serverEnv(e, connectorKeys.crm as CrmConfig, source.INIT_CWD ?? process.cwd());
  const basics = { host: server.host, publicUrl: server.publicUrl };
  const parts = declared.map((settings) => settings.read(parsed.data, basics));
  return Object.assign(server, ...parts) as ServerEnv & ModulesEnv<M>;
}

/**
 * The server's own part of Env. `baseDir`: `npm start` at the repository root runs this workspace
 * with cwd apps/server; a relative DATA_DIR means the folder the user started npm from.
 */
function serverEnv(e: z.output<z.ZodObject<typeof SERVER_KEYS>>, crm: CrmConfig, baseDir: string): ServerEnv {
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
    crm,
    emulators: e.EMULATORS,
    mailPreview: e.MAIL_PREVIEW || e.EMULATORS,
  };
}
