// The account connections module's door (issue 29): its descriptor, which app-modules.ts lists, and
// what other modules may use of it. A module imports another only through its index.ts (npm run
// lint:deps:server); what is not here is the module's own.
export { connectionsCleaner, connectionsModule } from './connections.module';
