// The MCP door over real HTTP: the SDK's Streamable HTTP client against the Fastify app, signed in
// by a bearer key through an injected authenticate, then the app's own /mcp with real API keys.
import { randomUUID } from 'node:crypto';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import type { FastifyRequest } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { accountIdOf, createSource } from '../../test/routing-fixtures';
import { callAs, createTestApp, type SignedInUser, signUp, type TestApp } from '../../test/test-app';
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
});

// The app's own /mcp, signed in with real API keys made on the account's page (modules/api-keys).
describe('the app’s /mcp with the account’s API keys', () => {
  let k: TestApp;
  let kBase: string;
  let user: SignedInUser;
  let other: SignedInUser;
  const RATE = 12;

  beforeAll(async () => {
    k = await createTestApp({ rateLimits: { apiKey: RATE } });
    user = await signUp(k);
    other = await signUp(k);
    await createSource(k.app.db, await accountIdOf(k.app.db, user.login));
    kBase = await k.app.listen({ port: 0, host: '127.0.0.1' });
  });
  afterAll(() => k.close());

  const makeKey = async (who: SignedInUser, scope: 'read' | 'write') => {
    const res = await callAs(k, 'POST', '/api/account/api-keys', who, {
      name: `assistant ${scope} ${randomUUID()}`,
      scope,
    });
    expect(res.statusCode, res.body).toBe(201);
    return res.json() as { id: string; key: string };
  };
  const client = async (key: string) => {
    const c = new Client({ name: 'test-assistant', version: '1.0.0' });
    await c.connect(
      new StreamableHTTPClientTransport(new URL('/mcp', kBase), {
        requestInit: { headers: { authorization: `Bearer ${key}` } },
      }),
    );
    return c;
  };

  it('a key lists the tools; a read key cannot resend; a revoked key is refused at once', async () => {
    const write = await makeKey(user, 'write');
    const c = await client(write.key);
    try {
      expect((await c.listTools()).tools.map((tool) => tool.name)).toContain('resend_delivery');
      const listed = await c.callTool({ name: 'list_integrations', arguments: {} });
      expect(listed.structuredContent).toMatchObject({ total: 1 });
      const revoked = await callAs(k, 'DELETE', `/api/account/api-keys/${write.id}`, user);
      expect(revoked.statusCode, revoked.body).toBeLessThan(300);
      await expect(c.listTools()).rejects.toThrow(/401/);
    } finally {
      await c.close();
    }
    const read = await makeKey(user, 'read');
    const r = await client(read.key);
    try {
      const refused = await r.callTool({ name: 'resend_delivery', arguments: { deliveryId: randomUUID() } });
      expect(refused.isError).toBe(true);
      expect(JSON.stringify(refused.content)).toContain('API_KEY_SCOPE');
    } finally {
      await r.close();
    }
  });

  it("another account's key sees only its own account", async () => {
    const theirs = await makeKey(other, 'read');
    const c = await client(theirs.key);
    try {
      expect((await c.callTool({ name: 'list_integrations', arguments: {} })).structuredContent).toMatchObject({
        total: 0,
      });
    } finally {
      await c.close();
    }
  });

  it('the key’s requests per minute count at /mcp as on the API: 429 with Retry-After past them', async () => {
    const { key } = await makeKey(user, 'read');
    const statuses: number[] = [];
    let retryAfter: string | null = null;
    for (let i = 0; i < RATE + 2; i++) {
      const res = await fetch(new URL('/mcp', kBase), {
        method: 'POST',
        headers: {
          authorization: `Bearer ${key}`,
          'content-type': 'application/json',
          accept: 'application/json, text/event-stream',
        },
        body: JSON.stringify(initialize),
      });
      statuses.push(res.status);
      if (res.status === 429) retryAfter = res.headers.get('retry-after');
    }
    expect(statuses.slice(0, RATE).every((s) => s === 200)).toBe(true);
    expect(statuses.at(-1)).toBe(429);
    expect(Number(retryAfter)).toBeGreaterThan(0);
  });
});
