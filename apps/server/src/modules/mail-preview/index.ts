// The mail-preview module's door (issue 29): its descriptor, which app-modules.ts lists, and what other
// modules may use of it. A module imports another only through its index.ts (npm run lint:deps:server);
// what is not here is the module's own.
import { defineModule, type ModuleContext } from '../server-module';
import { mailPreviewRoutes } from './mail-preview.routes';

export const mailPreviewModule = defineModule({
  name: 'mail-preview',
  everyRole: true,
  /** `mailPreview`: MAIL_PREVIEW (or EMULATORS); off, the module has no routes. */
  setup: ({ deps, options }: ModuleContext<{ mailPreview?: boolean }>) =>
    options.mailPreview ? { routes: [(app) => mailPreviewRoutes(app, { publicUrl: deps.config.publicUrl })] } : {},
});
