// The MCP door over real HTTP: the SDK's Streamable HTTP client against the Fastify app, signed in
// by a bearer key through an injected authenticate (the API keys' own is theirs to test).
import { randomUUID } from 'node:crypto';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import type { FastifyRequest } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { accountIdOf, createSource } from '../../test/routing-fixtures';
import { createTestApp, signUp, type TestApp } from '../../test/test-app';
import { mcpRoutes } from './mcp.routes';
import { bearerOf, type McpPrincipal } from './mcp-context';

/** The keys this test's authenticate knows: a key's secret → its principal. */
const keys = new Map<string, McpPrincipal>();
async function authenticate(request: FastifyRequest): Promise<McpPrincipal | null> {
  const key = bearerOf(request);
  return (key && keys.get(key)) || null;
}

let t: TestApp;
let base: string;
let accountId: string;
let sourceId: string;

beforeAll(async () => {
  t = await createTestApp({
    // The door as the module mounts it, with this test's authenticate, beside the app's own /mcp.
    register: (app) => {
      app.register(mcpRoutes(authenticate), { prefix: '/door' });
    },
  });
  accountId = await accountIdOf(t.app.db, (await signUp(t)).login);
  sourceId = (await createSource(t.app.db, accountId)).id;
  base = await t.app.listen({ port: 0, host: '127.0.0.1' });
});
afterAll(() => t.close());

function issueKey(scope: 'read' | 'write' = 'read'): string {
  const secret = `lr_${randomUUID()}`;
  keys.set(secret, { keyId: randomUUID(), keyName: 'HTTP test', scope, accountId, actor: { id: accountId } });
  return secret;
}

async function connect(key: string, path = '/door/mcp') {
  const client = new Client({ name: 'test-assistant', version: '1.0.0' });
  const transport = new StreamableHTTPClientTransport(new URL(path, base), {
    requestInit: { headers: { authorization: `Bearer ${key}` } },
  });
  await client.connect(transport);
  return client;
}

const initialize = {
  jsonrpc: '2.0',
  id: 1,
  method: 'initialize',
  params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'curl', version: '1' } },
};
const post = (path: string, headers: Record<string, string> = {}) =>
  fetch(new URL(path, base), {
    method: 'POST',
    headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream', ...headers },
    body: JSON.stringify(initialize),
  });

describe('the MCP door over HTTP', () => {
  it('serves the tools to a client with a key', async () => {
    const client = await connect(issueKey());
    try {
      expect((await client.listTools()).tools).toHaveLength(7);
      const result = await client.callTool({ name: 'list_integrations', arguments: {} });
      expect(result.isError).toBeFalsy();
      expect(result.structuredContent).toMatchObject({ total: 1, integrations: [{ id: sourceId }] });
    } finally {
      await client.close();
    }
  });

  it('answers JSON-RPC as JSON to a plain POST', async () => {
    const res = await post('/door/mcp', { authorization: `Bearer ${issueKey()}` });
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toMatch(/application\/json/);
    // The headers every answer of the app carries, though the SDK writes this one.
    expect(res.headers.get('x-content-type-options')).toBe('nosniff');
    expect(res.headers.get('content-security-policy')).toBeTruthy();
    expect(await res.json()).toMatchObject({ id: 1, result: { serverInfo: { name: 'leadrelay' } } });
  });

  it('refuses a missing or a wrong key with 401 and a challenge', async () => {
    const tries: Record<string, string>[] = [{}, { authorization: 'Bearer lr_wrong' }, { authorization: 'Basic abc' }];
    for (const headers of tries) {
      const res = await post('/door/mcp', headers);
      expect(res.status).toBe(401);
      expect(res.headers.get('www-authenticate')).toBe('Bearer realm="LeadRelay MCP"');
      expect(await res.json()).toMatchObject({ statusCode: 401, code: 'UNAUTHORIZED' });
    }
    await expect(connect('lr_wrong')).rejects.toThrow();
    // Before the body is read: a stranger's malformed body is not even parsed.
    const unread = await fetch(new URL('/door/mcp', base), {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: '{not json',
    });
    expect(unread.status).toBe(401);
  });

  it('refuses a revoked key at once, even mid-conversation', async () => {
    const key = issueKey();
    const client = await connect(key);
    try {
      expect((await client.listTools()).tools).toHaveLength(7);
      keys.delete(key);
      // Every request signs in again: the next call after the revocation is refused.
      await expect(client.listTools()).rejects.toThrow(/401/);
    } finally {
      await client.close();
    }
  });

  it('keeps no sessions: GET and DELETE answer 405 to a key, 401 without one', async () => {
    const key = issueKey();
    for (const method of ['GET', 'DELETE']) {
      const signedIn = await fetch(new URL('/door/mcp', base), { method, headers: { authorization: `Bearer ${key}` } });
      expect(signedIn.status).toBe(405);
      expect(signedIn.headers.get('allow')).toBe('POST');
      expect((await fetch(new URL('/door/mcp', base), { method })).status).toBe(401);
    }
  });

  it("the app's own /mcp signs nobody in until API keys are wired", async () => {
    keys.set('lr_known', { keyId: randomUUID(), keyName: 'x', scope: 'write', accountId, actor: { id: accountId } });
    const res = await post('/mcp', { authorization: 'Bearer lr_known' });
    expect(res.status).toBe(401);
    expect(res.headers.get('www-authenticate')).toMatch(/^Bearer /);
  });
});
