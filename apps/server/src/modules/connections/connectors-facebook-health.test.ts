import { GraphError } from '@leadrelay/connectors';
import { GRAPH_SEED } from '@leadrelay/connectors/testing';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { call, connect, connectionRow, type FacebookTest, startFacebookTest } from '../../test/facebook-kit';
import { expectError, type SignedInUser, signUp } from '../../test/test-app';
import { connectionConnector } from './connection-deps';
import { reasonOf } from './connection-health';

const graphReason = (error: unknown) => reasonOf(connectionConnector('facebook'), error);

let f: FacebookTest;
let alice: SignedInUser;
let cid: string;
let integrationId: string;
const [dental] = GRAPH_SEED.pages;
const pageUrl = () => `/api/facebook/connection/${cid}/account/${dental.id}`;

beforeAll(async () => {
  f = await startFacebookTest();
  alice = await signUp(f.t);
});
afterAll(() => f?.close());
beforeEach(async () => {
  f.emu.reset();
  cid = await connect(f.t, alice);
  const created = await call(f.t, 'POST', '/api/integrations', alice, {
    type: 'facebook',
    name: `Dental leads ${Date.now()}`,
    settings: { fbConnectionId: cid, fbPageId: dental.id, fbFormId: GRAPH_SEED.forms.consultation },
  });
  expect(created.statusCode).toBe(201);
  integrationId = created.json()._id;
});
afterEach(() => vi.restoreAllMocks());

const alertsTo = (login: string) => f.t.outbox.filter((m) => m.to === login && /Facebook/.test(m.subject));

describe('connection health', () => {
  it('an expired page token marks the connection and its integrations broken, tells the browser and mails once', async () => {
    const emit = vi.spyOn(f.t.app.realtime, 'emitToAccount');
    const mailsBefore = alertsTo(alice.login).length;
    f.emu.expirePageTokens();

    const first = await call(f.t, 'GET', pageUrl(), alice);
    expectError(first, 400, 'CONNECTION_FAILED');
    expect(first.body).not.toContain(f.emu.appSecret);
    expect(first.body).not.toMatch(/EAA/);
    const conn = (await connectionRow(f.t, cid))!;
    expect(conn.status).toBe('broken');
    expect(conn.statusReason).toMatch(/190/);

    const integration = (await call(f.t, 'GET', `/api/integrations/${integrationId}`, alice)).json();
    expect(integration).toMatchObject({ status: 'broken', statusReason: conn.statusReason, isConnected: true });
    // The live event carries the same computed state as the API: reconnect Facebook.
    expect(integration.state).toMatchObject({ code: 'broken_auth', reason: { code: 'FACEBOOK_TOKEN' } });
    await vi.waitFor(() =>
      expect(emit).toHaveBeenCalledWith(expect.any(String), 'UPDATE_INTEGRATION', {
        integrationId,
        status: 'broken',
        statusReason: conn.statusReason,
        state: integration.state,
      }),
    );
    const listed = (await call(f.t, 'GET', '/api/facebook/connections', alice)).json();
    expect(listed[0]).toMatchObject({ status: 'broken', statusReason: conn.statusReason });

    // A second failure in the same outage: still broken, no second mail.
    expectError(await call(f.t, 'POST', `${pageUrl()}/subscribe`, alice), 400, 'CONNECTION_FAILED');
    const mails = alertsTo(alice.login).slice(mailsBefore);
    expect(mails).toHaveLength(1);
    expect(mails[0]!.link).toBe(`${f.t.app.deps.config.publicUrl}/admin/integrations/facebook`);
    expect(mails[0]!.subject).toContain(GRAPH_SEED.user.name);
    expect(`${mails[0]!.text}${mails[0]!.html}`).not.toMatch(/EAA/);

    // Reading the pages again with the user token brings new page tokens: a success marks it ok.
    emit.mockClear();
    const refreshed = await call(f.t, 'GET', `/api/facebook/connection/${cid}/accounts?refresh=1`, alice);
    expect(refreshed.statusCode).toBe(200);
    expect(await connectionRow(f.t, cid)).toMatchObject({ status: 'ok', statusReason: null, brokenNotifiedAt: null });
    await vi.waitFor(() =>
      expect(emit).toHaveBeenCalledWith(
        expect.any(String),
        'UPDATE_INTEGRATION',
        expect.objectContaining({ integrationId, status: 'ok', statusReason: null }),
      ),
    );
    expect((await call(f.t, 'GET', pageUrl(), alice)).statusCode).toBe(200);
    expect((await call(f.t, 'GET', `/api/integrations/${integrationId}`, alice)).json().status).toBe('ok');

    // The next outage is a new one: one more mail.
    f.emu.expirePageTokens();
    expectError(await call(f.t, 'GET', pageUrl(), alice), 400, 'CONNECTION_FAILED');
    expect(alertsTo(alice.login).slice(mailsBefore)).toHaveLength(2);
  });

  it('a revoked permission breaks the connection; reconnecting mends it', async () => {
    f.emu.revokePermission();
    expectError(await call(f.t, 'GET', pageUrl(), alice), 400, 'CONNECTION_FAILED');
    expect((await connectionRow(f.t, cid))?.status).toBe('broken');
    f.emu.reset();
    expect(await connect(f.t, alice)).toBe(cid);
    expect(await connectionRow(f.t, cid)).toMatchObject({ status: 'ok', brokenNotifiedAt: null });
    expect((await call(f.t, 'GET', `/api/integrations/${integrationId}`, alice)).json().status).toBe('ok');
  });

  it('throttling and server errors answer CONNECTION_FAILED but do not break the connection', async () => {
    const mailsBefore = alertsTo(alice.login).length;
    f.emu.setThrottle(32);
    expectError(await call(f.t, 'GET', pageUrl(), alice), 400, 'CONNECTION_FAILED');
    f.emu.setThrottle(null);
    f.emu.setFault({ status: 503, times: 5 });
    expectError(await call(f.t, 'GET', pageUrl(), alice), 400, 'CONNECTION_FAILED');
    expect((await connectionRow(f.t, cid))?.status).toBe('ok');
    expect(alertsTo(alice.login)).toHaveLength(mailsBefore);
  });

  it('writes the alert in the account language', async () => {
    await call(f.t, 'PATCH', '/api/account', alice, { lang: 'en' });
    const mailsBefore = alertsTo(alice.login).length;
    f.emu.expirePageTokens();
    await call(f.t, 'GET', pageUrl(), alice);
    const [mail] = alertsTo(alice.login).slice(mailsBefore);
    expect(mail?.subject).toMatch(/^LeadRelay: reconnect Facebook/);
    expect(mail?.link).toBe(`${f.t.app.deps.config.publicUrl}/en/admin/integrations/facebook`);
    await call(f.t, 'PATCH', '/api/account', alice, { lang: 'uk' });
  });
});

describe('the reason kept for a refused Graph call', () => {
  it('is text PostgreSQL can store, whatever Meta wrote: no NUL, no half of a UTF-16 pair', () => {
    const refused = new GraphError('Session\u0000 expired \ud800', { code: 190, subcode: 463, httpStatus: 400 });
    expect(graphReason(refused)).toBe('Session expired \ufffd (code 190/463)');
    expect(graphReason(new Error('socket\u0000 hang up'))).toBe('socket hang up');
  });
});
