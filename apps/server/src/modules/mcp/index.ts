// The MCP module's door (issue 34 part 2): its descriptor, which app-modules.ts lists, and what other
// modules may use of it. A module imports another only through its index.ts (npm run lint:deps:server);
// what is not here is the module's own.
import type { Deps } from '../../config';
import { defineModule } from '../server-module';
import { mcpRoutes } from './mcp.routes';
import type { McpAuthenticate } from './mcp-context';

export { mcpRoutes } from './mcp.routes';
export type { McpAuthenticate, McpContext, McpPrincipal } from './mcp-context';
export { bearerOf } from './mcp-context';
export { createMcpServer } from './mcp-server';

/**
 * `authenticator`: made once per app from its deps, it tells who a request to /mcp comes from (an
 * API key, modules/api-keys: `(req) => authenticateApiKey(deps.db, bearerOf(req) ?? '')`), or null
 * for a 401. The rate limit per key is the keys' to apply.
 */
export const mcpModule = (options: { authenticator: (deps: Deps) => McpAuthenticate }) =>
  defineModule({
    name: 'mcp',
    setup: ({ deps }) => ({ routes: [mcpRoutes(options.authenticator(deps))] }),
  });
