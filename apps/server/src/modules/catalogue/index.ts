// The catalogue module's door (issue 29): its descriptor, which app-modules.ts lists, and what other
// modules may use of it. A module imports another only through its index.ts (npm run lint:deps:server);
// what is not here is the module's own.
import { defineModule } from '../server-module';
import { catalogueRoutes } from './catalogue.routes';
import { seedCatalogue } from './catalogue.service';

export { findSettingBySlug, isStaffOnlyType, isTypeAvailable, settingsBySlug } from './catalogue.service';

export const catalogueModule = defineModule({
  name: 'catalogue',
  // Idempotent: inserts the shipped integration types that are missing, keeps operators' edits.
  seed: seedCatalogue,
  routes: [catalogueRoutes],
});
