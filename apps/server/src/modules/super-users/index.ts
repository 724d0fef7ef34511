// The super-users module's door (issue 29): its descriptor, which app-modules.ts lists, and what other
// modules may use of it. A module imports another only through its index.ts (npm run lint:deps:server);
// what is not here is the module's own.
import { defineModule } from '../server-module';
import { type SuperUsersRoutesOptions, superUsersRoutes } from './super-users.routes';

/** `tenantData`: a hard delete runs every cleaner, then removes the users row (docs/operator.md). */
export const superUsersModule = (tenantData: SuperUsersRoutesOptions) =>
  defineModule({ name: 'super-users', routes: [(app) => superUsersRoutes(app, tenantData)] });
