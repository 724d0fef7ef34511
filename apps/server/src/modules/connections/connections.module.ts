// Account connections as the app wires them: the routes of every connector that declares connections
// (their logins, connections, assets and receivers), the processor of stored inbound events
// (app.inboundEvents), which runs where the worker runs, and the backfill and housekeeping tasks.

import { eq } from 'drizzle-orm';
import { connectorConnections } from '../../db/schema';
import type { TenantDataCleaner } from '../../lib/tenant-data';
import { defineModule } from '../server-module';
import { connectionTasks } from './backfill.task';
import { connectionDeps } from './connection-deps';
import { connectionsRoutes } from './connections.routes';
import { inboundRoutes } from './inbound.routes';
import { INBOUND_WAKE, InboundEventProcessor } from './inbound-events';

declare module 'fastify' {
  interface FastifyInstance {
    /** Fetches and ingests stored inbound events (runs where the worker runs; tests drive it). */
    inboundEvents: InboundEventProcessor;
  }
}

export const connectionsModule = defineModule({
  name: 'connections',
  routes: [connectionsRoutes, inboundRoutes],
  setup: ({ app, deps }) => {
    const processor = new InboundEventProcessor(connectionDeps(app), deps.events);
    app.decorate('inboundEvents', processor);
    return {
      tasks: connectionTasks(connectionDeps(app), deps.events),
      // Stored inbound events wake the processor in every worker process, as deliveries wake the worker.
      background: {
        start: () => processor.start(),
        stop: () => processor.stop(),
        wake: () => processor.wake(),
        wakeOn: INBOUND_WAKE,
      },
    };
  },
});

/** Clear-all-data and account removal: connections go with their assets and tokens (cascade). */
export const connectionsCleaner: TenantDataCleaner = {
  name: 'connections',
  clear: async (tx, userId) => {
    await tx.delete(connectorConnections).where(eq(connectorConnections.accountId, userId));
  },
};
