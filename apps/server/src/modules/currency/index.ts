// The currency module's door (issue 29): its descriptor, which app-modules.ts lists, and what other
// modules may use of it. A module imports another only through its index.ts (npm run lint:deps:server);
// what is not here is the module's own.
import { defineModule } from '../server-module';
import { currencyRoutes } from './currency.routes';
import { currencySettings } from './currency.settings';
import { currencyTasks } from './currency.tasks';

export { currentRates } from './currency.service';
export { NBU_USD_URL } from './nbu';

export const currencyModule = defineModule({
  name: 'currency',
  settings: currencySettings,
  routes: [currencyRoutes],
  setup: ({ deps }) => ({ tasks: currencyTasks(deps.config.nbuRatesUrl, deps.log) }),
});
