// The translations module's door (issue 29): its descriptor, which app-modules.ts lists, and what other
// modules may use of it. A module imports another only through its index.ts (npm run lint:deps:server);
// what is not here is the module's own.
import { defineModule, type ModuleContext } from '../server-module';
import { type TranslationsRoutesOptions, translationsRoutes } from './translations.routes';

export const translationsModule = defineModule({
  name: 'translations',
  setup: ({ options }: ModuleContext<TranslationsRoutesOptions>) => ({
    routes: [(app) => translationsRoutes(app, { localesDir: options.localesDir })],
  }),
});
