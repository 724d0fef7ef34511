import { connectors } from '@leadrelay/connectors';
import type { FastifyInstance } from 'fastify';
import { buildApp } from './app';
import { loadEnv } from './app-modules';
import { appOptions } from './app-options';
import { DEFAULT_SELLER_CONFIG, type SellerConfig } from './config';
import { StartupError } from './db/startup-error';
import { startDemoEmulators } from './demo-emulators';
import { connectorConfig } from './lib/connector-config';

async function main(): Promise<void> {
  const env = loadEnv();
  const emulators = env.emulators ? await startDemoEmulators(env.publicUrl) : undefined;
  let app: FastifyInstance;
  try {
    app = await buildApp(appOptions(env, emulators));
    if (emulators) {
      app.addHook('onClose', () => emulators.close());
      app.log.warn(
        emulators.info,
        `EMULATORS=true: ${Object.keys(emulators.info).join(', ')} are emulated (never in production)`,
      );
    }
  } catch (error) {
    await emulators?.close();
    throw error;
  }
  app.log.info(
    { allowPrivateDestinations: env.allowPrivateDestinations, allowedEndpoints: emulators?.endpoints ?? [] },
    env.allowPrivateDestinations
      ? 'destinations: private and loopback addresses allowed (ALLOW_PRIVATE_DESTINATIONS=true)'
      : `destinations: private and loopback addresses refused${emulators ? `, except the emulators' own endpoints: ${emulators.endpoints.join(', ')}` : ''}`,
  );
  // A connector's setting the operator should change (a pinned API version its service retired).
  for (const connector of connectors.values()) {
    for (const { message, ...details } of connector.startupWarnings?.(connectorConfig(env.crm, connector)) ?? []) {
      app.log.warn(details, message);
    }
  }
  const placeholders = (Object.keys(DEFAULT_SELLER_CONFIG) as (keyof SellerConfig)[])
    .filter((key) => env.seller[key] === DEFAULT_SELLER_CONFIG[key])
    .map((key) => `SELLER_${key.toUpperCase()}`);
  if (env.payment && !env.payment.sandbox && placeholders.length > 0) {
    app.log.warn({ placeholders }, 'payments are on but invoices print placeholder seller details: set these');
  }

  let closing = false;
  for (const signal of ['SIGINT', 'SIGTERM'] as const) {
    // `on`, not `once`: under `npm start` a Ctrl+C (or a signal to the process group) arrives twice,
    // from the terminal and forwarded by npm; a second one must not kill the app mid-shutdown,
    // before it has stopped its embedded PostgreSQL.
    process.on(signal, () => {
      if (closing) return;
      closing = true;
      app.log.info({ signal }, 'shutting down');
      // A stuck connection must not keep the process (and the data-dir lock) forever.
      setTimeout(() => process.exit(1), 10_000).unref();
      app.close().then(
        () => process.exit(0),
        (error) => {
          app.log.error({ err: error }, 'shutdown failed');
          process.exit(1);
        },
      );
    });
  }

  try {
    await app.listen({ port: env.port, host: env.host });
  } catch (error) {
    // Nothing is served: stop the embedded database too, then say why in one line when we can.
    await app.close().catch(() => {});
    const code = (error as NodeJS.ErrnoException).code;
    if (code === 'EADDRINUSE' || code === 'EACCES') {
      throw new StartupError(
        `Cannot listen on ${env.host}:${env.port} (${code === 'EADDRINUSE' ? 'the port is taken' : 'not allowed'}): set PORT to another port`,
      );
    }
    throw error;
  }
  app.log.info({ publicUrl: env.publicUrl, dataDir: env.dataDir, role: env.role }, 'LeadRelay is up');
}

main().catch((error) => {
  console.error(error instanceof StartupError ? error.message : error);
  process.exit(1);
});
