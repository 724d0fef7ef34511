// The integrations module's door (issue 29): its descriptor, which app-modules.ts lists, and what
// other modules may use of it. A module imports another only through its index.ts (npm run
// lint:deps:server); what is not here is the module's own.
import type { Deps } from '../../config';
import type { IntegrationRow } from '../../db/schema';
import { defineModule } from '../server-module';
import { connectorRecorders, recordTasks } from './connector-records.service';
import { integrationsRoutes } from './integrations.routes';
import { integrationTasks } from './integrations.tasks';
import { sourceDeps } from './source-deps';
import { sourceTasks } from './source-poll';

export { generateHook } from './integration-destinations.service';
export type { EmitIntegrationUpdate } from './integration-health';
export {
  emitWithState,
  onDestinationBroken,
  onDestinationRecovered,
  watchIntegrationHealth,
} from './integration-health';
export type { Actor } from './integration-rows';
export { assertIntegration, ownIntegrationOfType, ownRow } from './integration-rows';
export type { IntegrationTypeHooks } from './integration-types';
export { registerIntegrationType } from './integration-types';
export { validDestinations } from './integration-validation';
export { collectionsCleaner, integrationsCleaner } from './integrations.cleaner';
export { deleteIntegration, getIntegration, listIntegrations, updateIntegration } from './integrations.service';
export { connectWithCode, storeAuth } from './oauth-connect.service';

/**
 * `beforeDelete`: other modules' tidying at the destination before an integration is deleted.
 * `afterConnect`: their follow-up once an integration's credentials are stored, by any connect
 * (OAuth callback or code, credentials typed in, PUT …/connect); must not throw.
 */
export const integrationsModule = (options: {
  beforeDelete: (deps: Deps, row: IntegrationRow) => Promise<void>;
  afterConnect: (deps: Deps, row: Pick<IntegrationRow, 'id'>) => Promise<void>;
}) =>
  defineModule({
    name: 'integrations',
    // What connectors keep of their deliveries (their declared record kinds), in the result's transaction.
    delivery: () => ({ recorders: connectorRecorders() }),
    setup: ({ app, deps }) => ({
      routes: [
        (app) =>
          integrationsRoutes(app, {
            beforeDelete: (row) => options.beforeDelete(deps, row),
            afterConnect: (row) => options.afterConnect(deps, row),
          }),
      ],
      // And the refresh of every record kind that declares one (an SMS's delivery statuses), every source's poll.
      tasks: [...integrationTasks(deps.secrets, deps.log), ...recordTasks(deps), ...sourceTasks(sourceDeps(app))],
    }),
  });
