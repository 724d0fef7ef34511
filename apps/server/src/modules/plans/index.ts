// The plans module's door (issue 29): its descriptor, which app-modules.ts lists, and what other
// modules may use of it. A module imports another only through its index.ts (npm run lint:deps:server);
// what is not here is the module's own.
import { defineModule } from '../server-module';
import { plansRoutes } from './plans.routes';
import { seedPlans } from './plans.service';

export type { PlanActor } from './plans.service';
export { accountLimits, assertRoomForDestinations, assertRoomForIntegration } from './plans.service';

export const plansModule = defineModule({
  name: 'plans',
  // Once per database: the shipped plans on the first start, never again (an operator's deletions stand).
  seed: seedPlans,
  routes: [plansRoutes],
});
