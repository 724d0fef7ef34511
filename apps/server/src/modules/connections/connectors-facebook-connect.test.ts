import { GRAPH_SEED } from '@leadrelay/connectors/testing';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { connectorAssets, connectorConnections } from '../../db/schema';
import { signOAuthState, stateBinding } from '../../lib/oauth-state';
import {
  adAccountRows,
  call,
  callback,
  connect,
  connectionRow,
  type FacebookTest,
  pageRows,
  start,
  startFacebookTest,
} from '../../test/facebook-kit';
import { accountIdOf } from '../../test/routing-fixtures';
import { createTestApp, expectError, PASSWORD, type SignedInUser, signUp } from '../../test/test-app';

let f: FacebookTest;
let alice: SignedInUser;
let bob: SignedInUser;

beforeAll(async () => {
  f = await startFacebookTest();
  alice = await signUp(f.t);
  bob = await signUp(f.t);
});
afterAll(() => f?.close());
beforeEach(() => f.emu.reset());

const screen = () => `${f.t.app.deps.config.publicUrl}/admin/integrations/facebook`;
/** Every token the emulator handed out for the seeded user and pages appears nowhere in our rows. */
const plainTokens = () => f.emu.pages.map((p) => f.emu.pageToken(p.id));

describe('POST /facebook/start', () => {
  it('answers the login URL with our callback, the lead scopes and a signed state', async () => {
    const { authUrl } = await start(f.t, alice);
    expect(authUrl.origin + authUrl.pathname).toBe(f.emu.dialogUrl);
    expect(authUrl.searchParams.get('client_id')).toBe(f.emu.appId);
    expect(authUrl.searchParams.get('redirect_uri')).toBe(`${f.t.app.deps.config.authHost}/facebook/callback`);
    expect(authUrl.searchParams.get('scope')?.split(',')).toEqual(
      expect.arrayContaining(['leads_retrieval', 'pages_show_list', 'pages_manage_metadata', 'pages_manage_ads']),
    );
    expect(authUrl.searchParams.get('state')?.split('.')).toHaveLength(3);
  });

  it('needs a signed-in account', async () => {
    expectError(await call(f.t, 'POST', '/facebook/start', null), 401, 'UNAUTHORIZED');
  });

  it('answers OAUTH_NOT_CONFIGURED without the app id and secret', async () => {
    const bare = await createTestApp();
    try {
      const user = await signUp(bare);
      expectError(await call(bare, 'POST', '/facebook/start', user), 400, 'OAUTH_NOT_CONFIGURED');
    } finally {
      await bare.close();
    }
  });
});

