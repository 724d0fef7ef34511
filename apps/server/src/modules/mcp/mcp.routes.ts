// The MCP server's door (issue 34 part 2): POST /mcp, Streamable HTTP without sessions (a new server
// and transport for each request, the SDK's stateless pattern), JSON answers. Public to Fastify's
// access rule, because the door signs the caller in itself: with an API key (`Authorization: Bearer
// <key>`), through the authenticate it is given; none, a wrong or a revoked key answers 401 with
// WWW-Authenticate before anything is read. GET and DELETE (a server-sent stream, a session's end)
// mean nothing without sessions: 405.
import type { Locale } from '@leadrelay/shared';
import { StreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/streamableHttp.js';
import { eq } from 'drizzle-orm';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { users } from '../../db/schema';
import { AppError } from '../../lib/app-error';
import type { McpAuthenticate, McpContext } from './mcp-context';
import { createMcpServer } from './mcp-server';

const CHALLENGE = { 'www-authenticate': 'Bearer realm="LeadRelay MCP"' };

export function mcpRoutes(authenticate: McpAuthenticate) {
  return async function mcpDoor(app: FastifyInstance): Promise<void> {
    const tags = ['mcp'];

    /** The caller's context, or 401: no key, a wrong one, a revoked one, a deleted account. */
    async function contextOf(request: FastifyRequest): Promise<McpContext> {
      const principal = await authenticate(request);
      const [account] = principal
        ? await app.db
            .select({ login: users.login, lang: users.lang, deletedAt: users.deletedAt })
            .from(users)
            .where(eq(users.id, principal.accountId))
        : [];
      if (!principal || !account || account.deletedAt) throw new AppError('UNAUTHORIZED', { headers: CHALLENGE });
      // The key's requests per minute, counted with its calls of the API (plugins/rate-limit.ts).
      const wait = app.hitApiKeyLimit?.(principal.keyId) ?? null;
      if (wait !== null) throw new AppError('TOO_MANY_REQUESTS', { headers: { 'Retry-After': String(wait) } });
      const agent = request.headers['user-agent'];
      return {
        deps: app.deps,
        principal,
        locale: (account.lang ?? 'uk') as Locale,
        login: account.login,
        origin: { ip: request.ip ?? null, userAgent: typeof agent === 'string' ? agent.slice(0, 500) : null },
      };
    }

    // Before the body is read (onRequest): a caller without a key learns nothing about the input.
    const contexts = new WeakMap<FastifyRequest, McpContext>();
    const signIn = async (request: FastifyRequest) => {
      contexts.set(request, await contextOf(request));
    };

    app.post(
      '/mcp',
      {
        config: { access: 'public' },
        schema: { tags, summary: 'MCP server (Streamable HTTP, stateless): the tools, signed in with an API key' },
        onRequest: signIn,
      },
      async (request, reply) => {
        const ctx = contexts.get(request);
        if (!ctx) throw new AppError('UNAUTHORIZED', { headers: CHALLENGE });
        const server = createMcpServer(ctx);
        const transport = new StreamableHTTPServerTransport({
          sessionIdGenerator: undefined,
          enableJsonResponse: true,
        });
        // The SDK writes the answer itself; Fastify leaves the response alone from here, so the
        // headers every answer carries (plugins/security-headers.ts) go onto it first.
        for (const [name, value] of Object.entries(reply.getHeaders())) {
          if (value !== undefined) reply.raw.setHeader(name, value);
        }
        reply.hijack();
        reply.raw.on('close', () => {
          void transport.close();
          void server.close();
        });
        try {
          await server.connect(transport);
          await transport.handleRequest(request.raw, reply.raw, request.body);
        } catch (error) {
          request.log.error({ err: error }, 'mcp request failed');
          if (!reply.raw.headersSent) {
            reply.raw.writeHead(500, { 'content-type': 'application/json' });
            reply.raw.end(
              JSON.stringify({ statusCode: 500, code: 'INTERNAL_ERROR', message: 'Internal Server Error' }),
            );
          }
        }
      },
    );

    for (const method of ['GET', 'DELETE'] as const) {
      app.route({
        method,
        url: '/mcp',
        config: { access: 'public' },
        schema: { tags, summary: 'Not served: the MCP server keeps no sessions (405)' },
        onRequest: signIn,
        handler: async () => {
          throw new AppError('METHOD_NOT_ALLOWED', { headers: { allow: 'POST' } });
        },
      });
    }
  };
}
