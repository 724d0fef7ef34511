import { randomUUID } from 'node:crypto';
import { GRAPH_SEED } from '@leadrelay/connectors/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { connectorAssets, connectorConnections } from '../../db/schema';
import { call, connect, type FacebookTest, startFacebookTest } from '../../test/facebook-kit';
import { accountIdOf } from '../../test/routing-fixtures';
import { errorOf, expectError, type SignedInUser, signUp } from '../../test/test-app';

let f: FacebookTest;
let alice: SignedInUser;
let bob: SignedInUser;
let aliceConn: string;
let bobConn: string;
const [dental, coffee] = GRAPH_SEED.pages;
const form = GRAPH_SEED.forms.consultation;

beforeAll(async () => {
  f = await startFacebookTest();
  alice = await signUp(f.t);
  bob = await signUp(f.t);
  aliceConn = await connect(f.t, alice);
  bobConn = await connect(f.t, bob);
});
afterAll(() => f?.close());

/** Another connection of the account (a second Facebook profile) managing the given pages. */
async function extraConnection(user: SignedInUser, pageIds: string[], status: 'ok' | 'broken' = 'ok') {
  const accountId = await accountIdOf(f.t.app.db, user.login);
  const id = randomUUID();
  const { secrets } = f.t.app.deps;
  await f.t.app.db.insert(connectorConnections).values({
    id,
    accountId,
    type: 'facebook',
    externalId: `1${Date.now()}${Math.floor(Math.random() * 1000)}`,
    name: 'Second admin',
    secret: secrets.seal({ accessToken: 'user-token-2' }, id),
    status,
    statusReason: status === 'broken' ? 'Session has expired (code 190/463)' : null,
  });
  for (const pageId of pageIds) {
    const rowId = randomUUID();
    await f.t.app.db.insert(connectorAssets).values({
      id: rowId,
      accountId,
      connectionId: id,
      kind: 'page',
      externalId: pageId,
      name: `Page ${pageId}`,
      secret: secrets.seal({ accessToken: `page-token-${pageId}` }, rowId),
    });
  }
  return id;
}

const create = (user: SignedInUser, settings: unknown, extra: Record<string, unknown> = {}) =>
  call(f.t, 'POST', '/api/integrations', user, { type: 'facebook', name: 'Meta leads', settings, ...extra });

const fieldsOf = (res: Awaited<ReturnType<typeof create>>) => errorOf(res).errors?.map((e) => [e.field, e.code]);

