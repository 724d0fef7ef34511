// The ops module's door (issue 29): its descriptor, which app-modules.ts lists, and what other
// modules may use of it. A module imports another only through its index.ts (npm run lint:deps:server);
// what is not here is the module's own.
import { defineModule, type ModuleContext } from '../server-module';
import { createMetrics } from './metrics';
import { opsRoutes } from './ops.routes';

export const opsModule = defineModule({
  name: 'ops',
  // Workers are scraped and asked whether they run too.
  everyRole: true,
  setup: ({ deps, options, worker, runsWorker }: ModuleContext<{ metricsToken?: string }>) => ({
    routes: [
      (app) =>
        opsRoutes(app, {
          metrics: createMetrics(deps.db, deps.events),
          metricsToken: options.metricsToken,
          runsWorker,
          workerRunning: () => worker.isRunning,
        }),
    ],
  }),
});
