import cookie from '@fastify/cookie';
import { createSafeFetch } from '@leadrelay/connectors';
import { API_BODY_LIMIT_BYTES } from '@leadrelay/shared';
import Fastify, { type FastifyInstance } from 'fastify';
import { serializerCompiler, validatorCompiler } from 'fastify-type-provider-zod';
import { setupBus } from './app-bus';
import { APP_MODULES } from './app-modules';
import { type AppOptions, appConfig, databaseOptions, mailTransport, secretBoxOf } from './app-options';
import { type AppConfig, type Deps, destinationPolicy } from './config';
import { type Database, type Db, openDatabase } from './db/client';
import { runtimeExtras } from './delivery/connector-runtime';
import { PeriodicScheduler } from './delivery/periodic';
import { DeliveryWorker } from './delivery/worker';
import { createEventBus, type EngineEventBus } from './lib/events';
import { createAppLocks } from './lib/locks';
import { createMailer, type Mailer } from './lib/mail/mailer';
import type { SecretBox } from './lib/secret-box';
import { apiKeyAuth } from './modules/api-keys';
import { authenticateToken, isAccountActive } from './modules/auth';
import { deliveryParts, type ServerModule, setupModules } from './modules/server-module';
import { ensureOwner } from './modules/users';
import { setupAuth } from './plugins/auth';
import { frameworkErrors, setupErrors } from './plugins/errors';
import { setupInput } from './plugins/input';
import { pruneRateWindows, setupRateLimits } from './plugins/rate-limit';
import { originOf, setupSecurityHeaders } from './plugins/security-headers';
import { setupSwagger } from './plugins/swagger';
import { setupWeb } from './plugins/web';

export type { AppOptions } from './app-options';

declare module 'fastify' {
  interface FastifyInstance {
    db: Db;
    mailer: Mailer;
    deps: Deps;
    events: EngineEventBus;
    deliveryWorker: DeliveryWorker;
    periodic: PeriodicScheduler;
  }
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

/** The app on an open database: the server's own parts, then every module of the list, the same way. */
async function setup(
  app: FastifyInstance,
  database: Database,
  options: AppOptions,
  publicUrl: string,
  secrets: SecretBox,
): Promise<FastifyInstance> {
  if (!options.database) app.addHook('onClose', () => database.close());
  const deps = serverDeps(app, database, appConfig(options, publicUrl), secrets, options);
  // Checks that AppOptions holds what each module reads of it.
  const modules: readonly ServerModule<AppOptions>[] = APP_MODULES;
  for (const module of modules) await module.seed?.(database.db);
  const worker = deliveryWorker(app, database, deps, modules, options);
  const role = options.role ?? 'all';
  const runsWorker = !!options.worker && role !== 'api';
  const wired = await setupModules(modules, { app, deps, options, worker, runsWorker });
  for (const { stop } of wired) if (stop) app.addHook('preClose', () => stop());
  const periodic = new PeriodicScheduler({
    db: database.db,
    log: app.log,
    tasks: [
      ...wired.flatMap((m) => m.tasks),
      { name: 'prune-rate-windows', everyMs: 5 * 60_000, run: (tx, now) => pruneRateWindows(tx, now) },
    ],
    ...options.periodic,
  });
  app.decorate('periodic', periodic);
  app.addHook('preClose', () => periodic.stop());
  const background = wired.flatMap((m) => (m.background ? [m.background] : []));
  for (const work of background) app.addHook('preClose', () => work.stop());
  await setupBus(app, deps, { worker, background, databaseUrl: database.url, role, runsWorker });
  await setupPlumbing(app, deps, options);

  // Routes of every process first (ops), then the API's where it is served.
  for (const { routes } of wired.filter((m) => m.everyRole)) for (const plugin of routes) await app.register(plugin);
  if (role !== 'worker') {
    for (const { routes } of wired.filter((m) => !m.everyRole)) for (const plugin of routes) await app.register(plugin);
    for (const { onApiReady } of wired) if (onApiReady) app.addHook('onReady', () => onApiReady());
  }
  if (options.register) await app.register(async (child) => options.register?.(child));
  if (role !== 'worker') {
    await setupWeb(app, options.webDist, { publicUrl, previews: wired.flatMap((m) => m.previews) });
  }
  if (runsWorker) {
    app.addHook('onReady', async () => worker.start());
    app.addHook('onReady', async () => periodic.start());
    for (const work of background) app.addHook('onReady', async () => work.start());
  }

  if (options.owner) {
    const result = await ensureOwner(database.db, options.owner);
    if (result === 'created') app.log.info({ login: options.owner.login }, 'owner account created');
  }
  return app;
}

/** What every service gets (deps): the database, mail, settings, secrets, locks and the event bus. */
function serverDeps(
  app: FastifyInstance,
  database: Database,
  config: AppConfig,
  secrets: SecretBox,
  options: AppOptions,
): Deps {
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
  app.decorate('events', events);
  return deps;
}

/** The delivery worker, on its own pool where there is one; its loop starts only where the worker runs. */
function deliveryWorker(
  app: FastifyInstance,
  database: Database,
  { config, secrets, locks, events }: Deps,
  modules: readonly ServerModule<AppOptions>[],
  options: AppOptions,
): DeliveryWorker {
  const db = database.workerDb ?? database.db;
  const worker = new DeliveryWorker({
    db,
    events,
    log: app.log,
    fetch: createSafeFetch(destinationPolicy(config)),
    secrets,
    contextExtras: (connector, destinationId) =>
      runtimeExtras({ db, secrets, locks, config }, connector, destinationId),
    // A destination type's bookkeeping in the transaction that stores the result, and what it adds to a delivery.
    ...deliveryParts(modules, { db, config }),
    ...options.delivery,
  });
  app.decorate('deliveryWorker', worker);
  // preClose: the worker finishes its calls and gives back its leases while the database is open.
  app.addHook('preClose', () => worker.stop());
  return worker;
}

/** Errors, sign-in, rate limits, cookies, security headers, the API document, /api/health. */
async function setupPlumbing(app: FastifyInstance, deps: Deps, options: AppOptions): Promise<void> {
  setupErrors(app);
  setupAuth(app, {
    authenticate: (token) => authenticateToken(deps, token),
    apiKeys: apiKeyAuth(deps.db),
    isActive: isAccountActive,
  });
  setupRateLimits(app, deps.db, options.rateLimits ?? {});
  await app.register(cookie);
  await setupSecurityHeaders(app, {
    publicUrl: deps.config.publicUrl,
    checkoutOrigins: [originOf(deps.config.payment?.checkoutUrl)].filter((o): o is string => !!o),
    supportChatOrigin: originOf(options.supportChat?.scriptUrl),
  });
  await setupSwagger(app);
  app.get('/api/health', { config: { access: 'public' }, schema: { hide: true } }, async () => ({ ok: true }));
  if (options.emulators) {
    const info = options.emulators;
    app.get('/api/emulators', { config: { access: 'public' }, schema: { hide: true } }, async () => info);
  }
}
