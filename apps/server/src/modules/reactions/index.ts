// The reactions module's door (issue 29): its descriptor, which app-modules.ts lists, and what other
// modules may use of it. A module imports another only through its index.ts (npm run lint:deps:server);
// what is not here is the module's own.
import { defineModule } from '../server-module';
import { reactionsRoutes } from './reactions.routes';

export { reactionsOf, recordReaction, speedBreakdownOf, speedToLeadSummary } from './reactions.service';

export const reactionsModule = defineModule({
  name: 'reactions',
  routes: [reactionsRoutes],
});
