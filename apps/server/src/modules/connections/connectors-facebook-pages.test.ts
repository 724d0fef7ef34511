import { GRAPH_SEED, GRAPH_VERSION } from '@leadrelay/connectors/testing';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { connectorAssets } from '../../db/schema';
import { call, connect, type FacebookTest, pageRows, startFacebookTest } from '../../test/facebook-kit';
import { expectError, type SignedInUser, signUp } from '../../test/test-app';

let f: FacebookTest;
let alice: SignedInUser;
let bob: SignedInUser;
let cid: string;
const [dental, coffee] = GRAPH_SEED.pages;
const base = (id = cid) => `/api/facebook/connection/${id}`;
const legacy = '/api/legacy/api/facebook';

beforeAll(async () => {
  f = await startFacebookTest();
  alice = await signUp(f.t);
  bob = await signUp(f.t);
});
afterAll(() => f?.close());
beforeEach(async () => {
  // A fresh Facebook (new page tokens, nothing subscribed) and alice connected to it again.
  f.emu.reset();
  cid = await connect(f.t, alice);
  await f.t.app.db
    .update(connectorAssets)
    .set({ subscribed: false, subscribedAt: null })
    .where(eq(connectorAssets.connectionId, cid));
});

const graphCalls = (pattern: RegExp) => f.emu.requests.filter((r) => pattern.test(`${r.method} ${r.path}`)).length;

describe('accounts and pages', () => {
  it("lists the connection's Facebook profile with the pages it manages", async () => {
    const res = await call(f.t, 'GET', `${base()}/accounts`, alice);
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual([
      {
        id: GRAPH_SEED.user.id,
        name: GRAPH_SEED.user.name,
        pages: [
          { id: dental.id, name: dental.name, category: dental.category, isSubscribed: false },
          { id: coffee.id, name: coffee.name, category: coffee.category, isSubscribed: false },
        ].sort((a, b) => a.name.localeCompare(b.name)),
      },
    ]);
  });

  it('reads the pages from Facebook again when asked to refresh', async () => {
    f.emu.pages.splice(1, 1); // the profile no longer manages the coffee school
    f.emu.pages[0]!.name = 'Kyiv Dental Studio (new)';
    const stale = (await call(f.t, 'GET', `${base()}/accounts`, alice)).json();
    expect(stale[0].pages).toHaveLength(2);
    const fresh = await call(f.t, 'GET', `${base()}/accounts?refresh=1`, alice);
    expect(fresh.json()[0].pages).toEqual([
      { id: dental.id, name: 'Kyiv Dental Studio (new)', category: dental.category, isSubscribed: false },
    ]);
    expect((await pageRows(f.t, cid)).map((p) => p.pageId)).toEqual([dental.id]);
    // The legacy call always refreshes.
    f.emu.reset();
    await connect(f.t, alice);
    const legacyAnswer = await call(f.t, 'POST', `${legacy}/accounts`, alice, { connectionId: cid });
    expect(
      legacyAnswer
        .json()[0]
        .pages.map((p: { id: string }) => p.id)
        .sort(),
    ).toEqual([dental.id, coffee.id].sort());
  });

  it("shows a page's lead forms live from Facebook, with their questions", async () => {
    const res = await call(f.t, 'GET', `${base()}/account/${dental.id}`, alice);
    expect(res.statusCode).toBe(200);
    const state = res.json();
    expect(state).toMatchObject({ id: dental.id, name: dental.name, isSubscribed: false });
    expect(state.leadForms.map((form: { id: string }) => form.id)).toEqual([
      GRAPH_SEED.forms.consultation,
      GRAPH_SEED.forms.implants,
    ]);
    expect(state.leadForms[0]).toMatchObject({
      name: 'Free consultation',
      status: 'ACTIVE',
      locale: 'uk_UA',
      questions: expect.arrayContaining([
        { key: 'phone_number', label: 'Phone number', type: 'PHONE' },
        { key: 'preferred_time', label: 'Коли вам зручно?', type: 'CUSTOM' },
      ]),
    });
    // The page token was used, and nothing secret reached the answer.
    expect(f.emu.requests.some((r) => r.path.includes('/leadgen_forms') && r.tokenKind === 'page')).toBe(true);
    expect(res.body).not.toContain(f.emu.pageToken(dental.id));

    const forms = await call(f.t, 'POST', `${legacy}/leadform`, alice, { connectionId: cid, pageId: coffee.id });
    expect(forms.json().map((form: { name: string }) => form.name)).toEqual(['Barista course']);
    const pages = await call(f.t, 'POST', `${legacy}/pages`, alice, { connectionId: cid });
    expect(
      pages
        .json()
        .map((p: { id: string }) => p.id)
        .sort(),
    ).toEqual([dental.id, coffee.id].sort());
  });
});

