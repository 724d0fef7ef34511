import { randomBytes, randomUUID } from 'node:crypto';
import { join } from 'node:path';
import cookie from '@fastify/cookie';
import { createSafeFetch } from '@leadrelay/connectors';
import { API_BODY_LIMIT_BYTES, DEFAULT_DEMO_DAYS } from '@leadrelay/shared';
import Fastify, { type FastifyInstance, type FastifyServerOptions } from 'fastify';
import { serializerCompiler, validatorCompiler } from 'fastify-type-provider-zod';
import {
  type AppConfig,
  type CrmConfig,
  DEFAULT_CRM_CONFIG,
  DEFAULT_FACEBOOK_CONFIG,
  DEFAULT_SELLER_CONFIG,
  type Deps,
  destinationPolicy,
  type FacebookConfig,
  type PaymentConfig,
  type SellerConfig,
  type SupportChatConfig,
  type ThrottleOptions,
} from './config';
import {
  type Database,
  type Db,
  DEFAULT_POOL_SIZE,
  DEFAULT_WORKER_POOL_SIZE,
  type OpenDatabaseOptions,
  openDatabase,
} from './db/client';
import type { IntegrationRow } from './db/schema';
import { runtimeExtras } from './delivery/connector-runtime';
import { PeriodicScheduler, type PeriodicSchedulerOptions } from './delivery/periodic';
import { refreshAccountHold } from './delivery/queue';
import { DeliveryWorker, type DeliveryWorkerOptions } from './delivery/worker';
import type { DemoEmulators } from './demo-emulators';
import { loadOrCreateEncryptionKey } from './lib/encryption-key';
import { createEventBus, type EngineEventBus } from './lib/events';
import { loadOrCreateJwtSecret } from './lib/jwt-secret';
import { createAppLocks } from './lib/locks';
import { createMailer, type Mailer, type MailTransportOptions } from './lib/mail/mailer';
import { createBusPool, DeliveriesListener, DeliveriesNotifier } from './lib/pg-bus';
import { createSecretBox, ENCRYPTION_KEY_FORMAT, parseEncryptionKey, type SecretBox } from './lib/secret-box';
import { accountRoutes } from './modules/account/account.routes';
import { amocrmRoutes } from './modules/amocrm/amocrm.routes';
import { auditRoutes } from './modules/audit/audit.routes';
import { authRoutes } from './modules/auth/auth.routes';
import { authTasks } from './modules/auth/auth.tasks';
import { authenticateToken, isAccountActive } from './modules/auth/authenticate';
import { sessionsRoutes } from './modules/auth/sessions.routes';
import { DEFAULT_THROTTLE } from './modules/auth/throttle.service';
import { catalogueRoutes } from './modules/catalogue/catalogue.routes';
import { seedCatalogue } from './modules/catalogue/catalogue.service';
import { collectionsRoutes } from './modules/collections/collections.routes';
import { commentsRoutes } from './modules/comments/comments.routes';
import { commentsCleaner } from './modules/comments/comments.service';
import { crmEventsRoutes } from './modules/crm-events/crm-events.routes';
import { crmWatchTasks, unwatchIntegration } from './modules/crm-events/crm-watch.service';
import { currencyRoutes } from './modules/currency/currency.routes';
import { currencyTasks } from './modules/currency/currency.tasks';
import { NBU_USD_URL } from './modules/currency/nbu';
import { deliveryErrorsRoutes } from './modules/delivery-errors/delivery-errors.routes';
import { escalationTasks } from './modules/escalation/escalation.tasks';
import { facebookCleaner } from './modules/facebook/facebook.cleaner';
import { facebookRoutes } from './modules/facebook/facebook.routes';
import { facebookLeadTasks } from './modules/facebook/facebook-backfill.task';
import { facebookDeps } from './modules/facebook/facebook-deps';
import { FacebookLeadgenProcessor } from './modules/facebook/facebook-webhook.job';
import { facebookWebhookRoutes } from './modules/facebook/facebook-webhook.routes';
import { guardianRoutes } from './modules/guardian/guardian.routes';
import { guardianTasks } from './modules/guardian/guardian.tasks';
import { holdsTasks } from './modules/holds/holds.tasks';
import { routingCleaner } from './modules/hooks/hooks.cleaner';
import { hooksRoutes } from './modules/hooks/hooks.routes';
import { hookTotals } from './modules/hooks/hooks.service';
import { DEFAULT_RETENTION_DAYS, retentionTasks } from './modules/hooks/retention';
import { horoshopRoutes } from './modules/horoshop/horoshop.routes';
import { horoshopDeps } from './modules/horoshop/horoshop-deps';
import { horoshopTasks } from './modules/horoshop/horoshop-poll.task';
import { horoshopWebhookRoutes } from './modules/horoshop/horoshop-webhook.routes';
import { ingestRoutes } from './modules/ingest/ingest.routes';
import { ingestTasks } from './modules/ingest/ingest.tasks';
import { connectorRecorders, recordTasks } from './modules/integrations';
import { emitWithState, watchIntegrationHealth } from './modules/integrations/integration-health';
import { collectionsCleaner, integrationsCleaner } from './modules/integrations/integrations.cleaner';
import { integrationsRoutes } from './modules/integrations/integrations.routes';
import { integrationTasks } from './modules/integrations/integrations.tasks';
import { mailPreviewRoutes } from './modules/mail-preview/mail-preview.routes';
import { newsRoutes } from './modules/news/news.routes';
import { postPreview } from './modules/news/news.service';
import { createMetrics } from './modules/ops/metrics';
import { opsRoutes } from './modules/ops/ops.routes';
import { parsersCleaner } from './modules/parsers/parsers.cleaner';
import { parsersRoutes } from './modules/parsers/parsers.routes';
import { ParserRuntime } from './modules/parsers/parsers.runtime';
import { DEFAULT_PARSERS_CONFIG, type ParsersConfig } from './modules/parsers/parsers-deps';
import { paymentsCleaner } from './modules/payments/payments.cleaner';
import { paymentTasks } from './modules/payments/payments.renewal';
import { paymentsRoutes } from './modules/payments/payments.routes';
import type { PaymentsDeps } from './modules/payments/payments.service';
import { createPaymentProvider } from './modules/payments/providers';
import { pipedriveRoutes } from './modules/pipedrive/pipedrive.routes';
import { plansRoutes } from './modules/plans/plans.routes';
import { seedPlans } from './modules/plans/plans.service';
import { reactionsRoutes } from './modules/reactions/reactions.routes';
import { speedToLeadSummary } from './modules/reactions/reactions.service';
import { referralsRoutes } from './modules/referrals/referrals.routes';
import { superUsersRoutes } from './modules/super-users/super-users.routes';
import { supportChatRoutes } from './modules/support-chat/support-chat.routes';
import { telegramRoutes } from './modules/telegram/telegram.routes';
import { recordTelegramCards, telegramEnricher } from './modules/telegram/telegram-delivery';
import { translationsRoutes } from './modules/translations/translations.routes';
import { ensureOwner } from './modules/users/owner.service';
import { uspacyRoutes } from './modules/uspacy/uspacy.routes';
import { widgetRoutes } from './modules/widget/widget.routes';
import { setupAuth } from './plugins/auth';
import { frameworkErrors, setupErrors } from './plugins/errors';
import { setupInput } from './plugins/input';
import { pruneRateWindows, type RateLimits, setupRateLimits } from './plugins/rate-limit';
import { setupRealtime } from './plugins/realtime';
import { originOf, setupSecurityHeaders } from './plugins/security-headers';
import { setupSwagger } from './plugins/swagger';
import { setupWeb } from './plugins/web';

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
  /** Facebook app and Graph hosts; default DEFAULT_FACEBOOK_CONFIG (tests point them at the Graph emulator). */
  facebook?: Partial<FacebookConfig>;
  /** Where the official USD rate is taken from (NBU_RATES_URL); tests point it at a stand-in. */
  nbuRatesUrl?: string;
  /** The payment provider's keys and hosts (PAYMENT_*); unset: none. */
  payment?: PaymentConfig | null;
  /** The seller's details printed on invoices (SELLER_*); default placeholders. */
  seller?: SellerConfig;
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

