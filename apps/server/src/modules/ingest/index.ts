// The ingest module's door (issue 29): its descriptor, which app-modules.ts lists, and what other
// modules may use of it. A module imports another only through its index.ts (npm run lint:deps:server);
// what is not here is the module's own.
import { defineModule } from '../server-module';
import { ingestRoutes } from './ingest.routes';
import { ingestTasks } from './ingest.tasks';

export { ingestWebhook } from './ingest.service';
export { storedRequest } from './request';
export { forgetSourcesAfterWrites } from './source-cache';

export const ingestModule = defineModule({
  name: 'ingest',
  routes: [ingestRoutes],
  tasks: ingestTasks(),
});