describe('subscribe and unsubscribe', () => {
  it('installs our app on the page for leadgen and registers the app webhook once', async () => {
    const res = await call(f.t, 'POST', `${base()}/account/${dental.id}/subscribe`, alice);
    expect([res.statusCode, res.json()]).toEqual([200, { success: true }]);
    expect(f.emu.isPageSubscribed(dental.id)).toBe(true);
    expect(f.emu.appSubscription()).toMatchObject({
      object: 'page',
      callbackUrl: `${f.t.app.deps.config.publicUrl}/api/facebook/webhook`,
    });
    expect((await call(f.t, 'GET', `${base()}/account/${dental.id}`, alice)).json().isSubscribed).toBe(true);

    await call(f.t, 'POST', `${base()}/account/${coffee.id}/subscribe`, alice);
    expect(f.emu.isPageSubscribed(coffee.id)).toBe(true);
    expect(graphCalls(new RegExp(`^POST /${GRAPH_VERSION.replace('.', '\\.')}/\\d+/subscriptions`))).toBe(1);
    const listed = (await call(f.t, 'GET', '/api/facebook/connections', alice)).json()[0].pages;
    expect(listed.every((p: { isSubscribed: boolean }) => p.isSubscribed)).toBe(true);

    const off = await call(f.t, 'DELETE', `${base()}/account/${dental.id}/unsubscribe`, alice);
    expect([off.statusCode, off.json()]).toEqual([200, { success: true }]);
    expect(f.emu.isPageSubscribed(dental.id)).toBe(false);
    expect(f.emu.isPageSubscribed(coffee.id)).toBe(true);
    expect((await call(f.t, 'GET', `${base()}/account/${dental.id}`, alice)).json().isSubscribed).toBe(false);
  });

  it('shows a page unsubscribed when our app was removed from it at Facebook', async () => {
    await call(f.t, 'POST', `${base()}/account/${dental.id}/subscribe`, alice);
    const token = f.emu.pageToken(dental.id);
    await fetch(`${f.emu.graphUrl}/${dental.id}/subscribed_apps`, {
      method: 'DELETE',
      headers: { authorization: `Bearer ${token}` },
    });
    expect((await call(f.t, 'GET', `${base()}/account/${dental.id}`, alice)).json().isSubscribed).toBe(false);
    const [row] = (await pageRows(f.t, cid)).filter((p) => p.pageId === dental.id);
    expect(row?.isSubscribed).toBe(false);
  });

  it('answers CONNECTION_FAILED and marks nothing when Facebook fails', async () => {
    f.emu.setFault({ status: 500, times: 10 });
    expectError(await call(f.t, 'POST', `${base()}/account/${dental.id}/subscribe`, alice), 400, 'CONNECTION_FAILED');
    f.emu.setFault(null);
    const [row] = (await pageRows(f.t, cid)).filter((p) => p.pageId === dental.id);
    expect(row?.isSubscribed).toBe(false);
  });
});

describe('pictures', () => {
  it('answers the picture of the profile or a page and asks Facebook once per id', async () => {
    const url = `/api/facebook/accountPicture?accountId=${GRAPH_SEED.user.id}`;
    const first = await call(f.t, 'GET', url, alice);
    expect(first.statusCode).toBe(200);
    expect(first.json().url).toMatch(/^http/);
    const before = graphCalls(/\/picture/);
    expect(before).toBe(1);
    expect((await call(f.t, 'GET', url, alice)).json()).toEqual(first.json());
    expect(graphCalls(/\/picture/)).toBe(1);

    const page = await call(f.t, 'GET', `/api/facebook/accountPicture?accountId=${coffee.id}`, alice);
    expect(page.json().url).toContain(coffee.id);
    expect(graphCalls(/\/picture/)).toBe(2);
  });

  it("refuses ids that are not the caller's profile or pages", async () => {
    expectError(
      await call(f.t, 'GET', `/api/facebook/accountPicture?accountId=${GRAPH_SEED.user.id}`, bob),
      404,
      'FB_PAGE_NOT_FOUND',
    );
    expectError(await call(f.t, 'GET', '/api/facebook/accountPicture?accountId=123', alice), 404, 'FB_PAGE_NOT_FOUND');
    expect((await call(f.t, 'GET', '/api/facebook/accountPicture', alice)).statusCode).toBe(400);
  });
});

