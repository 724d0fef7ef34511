// The app's options as a started process builds them from its environment (main.ts), kept apart
// so tests can check what a given environment allows (private addresses with EMULATORS=true).
import type { AppOptions } from './app';
import type { DemoEmulators } from './demo-emulators';
import type { Env } from './env';
import { loggerOptions } from './logger';

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
    facebook: emulators?.facebook ?? env.facebook,
    nbuRatesUrl: emulators?.nbuRatesUrl ?? env.nbuRatesUrl,
    payment: emulators?.payment ?? env.payment,
    seller: env.seller,
    supportChat: env.supportChat,
    // Inbound SMTP where webhooks are taken (api, all); the mailbox poll runs with the worker.
    parsers: { ...env.parsers, smtp: env.role === 'worker' ? null : env.parsers.smtp },
    emulators: emulators?.info,
    mailPreview: env.mailPreview,
  };
}
