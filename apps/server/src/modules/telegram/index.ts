// The telegram module's door (issue 29): its descriptor, which app-modules.ts lists, and what other
// modules may use of it. A module imports another only through its index.ts (npm run lint:deps:server);
// what is not here is the module's own.
import { defineModule } from '../server-module';
import { telegramRoutes } from './telegram.routes';
import { recordTelegramCards, telegramEnricher } from './telegram-delivery';

export type { TelegramDeps } from './telegram.service';
export { apiFor, authOfRow, platformBot, TYPE, telegramConfig } from './telegram.service';

export const telegramModule = defineModule({
  name: 'telegram',
  routes: [telegramRoutes],
  // The cards it sent, kept with the result; the assignee's chat and the lead's earlier cards, before the call.
  delivery: (worker) => ({
    recorders: { telegram: recordTelegramCards },
    enrichers: { telegram: telegramEnricher(worker) },
  }),
});