describe('GET /facebook/callback', () => {
  it('stores the profile, its pages and ad accounts with sealed tokens and goes to the screen', async () => {
    const { authUrl, cookie } = await start(f.t, alice);
    const back = await callback(f.t, authUrl, cookie);
    expect(back.origin + back.pathname).toBe(screen());
    const id = back.searchParams.get('connected')!;
    expect(back.search).not.toMatch(/EAA|code=|token/);

    const conn = (await connectionRow(f.t, id))!;
    expect(conn).toMatchObject({
      accountId: await accountIdOf(f.t.app.db, alice.login),
      fbUserId: GRAPH_SEED.user.id,
      name: GRAPH_SEED.user.name,
      email: GRAPH_SEED.user.email,
      status: 'ok',
    });
    expect(conn.tokenExpiresAt!.getTime()).toBeGreaterThan(Date.now() + 50 * 86_400_000);
    const pages = await pageRows(f.t, id);
    expect(pages.map((p) => [p.pageId, p.name, p.isSubscribed]).sort()).toEqual(
      GRAPH_SEED.pages.map((p) => [p.id, p.name, false]).sort(),
    );
    const ads = await adAccountRows(f.t, id);
    expect(ads.map((a) => a.externalId)).toEqual([GRAPH_SEED.adAccount.id]);

    // Sealed at rest: no token in clear, and each envelope opens only for its own row.
    const stored = JSON.stringify([conn, pages]);
    for (const token of plainTokens()) expect(stored).not.toContain(token);
    expect(stored).not.toContain('"accessToken"');
    expect(() => f.t.app.deps.secrets.open(pages[0]!.pageToken, pages[1]!.id)).toThrow();
    expect(f.t.app.deps.secrets.open(pages[0]!.pageToken, pages[0]!.id).accessToken).toBe(
      f.emu.pageToken(pages[0]!.pageId),
    );

    const list = await call(f.t, 'GET', '/api/facebook/connections', alice);
    expect(list.statusCode).toBe(200);
    expect(list.json()).toEqual([
      {
        _id: id,
        fbUserId: GRAPH_SEED.user.id,
        name: GRAPH_SEED.user.name,
        email: GRAPH_SEED.user.email,
        status: 'ok',
        statusReason: null,
        expiresAt: conn.tokenExpiresAt!.toISOString(),
        createdAt: conn.createdAt.toISOString(),
        pages: expect.arrayContaining([
          {
            id: GRAPH_SEED.pages[0].id,
            name: GRAPH_SEED.pages[0].name,
            category: GRAPH_SEED.pages[0].category,
            isSubscribed: false,
          },
        ]),
      },
    ]);
    expect(list.body).not.toMatch(/EAA/);
    expect((await call(f.t, 'GET', '/api/facebook/connections', bob)).json()).toEqual([]);
  });

  it('reconnecting the same Facebook user updates the one connection and sets it ok', async () => {
    const first = await connect(f.t, bob);
    await f.t.app.db
      .update(connectorConnections)
      .set({ status: 'broken', statusReason: 'expired', brokenNotifiedAt: new Date() })
      .where(eq(connectorConnections.id, first));
    const before = (await connectionRow(f.t, first))!;
    const second = await connect(f.t, bob);
    expect(second).toBe(first);
    const after = (await connectionRow(f.t, first))!;
    expect(after).toMatchObject({ status: 'ok', statusReason: null, brokenNotifiedAt: null });
    expect(after.userToken).not.toEqual(before.userToken);
    const bobs = await f.t.app.db
      .select()
      .from(connectorConnections)
      .where(eq(connectorConnections.accountId, await accountIdOf(f.t.app.db, bob.login)));
    expect(bobs).toHaveLength(1);
  });

  it('refuses a forged, tampered or missing state, and a state from another browser', async () => {
    const { authUrl, cookie } = await start(f.t, alice);
    const forged = new URL(authUrl);
    forged.searchParams.set('state', 'eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiJ4In0.c2lnbmF0dXJl');
    const tampered = new URL(authUrl);
    tampered.searchParams.set('state', `${authUrl.searchParams.get('state')}x`);
    for (const url of [forged, tampered]) {
      const back = await callback(f.t, url, cookie);
      expect(back.searchParams.get('error')).toBe('OAUTH_STATE_INVALID');
      expect(back.searchParams.get('connected')).toBeNull();
    }
    // The state link opened in a browser that did not start it (no or another nonce cookie).
    expect((await callback(f.t, authUrl, null)).searchParams.get('error')).toBe('OAUTH_STATE_INVALID');
    const other = await start(f.t, bob);
    expect((await callback(f.t, authUrl, other.cookie)).searchParams.get('error')).toBe('OAUTH_STATE_INVALID');
    const res = await f.t.app.inject({ method: 'GET', url: '/facebook/callback?code=abc' });
    expect(new URL(res.headers.location as string).searchParams.get('error')).toBe('OAUTH_STATE_INVALID');
  });

  it('returns to the screen in the language the login started in', async () => {
    const { authUrl, cookie } = await start(f.t, alice, { locale: 'en' });
    const back = await callback(f.t, authUrl, cookie);
    expect(back.origin + back.pathname).toBe(`${f.t.app.deps.config.publicUrl}/en/admin/integrations/facebook`);
    expect(back.searchParams.get('connected')).toBeTruthy();
    expectError(await call(f.t, 'POST', '/facebook/start', alice, { locale: 'de' }), 400, 'VALIDATION_ERROR');
  });

  it('refuses the state of another OAuth flow', async () => {
    const state = await signOAuthState(f.t.app.deps.config.jwtSecret, 'pipedrive', {
      accountId: await accountIdOf(f.t.app.db, alice.login),
      locale: 'uk',
    });
    const res = await f.t.app.inject({
      method: 'GET',
      url: `/facebook/callback?code=abc&state=${state}`,
      headers: { cookie: `lr_fb_oauth=${stateBinding(state)}` },
    });
    expect(new URL(res.headers.location as string).searchParams.get('error')).toBe('OAUTH_STATE_INVALID');
  });

  it('handles a login the person declined: nothing stored', async () => {
    const count = async () => (await f.t.app.db.select().from(connectorConnections)).length;
    const before = await count();
    f.emu.denyLogin(true);
    const { authUrl, cookie } = await start(f.t, alice);
    const back = await callback(f.t, authUrl, cookie);
    expect(back.origin + back.pathname).toBe(screen());
    expect(back.searchParams.get('error')).toBe('OAUTH_EXCHANGE_FAILED');
    expect(await count()).toBe(before);
  });

  it('answers OAUTH_EXCHANGE_FAILED when Facebook refuses the code (used twice)', async () => {
    const { authUrl, cookie } = await start(f.t, alice);
    const dialog = await fetch(authUrl, { redirect: 'manual' });
    const back = new URL(dialog.headers.get('location')!);
    const headers = { cookie: `lr_fb_oauth=${cookie}` };
    const once = await f.t.app.inject({ method: 'GET', url: back.pathname + back.search, headers });
    expect(new URL(once.headers.location as string).searchParams.get('connected')).toBeTruthy();
    const twice = await f.t.app.inject({ method: 'GET', url: back.pathname + back.search, headers });
    expect(new URL(twice.headers.location as string).searchParams.get('error')).toBe('OAUTH_EXCHANGE_FAILED');
  });
});

