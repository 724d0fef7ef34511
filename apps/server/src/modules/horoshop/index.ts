// The horoshop module's door (issue 29): its descriptor, which app-modules.ts lists, and what other
// modules may use of it. A module imports another only through its index.ts (npm run lint:deps:server);
// what is not here is the module's own.
import { defineModule } from '../server-module';
import { horoshopRoutes } from './horoshop.routes';
import { horoshopDeps } from './horoshop-deps';
import { horoshopTasks } from './horoshop-poll.task';
import { horoshopWebhookRoutes } from './horoshop-webhook.routes';

export const horoshopModule = defineModule({
  name: 'horoshop',
  routes: [horoshopRoutes, horoshopWebhookRoutes],
  setup: ({ app }) => ({ tasks: horoshopTasks(horoshopDeps(app)) }),
});
