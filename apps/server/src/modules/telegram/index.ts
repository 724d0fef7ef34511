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
  // The manager bot's part in every delivery that declares it (the Telegram destination does): the
  // assignee's chat and the lead's earlier cards before the call; the cards it sent, kept with the result.
  delivery: (worker) => ({
    contexts: { 'manager-chat': { enrich: telegramEnricher(worker), record: recordTelegramCards } },
  }),
});
