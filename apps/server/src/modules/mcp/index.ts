// The MCP module's door (issue 34 part 2): its descriptor, which app-modules.ts lists, and what other
// modules may use of it. A module imports another only through its index.ts (npm run lint:deps:server);
// what is not here is the module's own.
import { defineModule } from '../server-module';
import { mcpRoutes } from './mcp.routes';
import type { McpAuthenticate } from './mcp-context';

export { mcpRoutes } from './mcp.routes';
export type { McpAuthenticate, McpContext, McpPrincipal } from './mcp-context';
export { createMcpServer } from './mcp-server';

/**
 * `authenticate`: who a request to /mcp comes from (an API key, modules/api-keys), or null for a
 * 401. Its rate limit per key is the keys' auth's to apply.
 */
export const mcpModule = (options: { authenticate: McpAuthenticate }) =>
  defineModule({
    name: 'mcp',
    routes: [mcpRoutes(options.authenticate)],
  });
