// The account module's door (issue 29): its descriptor, which app-modules.ts lists, and what other
// modules may use of it. A module imports another only through its index.ts (npm run lint:deps:server);
// what is not here is the module's own.
import { defineModule } from '../server-module';
import { type AccountRoutesOptions, accountRoutes } from './account.routes';

/** `tenantData`: every module's cleaners, in the order they run (app-modules.ts lists them). */
export const accountModule = (tenantData: AccountRoutesOptions) =>
  defineModule({ name: 'account', routes: [(app) => accountRoutes(app, tenantData)] });
