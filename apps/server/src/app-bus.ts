// The real-time channel, integration health alerts and the bus between processes: the socket.io
// adapter and NOTIFY/LISTEN leadrelay_deliveries (docs/adr/003-real-time-channel.md).
import { randomUUID } from 'node:crypto';
import type { FastifyInstance } from 'fastify';
import type { Deps } from './config';
import type { DeliveryWorker } from './delivery/worker';
import { createBusPool, DeliveriesListener, DeliveriesNotifier } from './lib/pg-bus';
import { authenticateToken } from './modules/auth';
import { hookTotals } from './modules/hooks';
import { emitWithState, watchIntegrationHealth } from './modules/integrations';
import type { ModuleParts } from './modules/server-module';
import { setupRealtime } from './plugins/realtime';

export interface BusOptions {
  worker: DeliveryWorker;
  /** The modules' own background work: woken, like the worker, when another process says so. */
  background: NonNullable<ModuleParts['background']>[];
  databaseUrl: string;
  role: 'api' | 'worker' | 'all';
  runsWorker: boolean;
}

export async function setupBus(app: FastifyInstance, deps: Deps, options: BusOptions): Promise<void> {
  const { events } = deps;
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
  // The modules' background work is woken the same way (one channel: a spare wake is cheap).
  const wakeOn = ['deliveries.due' as const, ...options.background.map((work) => work.wakeOn)];
  for (const event of wakeOn) events.on(event, notifier.notify);
  app.addHook('preClose', async () => {
    for (const event of wakeOn) events.off(event, notifier.notify);
    await notifier.close();
  });
  if (!options.runsWorker) return;
  const listener = new DeliveriesListener(
    options.databaseUrl,
    sender,
    () => {
      options.worker.wake();
      for (const work of options.background) work.wake();
    },
    app.log,
  );
  app.addHook('onReady', () => listener.start());
  app.addHook('preClose', () => listener.stop());
}
