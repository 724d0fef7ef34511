import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { type GraphClient, GraphError, graphClient } from './client';
import { GRAPH_SEED, type GraphEmulator, startGraphEmulator } from './emulator';

let em: GraphEmulator;
let client: GraphClient;

beforeAll(async () => {
  em = await startGraphEmulator();
});
afterAll(() => em.close());
beforeEach(() => {
  em.reset();
  // A new client per test: reset() forgets the app token a client caches.
  client = graphClient({
    graphUrl: em.graphUrl,
    dialogUrl: em.dialogUrl,
    appId: em.appId,
    appSecret: em.appSecret,
    fetch,
  });
});

describe('sign-in with Facebook against the Graph emulator', () => {
  it('debug_token names the app and the user of a token FB.login gave', async () => {
    const token = em.userToken();
    const info = await client.debugToken(token);
    expect(info).toMatchObject({ isValid: true, appId: em.appId, userId: GRAPH_SEED.user.id });
    expect(info.scopes).toContain('email');
    expect(await client.me(token)).toEqual({
      id: GRAPH_SEED.user.id,
      name: GRAPH_SEED.user.name,
      email: GRAPH_SEED.user.email,
    });
    // The log never shows the inspected token.
    expect(em.requests.map((r) => r.path).join(' ')).not.toContain(token);
  });

  it('a token of another app is reported as such, and our appsecret_proof does not fit it', async () => {
    const foreign = em.userToken({ appId: '999000999' });
    expect(await client.debugToken(foreign)).toMatchObject({ isValid: true, appId: '999000999' });
    const err = await client.me(foreign).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(GraphError);
    expect((err as GraphError).code).toBe(100);
  });

  it('an unknown or expired token is not valid', async () => {
    expect(await client.debugToken('EAAnot-a-token')).toMatchObject({ isValid: false, appId: null });
    const token = em.userToken();
    em.expireUserTokens();
    expect(await client.debugToken(token)).toMatchObject({ isValid: false, appId: em.appId });
  });

  it('leaves the e-mail out when the user declined it or has none confirmed', async () => {
    expect(await client.me(em.userToken({ scopes: ['public_profile'] }))).not.toHaveProperty('email');
    em.user.isEmailVerified = false;
    expect(await client.me(em.userToken())).not.toHaveProperty('email');
  });

  it('debug_token needs the app token', async () => {
    const res = await fetch(`${em.graphUrl}/debug_token?input_token=x`, {
      headers: { authorization: `Bearer ${em.userToken()}` },
    });
    expect(res.status).toBe(400);
    expect(((await res.json()) as { error: { code: number } }).error.code).toBe(100);
  });

  it('the control API issues tokens too', async () => {
    const res = await fetch(`${em.url}/__emulator/user-token`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ appId: '123' }),
    });
    const { accessToken } = (await res.json()) as { accessToken: string };
    expect(await client.debugToken(accessToken)).toMatchObject({ appId: '123' });
  });
});
