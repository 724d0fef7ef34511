// The api-keys module's door (issue 34): its descriptor, which app-modules.ts lists, and what other
// modules may use of it. A module imports another only through its index.ts (npm run lint:deps:server);
// what is not here is the module's own.
import { API_KEY_MARK } from '@leadrelay/shared';
import type { Executor } from '../../db/client';
import type { ApiKeyAuth } from '../../plugins/auth';
import { defineModule } from '../server-module';
import { auditKeyWrites } from './api-keys.audit';
import { keyMayUse } from './api-keys.policy';
import { apiKeysRoutes } from './api-keys.routes';
import { authenticateApiKey } from './api-keys.service';

export { PEOPLE_ONLY_ROUTES } from './api-keys.policy';
export { type ApiKeyPrincipal, authenticateApiKey } from './api-keys.service';

/** What the auth plugin asks of API keys (app.ts hands it over). */
export const apiKeyAuth = (db: Executor): ApiKeyAuth => ({
  isKey: (bearer) => bearer.startsWith(API_KEY_MARK),
  async authenticate(bearer) {
    const found = await authenticateApiKey(db, bearer);
    return found && { user: found.actor, apiKey: { id: found.keyId, name: found.keyName, scope: found.scope } };
  },
  mayUse: keyMayUse,
});

export const apiKeysModule = defineModule({
  name: 'api-keys',
  routes: [apiKeysRoutes],
  setup: ({ app, deps }) => {
    auditKeyWrites(app, deps.db);
    return {};
  },
});