describe('facebook integrations', () => {
  it('are created with a connection, page and form of the account, as sources', async () => {
    const dest = await call(f.t, 'POST', '/api/integrations', alice, {
      type: 'http',
      name: 'Endpoint',
      settings: { url: 'https://example.com/leads' },
    });
    const res = await create(
      alice,
      { fbConnectionId: aliceConn, fbPageId: dental.id, fbFormId: form },
      { destination: [dest.json()._id], options: { dedupe: { by: ['phone'], windowDays: 7 } } },
    );
    expect(res.statusCode, res.body).toBe(201);
    expect(res.json()).toMatchObject({
      type: 'facebook',
      kind: 'source',
      settings: { fbConnectionId: aliceConn, fbPageId: dental.id, fbFormId: form },
      destination: [{ _id: dest.json()._id, type: 'http' }],
      isConnected: true,
      status: 'ok',
    });
  });

  it('refuse settings that are missing, malformed or name what is not the account’s', async () => {
    expect(fieldsOf(await create(alice, undefined))).toEqual(
      expect.arrayContaining([['settings.fbConnectionId', 'REQUIRED']]),
    );
    expect(fieldsOf(await create(alice, { fbConnectionId: aliceConn, fbPageId: dental.id }))).toEqual([
      ['settings.fbFormId', 'REQUIRED'],
    ]);
    expect(fieldsOf(await create(alice, { fbConnectionId: 'x', fbPageId: dental.id, fbFormId: form }))).toEqual([
      ['settings.fbConnectionId', 'VALIDATION_ERROR'],
    ]);
    expect(fieldsOf(await create(alice, { fbConnectionId: bobConn, fbPageId: dental.id, fbFormId: form }))).toEqual([
      ['settings.fbConnectionId', 'FB_CONNECTION_NOT_FOUND'],
    ]);
    expect(fieldsOf(await create(alice, { fbConnectionId: aliceConn, fbPageId: '999', fbFormId: form }))).toEqual([
      ['settings.fbPageId', 'FB_PAGE_NOT_FOUND'],
    ]);
    const extra = await create(alice, { fbConnectionId: aliceConn, fbPageId: dental.id, fbFormId: form, x: 1 });
    expectError(extra, 400, 'VALIDATION_ERROR');
    const list = (await call(f.t, 'GET', '/api/integrations?type=facebook', bob)).json();
    expect(list.total).toBe(0);
  });

  it('take new settings on update, checked the same way', async () => {
    const id = (await create(alice, { fbConnectionId: aliceConn, fbPageId: dental.id, fbFormId: form })).json()._id;
    const url = `/api/integrations/${id}/update`;
    const moved = await call(f.t, 'PUT', url, alice, {
      settings: { fbConnectionId: aliceConn, fbPageId: coffee.id, fbFormId: GRAPH_SEED.forms.course },
    });
    expect(moved.statusCode).toBe(200);
    expect(moved.json().settings).toEqual({
      fbConnectionId: aliceConn,
      fbPageId: coffee.id,
      fbFormId: GRAPH_SEED.forms.course,
    });
    const bad = await call(f.t, 'PUT', url, alice, {
      settings: { fbConnectionId: bobConn, fbPageId: dental.id, fbFormId: form },
    });
    expect(fieldsOf(bad)).toEqual([['settings.fbConnectionId', 'FB_CONNECTION_NOT_FOUND']]);
    expect((await call(f.t, 'GET', `/api/integrations/${id}`, alice)).json().settings.fbPageId).toBe(coffee.id);
  });

  it('move to another connection of the account that manages the same page', async () => {
    const id = (await create(alice, { fbConnectionId: aliceConn, fbPageId: dental.id, fbFormId: form })).json()._id;
    const second = await extraConnection(alice, [dental.id], 'broken');
    const coffeeOnly = await extraConnection(alice, [coffee.id]);
    const url = `/api/integrations/migrate/fb/${id}`;

    const res = await call(f.t, 'POST', url, alice, { fbConnectionId: second });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json()).toMatchObject({
      _id: id,
      settings: { fbConnectionId: second, fbPageId: dental.id, fbFormId: form },
      status: 'broken',
      isConnected: true,
    });

    expect(fieldsOf(await call(f.t, 'POST', url, alice, { fbConnectionId: coffeeOnly }))).toEqual([
      ['fbConnectionId', 'FB_PAGE_NOT_FOUND'],
    ]);
    expect(fieldsOf(await call(f.t, 'POST', url, alice, { fbConnectionId: bobConn }))).toEqual([
      ['fbConnectionId', 'FB_CONNECTION_NOT_FOUND'],
    ]);
    expectError(await call(f.t, 'POST', url, bob, { fbConnectionId: bobConn }), 404, 'INTEGRATION_NOT_FOUND');
    expectError(await call(f.t, 'POST', url, alice, {}), 400, 'REQUIRED');
    const http = await call(f.t, 'POST', '/api/integrations', alice, {
      type: 'http',
      name: 'x',
      settings: { url: 'https://example.com/' },
    });
    expectError(
      await call(f.t, 'POST', `/api/integrations/migrate/fb/${http.json()._id}`, alice, { fbConnectionId: aliceConn }),
      404,
      'INTEGRATION_NOT_FOUND',
    );
    expect((await call(f.t, 'GET', `/api/integrations/${id}`, alice)).json().settings.fbConnectionId).toBe(second);

    const back = await call(f.t, 'POST', url, alice, { fbConnectionId: aliceConn });
    expect(back.json()).toMatchObject({ settings: { fbConnectionId: aliceConn }, status: 'ok' });
  });

  it('stay, not connected, when their connection is removed', async () => {
    const other = await extraConnection(alice, [dental.id]);
    const id = (await create(alice, { fbConnectionId: other, fbPageId: dental.id, fbFormId: form })).json()._id;
    const removed = await call(f.t, 'DELETE', `/api/legacy/api/facebook/accounts/${other}`, alice);
    expect(removed.statusCode).toBe(200);
    const after = (await call(f.t, 'GET', `/api/integrations/${id}`, alice)).json();
    expect(after).toMatchObject({ _id: id, isConnected: false, settings: { fbConnectionId: other } });
    // …and are connected again once moved to a connection that manages the page.
    const moved = await call(f.t, 'POST', `/api/integrations/migrate/fb/${id}`, alice, { fbConnectionId: aliceConn });
    expect(moved.json().isConnected).toBe(true);
  });
});