describe("another account's connection", () => {
  it('answers 404 for every call and changes nothing', async () => {
    for (const [method, url, body] of [
      ['GET', `${base()}/accounts`],
      ['GET', `${base()}/account/${dental.id}`],
      ['POST', `${base()}/account/${dental.id}/subscribe`],
      ['DELETE', `${base()}/account/${dental.id}/unsubscribe`],
      ['POST', `${legacy}/accounts`, { connectionId: cid }],
      ['POST', `${legacy}/pages`, { connectionId: cid }],
      ['POST', `${legacy}/leadform`, { connectionId: cid, pageId: dental.id }],
      ['DELETE', `${legacy}/accounts/${cid}`],
      ['GET', `${base('not-a-uuid')}/accounts`],
    ] as const) {
      expectError(await call(f.t, method, url, bob, body), 404, 'FB_CONNECTION_NOT_FOUND');
    }
    expect(f.emu.isPageSubscribed(dental.id)).toBe(false);
    expect(await pageRows(f.t, cid)).toHaveLength(2);
    expectError(await call(f.t, 'GET', `${base()}/account/999`, alice), 404, 'FB_PAGE_NOT_FOUND');
    expectError(await call(f.t, 'POST', `${base()}/account/999/subscribe`, alice), 404, 'FB_PAGE_NOT_FOUND');
    expect((await call(f.t, 'GET', '/api/facebook/connections', null)).statusCode).toBe(401);
  });
});

describe('names from the URL', () => {
  it('are data: __proto__ or constructor as a connection or page id answer 404, never a 500', async () => {
    for (const name of ['__proto__', 'constructor', 'toString']) {
      for (const [method, url] of [
        ['GET', `${base(name)}/accounts`],
        ['GET', `${base(name)}/account/${dental.id}`],
        ['POST', `${base(name)}/account/${dental.id}/subscribe`],
        ['DELETE', `${base(name)}/account/${dental.id}/unsubscribe`],
        ['DELETE', `${legacy}/accounts/${name}`],
      ] as const) {
        expectError(await call(f.t, method, url, alice), 404, 'FB_CONNECTION_NOT_FOUND');
      }
      for (const [method, url] of [
        ['GET', `${base()}/account/${name}`],
        ['POST', `${base()}/account/${name}/subscribe`],
        ['DELETE', `${base()}/account/${name}/unsubscribe`],
      ] as const) {
        expectError(await call(f.t, method, url, alice), 404, 'FB_PAGE_NOT_FOUND');
      }
      expectError(
        await call(f.t, 'POST', `/api/facebook/integration/${name}/test-lead`, alice),
        404,
        'INTEGRATION_NOT_FOUND',
      );
      expectError(
        await call(f.t, 'POST', `/api/integrations/migrate/fb/${name}`, alice, { fbConnectionId: cid }),
        404,
        'INTEGRATION_NOT_FOUND',
      );
    }
    expect(await pageRows(f.t, cid)).toHaveLength(2);
  });
});

describe('fbPageItems and removing a connection', () => {
  it("lists the account's pages for the integration form, and none after the connection is removed", async () => {
    await call(f.t, 'POST', `${base()}/account/${dental.id}/subscribe`, alice);
    const items = await call(f.t, 'GET', '/api/legacy/api/admin/integration/fbPageItems', alice);
    expect(items.statusCode).toBe(200);
    expect(items.json()).toEqual(
      expect.arrayContaining([
        {
          connectionId: cid,
          connectionName: GRAPH_SEED.user.name,
          pageId: dental.id,
          pageName: dental.name,
          isSubscribed: true,
        },
        {
          connectionId: cid,
          connectionName: GRAPH_SEED.user.name,
          pageId: coffee.id,
          pageName: coffee.name,
          isSubscribed: false,
        },
      ]),
    );
    expect((await call(f.t, 'GET', '/api/legacy/api/admin/integration/fbPageItems', bob)).json()).toEqual([]);

    const removed = await call(f.t, 'DELETE', `${legacy}/accounts/${cid}`, alice);
    expect([removed.statusCode, removed.json()]).toEqual([200, { success: true }]);
    // Our app leaves the pages it was subscribed to.
    expect(f.emu.isPageSubscribed(dental.id)).toBe(false);
    expect((await call(f.t, 'GET', '/api/legacy/api/admin/integration/fbPageItems', alice)).json()).toEqual([]);
    expect((await call(f.t, 'GET', '/api/facebook/connections', alice)).json()).toEqual([]);
    expectError(await call(f.t, 'GET', `${base()}/accounts`, alice), 404, 'FB_CONNECTION_NOT_FOUND');
  });
});