declare module 'fastify' {
  interface FastifyInstance {
    db: Db;
    mailer: Mailer;
    deps: Deps;
    events: EngineEventBus;
    deliveryWorker: DeliveryWorker;
    periodic: PeriodicScheduler;
    /** Fetches and ingests stored Meta leadgen events (runs where the worker runs; tests drive it). */
    facebookLeads: FacebookLeadgenProcessor;
    /** E-mail parsers: the SMTP listener, the mailbox poll, processing of stored mails (tests drive it). */
    parsers: ParserRuntime;
  }
}

function mailTransport(options: AppOptions): MailTransportOptions {
  if (options.mail) return options.mail;
  if (options.smtpUrl) return { kind: 'smtp', url: options.smtpUrl };
  if (options.dataDir) return { kind: 'eml', dir: join(options.dataDir, 'mail') };
  return { kind: 'memory' };
}

export async function buildApp(options: AppOptions = {}): Promise<FastifyInstance> {
  const publicUrl = (options.publicUrl ?? 'http://localhost:3000').replace(/\/+$/, '');
  const app = Fastify({
    logger: options.logger ?? false,
    bodyLimit: API_BODY_LIMIT_BYTES,
    trustProxy: options.trustProxy ?? false,
    frameworkErrors,
  });
  app.setValidatorCompiler(validatorCompiler);
  app.setSerializerCompiler(serializerCompiler);
  // JSON only: anything else is 415, never parsed as a string.
  app.removeContentTypeParser('text/plain');
  // Depth limit and text PostgreSQL cannot store, for every route (plugins/input.ts).
  setupInput(app);

  // Before the database opens: a malformed key stops the start with nothing to undo.
  const secrets = secretBoxOf(options);
  const database = options.database ?? (await openDatabase({ ...databaseOptions(options), log: app.log }));
  try {
    return await setup(app, database, options, publicUrl, secrets);
  } catch (error) {
    if (!options.database) await database.close();
    throw error;
  }
}