describe('legacy GET /api/legacy/api/facebook/accessToken', () => {
  it('stores a code the JS SDK got, like the callback', async () => {
    const carol = await signUp(f.t);
    const dialog = new URL(f.emu.dialogUrl);
    dialog.searchParams.set('client_id', f.emu.appId);
    dialog.searchParams.set('redirect_uri', 'https://sdk.example/');
    dialog.searchParams.set('state', 'x');
    const code = new URL((await fetch(dialog, { redirect: 'manual' })).headers.get('location')!).searchParams.get(
      'code',
    );
    const res = await call(
      f.t,
      'GET',
      `/api/legacy/api/facebook/accessToken?code=${code}&redirectUri=${encodeURIComponent('https://sdk.example/')}`,
      carol,
    );
    expect(res.statusCode).toBe(200);
    const { connectionId } = res.json();
    expect(Object.keys(res.json())).toEqual(['connectionId']);
    expect((await connectionRow(f.t, connectionId))?.accountId).toBe(await accountIdOf(f.t.app.db, carol.login));
    expect(await pageRows(f.t, connectionId)).toHaveLength(2);
    expectError(
      await call(f.t, 'GET', '/api/legacy/api/facebook/accessToken?code=bogus&redirectUri=x', carol),
      400,
      'OAUTH_EXCHANGE_FAILED',
    );
    expectError(await call(f.t, 'GET', '/api/legacy/api/facebook/accessToken', carol), 400, 'REQUIRED');
  });
});

describe('account data', () => {
  it('clear-all-data and account removal delete the connections, pages and ad accounts', async () => {
    for (const action of ['clear-all-data', 'remove-account'] as const) {
      const dave = await signUp(f.t);
      const id = await connect(f.t, dave);
      const res = await call(f.t, 'POST', `/api/account/${action}`, dave, { password: PASSWORD });
      expect(res.statusCode, action).toBe(200);
      expect(await connectionRow(f.t, id), action).toBeUndefined();
      expect(await pageRows(f.t, id)).toEqual([]);
      expect(await adAccountRows(f.t, id)).toEqual([]);
      expect(await f.t.app.db.select().from(connectorAssets).where(eq(connectorAssets.connectionId, id))).toEqual([]);
    }
  });
});
