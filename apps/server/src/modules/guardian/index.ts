// The guardian module's door (issue 29): its descriptor, which app-modules.ts lists, and what other
// modules may use of it. A module imports another only through its index.ts (npm run lint:deps:server);
// what is not here is the module's own.
import { speedToLeadSummary } from '../reactions';
import { defineModule } from '../server-module';
import { guardianRoutes } from './guardian.routes';
import { guardianTasks } from './guardian.tasks';

export { listAlerts } from './guardian.service';

export const guardianModule = defineModule({
  name: 'guardian',
  routes: [guardianRoutes],
  setup: ({ deps }) => ({
    tasks: guardianTasks(
      { mailer: deps.mailer, publicUrl: deps.config.publicUrl, log: deps.log, telegram: deps },
      speedToLeadSummary,
    ),
  }),
});