async function setup(
  app: FastifyInstance,
  database: Database,
  options: AppOptions,
  publicUrl: string,
  secrets: SecretBox,
): Promise<FastifyInstance> {
  if (!options.database) app.addHook('onClose', () => database.close());

  const config: AppConfig = {
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
    facebook: { ...DEFAULT_FACEBOOK_CONFIG, ...options.facebook },
    nbuRatesUrl: options.nbuRatesUrl ?? NBU_USD_URL,
    payment: options.payment ?? null,
    seller: options.seller ?? DEFAULT_SELLER_CONFIG,
  };
  if (options.databaseUrl && !options.encryptionKey) {
    app.log.warn(
      'ENCRYPTION_KEY is not set: using DATA_DIR/encryption-key; every process on this database needs the same key',
    );
  }
  const mailer = createMailer(mailTransport(options), options.mailFrom ?? 'LeadRelay <no-reply@localhost>', app.log);
  app.addHook('onClose', async () => mailer.close());
  const locks = createAppLocks(database.url);
  app.addHook('onClose', async () => {
    await Promise.all([locks.connector.close(), locks.auth.close()]);
  });
  const events = createEventBus();
  const deps: Deps = { db: database.db, mailer, config, log: app.log, secrets, locks, events };
  app.decorate('db', database.db);
  app.decorate('mailer', mailer);
  app.decorate('deps', deps);
  // Idempotent: inserts the shipped integration types that are missing, keeps operators' edits.
  await seedCatalogue(database.db);
  // Once per database: the shipped plans on the first start, never again (an operator's deletions stand).
  await seedPlans(database.db);
  app.decorate('events', events);
  const deliveryWorker = new DeliveryWorker({
    db: database.workerDb ?? database.db,
    events,
    log: app.log,
    fetch: createSafeFetch(destinationPolicy(config)),
    secrets,
    contextExtras: (connector, destinationId) =>
      runtimeExtras({ db: database.workerDb ?? database.db, secrets, locks, config }, connector, destinationId),
    // A destination type's bookkeeping of what it delivered, in the transaction that stores the result.
    recorders: { ...connectorRecorders(), telegram: recordTelegramCards },
    // What a destination type's module adds to a delivery (Telegram: the assignee's chat, the lead's earlier cards).
    enrichers: { telegram: telegramEnricher({ db: database.workerDb ?? database.db, config }) },
    ...options.delivery,
  });
  app.decorate('deliveryWorker', deliveryWorker);
  // preClose: the worker finishes its calls and gives back its leases while the database is open.
  app.addHook('preClose', () => deliveryWorker.stop());
  const payments: PaymentsDeps = {
    db: database.db,
    secrets,
    // Without PAYMENT_* keys there is none: paying answers PAYMENT_NOT_CONFIGURED.
    provider: config.payment ? createPaymentProvider(config.payment) : null,
    publicUrl,
    mailer,
    log: app.log,
    onOrderSettled: async (order, account) => {
      // A paid order extends exp_date or changes the plan: held leads go now, not at the next check.
      if (order.status === 'paid') {
        await refreshAccountHold(database.db, account.id, new Date(), events).catch((error) =>
          app.log.error({ err: error, accountId: account.id }, 'releasing held leads after a payment failed'),
        );
      }
      app.realtime.emitToAccount(account.id, 'PAYMENT_INFORMER', { orderId: order.id, status: order.status });
    },
  };
  const parsers = new ParserRuntime({
    ...deps,
    events,
    parsers: { ...DEFAULT_PARSERS_CONFIG, mailDomain: new URL(publicUrl).hostname, ...options.parsers },
  });
  app.decorate('parsers', parsers);
  app.addHook('preClose', () => parsers.stop());
  const periodic = new PeriodicScheduler({
    db: database.db,
    log: app.log,
    tasks: [
      ...authTasks({ loginFailureWindowMs: config.throttle.windowSeconds * 1000 }),
      ...ingestTasks(),
      ...integrationTasks(secrets, app.log),
      ...currencyTasks(config.nbuRatesUrl, app.log),
      ...paymentTasks(payments),
      ...facebookLeadTasks(facebookDeps(app), events),
      ...holdsTasks({ mailer, publicUrl: config.publicUrl, log: app.log }, events),
      ...retentionTasks(options.retentionDays ?? DEFAULT_RETENTION_DAYS),
      { name: 'prune-rate-windows', everyMs: 5 * 60_000, run: (tx, now) => pruneRateWindows(tx, now) },
      ...recordTasks(deps),
      ...horoshopTasks(horoshopDeps(app)),
      ...parsers.tasks(),
      ...guardianTasks({ mailer, publicUrl: config.publicUrl, log: app.log, telegram: deps }, speedToLeadSummary),
      ...escalationTasks({ mailer, publicUrl: config.publicUrl, log: app.log }, events),
      ...crmWatchTasks(deps),
    ],
    ...options.periodic,
  });
  app.decorate('periodic', periodic);
  app.addHook('preClose', () => periodic.stop());
  const facebookLeads = new FacebookLeadgenProcessor(facebookDeps(app), events);
  app.decorate('facebookLeads', facebookLeads);
  app.addHook('preClose', () => facebookLeads.stop());
  const role = options.role ?? 'all';
  const runsWorker = !!options.worker && role !== 'api';
  await setupBus(app, deps, events, deliveryWorker, { databaseUrl: database.url, role, runsWorker });

  setupErrors(app);
  setupAuth(app, { authenticate: (token) => authenticateToken(deps, token), isActive: isAccountActive });
  setupRateLimits(app, database.db, options.rateLimits ?? {});
  await app.register(cookie);
  await setupSecurityHeaders(app, {
    publicUrl: config.publicUrl,
    checkoutOrigins: [originOf(config.payment?.checkoutUrl)].filter((o): o is string => !!o),
    supportChatOrigin: originOf(options.supportChat?.scriptUrl),
  });
  await setupSwagger(app);

  app.get('/api/health', { config: { access: 'public' }, schema: { hide: true } }, async () => ({ ok: true }));
  await app.register(opsRoutes, {
    metrics: createMetrics(database.db, events),
    metricsToken: options.metricsToken,
    runsWorker,
    workerRunning: () => deliveryWorker.isRunning,
  });
  if (options.emulators) {
    const info = options.emulators;
    app.get('/api/emulators', { config: { access: 'public' }, schema: { hide: true } }, async () => info);
  }
  if (options.mailPreview) await app.register(mailPreviewRoutes, { publicUrl: config.publicUrl });
  if (role !== 'worker') {
    await app.register(authRoutes);
    await app.register(sessionsRoutes);
    // Before integrations: leads and hooks reference them. Profile and login are never cleared.
    const tenantData = {
      cleaners: [
        commentsCleaner,
        routingCleaner,
        parsersCleaner,
        integrationsCleaner,
        collectionsCleaner,
        facebookCleaner,
      ],
      // A removed account keeps no access to anyone's Facebook pages (their tokens go now).
      onRemove: [facebookCleaner, paymentsCleaner],
    };
    await app.register(accountRoutes, tenantData);
    // A hard delete runs every cleaner, then removes the users row (docs/operator.md).
    await app.register(superUsersRoutes, tenantData);
    await app.register(translationsRoutes, { localesDir: options.localesDir });
    await app.register(catalogueRoutes);
    await app.register(plansRoutes);
    // Our CRM webhook (speed to lead) goes before the destination does.
    await app.register(integrationsRoutes, {
      beforeDelete: (row: IntegrationRow) => unwatchIntegration(deps, row),
    });
    await app.register(amocrmRoutes);
    await app.register(collectionsRoutes);
    await app.register(ingestRoutes);
    await app.register(hooksRoutes);
    await app.register(reactionsRoutes);
    await app.register(guardianRoutes);
    await app.register(deliveryErrorsRoutes);
    await app.register(auditRoutes);
    await app.register(pipedriveRoutes);
    await app.register(crmEventsRoutes);
    await app.register(uspacyRoutes);
    await app.register(telegramRoutes);
    await app.register(widgetRoutes);
    await app.register(currencyRoutes);
    await app.register(referralsRoutes);
    await app.register(paymentsRoutes, { deps: payments, seller: config.seller });
    await app.register(facebookRoutes);
    await app.register(facebookWebhookRoutes);
    await app.register(horoshopRoutes);
    await app.register(horoshopWebhookRoutes);
    await app.register(newsRoutes);
    await app.register(commentsRoutes);
    await app.register(supportChatRoutes, { chat: options.supportChat ?? null });
    await app.register(parsersRoutes, { runtime: parsers });
    // Inbound mail is taken where webhooks are (ROLE api or all): docs/parsers.md.
    app.addHook('onReady', () => parsers.startSmtp());
  }
  if (options.register) await app.register(async (child) => options.register?.(child));
  if (role !== 'worker') {
    await setupWeb(app, options.webDist, {
      publicUrl,
      previews: [{ path: /^\/(?:en\/)?news\/([^/]+)\/?$/, load: (id) => postPreview(app.db, id) }],
    });
  }
  if (runsWorker) {
    app.addHook('onReady', async () => deliveryWorker.start());
    app.addHook('onReady', async () => periodic.start());
    app.addHook('onReady', async () => facebookLeads.start());
  }

  if (options.owner) {
    const result = await ensureOwner(database.db, options.owner);
    if (result === 'created') app.log.info({ login: options.owner.login }, 'owner account created');
  }
  return app;
}

