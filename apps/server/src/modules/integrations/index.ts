// The integrations module's door: what other modules may use of it (issue 29). A module imports another
// only through its index.ts (npm run lint:deps:server); what is not here is the module's own.
export { callConnector, loadList, remoteWebhooks } from './connector-calls.service';
export { connectorRecorders, recordTasks } from './connector-records.service';
export type { EmitIntegrationUpdate } from './integration-health';
export { connectionChanged, emitWithState, markBroken, markRecovered } from './integration-health';
export type { Actor } from './integration-rows';
export { assertIntegration, ownIntegrationOfType, ownRow } from './integration-rows';
export type { IntegrationTypeHooks } from './integration-types';
export { registerIntegrationType } from './integration-types';
export { validDestinations } from './integration-validation';
export { deleteIntegration, getIntegration, updateIntegration } from './integrations.service';
export { registerLoaderRoutes } from './loader-routes';
export {
  appClient,
  callbackToScreen,
  connectWithCode,
  consentUrl,
  finishAtCallback,
  oauthConnector,
  signConnectState,
  startConnect,
  stateIntegration,
  storeAuth,
} from './oauth-connect.service';
