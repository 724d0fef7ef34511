// The crm-events module's door (issue 29): its descriptor, which app-modules.ts lists, and what other
// modules may use of it. A module imports another only through its index.ts (npm run lint:deps:server);
// what is not here is the module's own.
import { defineModule } from '../server-module';
import { crmEventsRoutes } from './crm-events.routes';
import { crmWatchTasks } from './crm-watch.service';

export { unwatchIntegration, watchAfterConnect } from './crm-watch.service';

export const crmEventsModule = defineModule({
  name: 'crm-events',
  routes: [crmEventsRoutes],
  setup: ({ deps }) => ({ tasks: crmWatchTasks(deps) }),
});
