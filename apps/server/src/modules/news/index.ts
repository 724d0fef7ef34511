// The news module's door (issue 29): its descriptor, which app-modules.ts lists, and what other
// modules may use of it. A module imports another only through its index.ts (npm run lint:deps:server);
// what is not here is the module's own.
import { defineModule } from '../server-module';
import { newsRoutes } from './news.routes';
import { postPreview } from './news.service';

export const newsModule = defineModule({
  name: 'news',
  routes: [newsRoutes],
  // A shared link to a post shows its title and picture.
  setup: ({ deps }) => ({
    previews: [
      { path: /^\/en\/news\/([^/]+)\/?$/, load: (id) => postPreview(deps.db, id, 'en') },
      { path: /^\/news\/([^/]+)\/?$/, load: (id) => postPreview(deps.db, id, 'uk') },
    ],
  }),
});
