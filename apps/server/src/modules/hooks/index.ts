// The hooks module's door (issue 29): its descriptor, which app-modules.ts lists, and what other
// modules may use of it. A module imports another only through its index.ts (npm run lint:deps:server);
// what is not here is the module's own.
import { defineModule, type ModuleContext } from '../server-module';
import { hooksRoutes } from './hooks.routes';
import { DEFAULT_RETENTION_DAYS, retentionTasks } from './retention';

export { routingCleaner } from './hooks.cleaner';
export { getHook, hookTotals } from './hooks.service';

export const hooksModule = defineModule({
  name: 'hooks',
  routes: [hooksRoutes],
  /** `retentionDays`: RETENTION_DAYS, how long the lead log is kept. */
  setup: ({ options }: ModuleContext<{ retentionDays?: number }>) => ({
    tasks: retentionTasks(options.retentionDays ?? DEFAULT_RETENTION_DAYS),
  }),
});