const randomSecret = () => randomBytes(32).toString('base64url');

/** The pools of a process on PostgreSQL, by role (README: the connection budget). */
function databaseOptions(options: AppOptions): OpenDatabaseOptions {
  const { databaseUrl, dataDir } = options;
  const role = options.role ?? 'all';
  const workerPoolSize = options.workerDbPoolSize ?? DEFAULT_WORKER_POOL_SIZE;
  if (role === 'worker') return { databaseUrl, dataDir, poolSize: workerPoolSize };
  const poolSize = options.dbPoolSize ?? DEFAULT_POOL_SIZE;
  if (role === 'all' && options.worker) return { databaseUrl, dataDir, poolSize, workerPoolSize };
  return { databaseUrl, dataDir, poolSize };
}

/**
 * The real-time channel, integration health alerts and the bus between processes: the socket.io
 * adapter and NOTIFY/LISTEN leadrelay_deliveries (docs/adr/003-real-time-channel.md).
 */
async function setupBus(
  app: FastifyInstance,
  deps: Deps,
  events: EngineEventBus,
  worker: DeliveryWorker,
  options: { databaseUrl: string; role: 'api' | 'worker' | 'all'; runsWorker: boolean },
): Promise<void> {
  const pool = createBusPool(options.databaseUrl, app.log);
  // onClose runs last-registered first: the pool ends after socket.io gave back its client.
  app.addHook('onClose', () => pool.end());
  const health = watchIntegrationHealth(
    deps,
    events,
    emitWithState(deps, (accountId, update) => app.realtime.emitToAccount(accountId, 'UPDATE_INTEGRATION', update)),
  );
  app.addHook('preClose', () => health.stop());
  try {
    await setupRealtime(app, deps, events, {
      pool,
      attach: options.role !== 'worker',
      authenticate: (token) => authenticateToken(deps, token),
      totals: (accountId) => hookTotals(deps.db, accountId),
    });
  } catch (error) {
    await health.stop();
    await pool.end();
    throw error;
  }
  // Ingest, renew and restart say `deliveries.due` after their commit; other processes hear it.
  const sender = randomUUID();
  const notifier = new DeliveriesNotifier(pool, sender, app.log);
  events.on('deliveries.due', notifier.notify);
  // Stored Meta leadgen events wake the worker's processor the same way (one channel: a spare wake is cheap).
  events.on('facebook.leadgen', notifier.notify);
  app.addHook('preClose', async () => {
    events.off('deliveries.due', notifier.notify);
    events.off('facebook.leadgen', notifier.notify);
    await notifier.close();
  });
  if (!options.runsWorker) return;
  const listener = new DeliveriesListener(
    options.databaseUrl,
    sender,
    () => {
      worker.wake();
      app.facebookLeads.wake();
    },
    app.log,
  );
  app.addHook('onReady', () => listener.start());
  app.addHook('preClose', () => listener.stop());
}

function parsedKey(name: string, text: string): Buffer {
  const key = parseEncryptionKey(text);
  if (!key) throw new Error(`${name} ${ENCRYPTION_KEY_FORMAT}`);
  return key;
}

function secretBoxOf(options: AppOptions): SecretBox {
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
