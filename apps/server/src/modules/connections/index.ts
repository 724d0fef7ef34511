// The account connections module's door (issue 29): its descriptor, which app-modules.ts lists, and
// what other modules may use of it. A module imports another only through its index.ts (npm run
// lint:deps:server); what is not here is the module's own.

// What conversion events (issue 33) send through: a connection's call and its token.
export { type ConnectionDeps, callFor, connectionConnector, connectionDeps } from './connection-deps';
export { connectionTokenOf } from './connection-store';
export { connectionsCleaner, connectionsModule } from './connections.module';
