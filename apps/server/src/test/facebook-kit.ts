// What the Facebook tests share: an app that listens (the Graph emulator verifies our webhook URL
// with a GET during the app subscription) and the connect flow through the emulator's dialog.

import { facebook, facebookVerifyToken } from '@leadrelay/connectors';
import { type GraphEmulator, startGraphEmulator } from '@leadrelay/connectors/testing';
import { and, eq } from 'drizzle-orm';
import { expect } from 'vitest';
import {
  type ConnectorAssetRow,
  type ConnectorConnectionRow,
  connectorAssets,
  connectorConnections,
} from '../db/schema';
import { connectorConfig } from '../lib/connector-config';
import { freePort } from './server-process';
import { callAs, createTestApp, type Method, type SignedInUser, type TestApp } from './test-app';

/** The cookie binding the login's state to the browser (the connector's declaration). */
export const FB_OAUTH_COOKIE = facebook.connections!.login.callback.cookie;

export interface FacebookTest {
  t: TestApp;
  emu: GraphEmulator;
  close(): Promise<void>;
}

/** The app on a real port (publicUrl = it) with Facebook pointed at a fresh Graph emulator. */
export async function startFacebookTest(): Promise<FacebookTest> {
  const emu = await startGraphEmulator();
  const port = await freePort();
  const t = await createTestApp({
    publicUrl: `http://127.0.0.1:${port}`,
    allowPrivateDestinations: true,
    crm: { facebook: { appId: emu.appId, appSecret: emu.appSecret, graphUrl: emu.graphUrl, dialogUrl: emu.dialogUrl } },
    // The webhook receiver's GET verification, until the receiver module answers it itself.
    register: (app) => {
      if (app.hasRoute({ method: 'GET', url: '/api/facebook/webhook' })) return;
      app.get('/api/facebook/webhook', { config: { access: 'public' } }, async (req, reply) => {
        const q = req.query as Record<string, string>;
        const ok =
          q['hub.mode'] === 'subscribe' &&
          q['hub.verify_token'] === facebookVerifyToken(connectorConfig(app.deps.config.crm, facebook));
        return ok ? reply.type('text/plain').send(q['hub.challenge']) : reply.code(403).send();
      });
    },
  });
  await t.app.listen({ port, host: '127.0.0.1' });
  return {
    t,
    emu,
    async close() {
      await t.close();
      await emu.close();
    },
  };
}

export const call = (t: TestApp, method: Method, url: string, user: SignedInUser | null, payload?: unknown) =>
  callAs(t, method, url, user, payload);

/** POST /facebook/start: the login URL and the nonce cookie the browser keeps for the callback. */
export async function start(
  t: TestApp,
  user: SignedInUser,
  body?: { locale: 'uk' | 'en' },
): Promise<{ authUrl: URL; cookie: string }> {
  const res = await call(t, 'POST', '/facebook/start', user, body);
  expect(res.statusCode).toBe(200);
  const cookie = res.cookies.find((c) => c.name === FB_OAUTH_COOKIE);
  expect(cookie).toMatchObject({ httpOnly: true, path: '/facebook/callback' });
  return { authUrl: new URL(res.json().authUrl), cookie: cookie!.value };
}

/** The emulator's dialog answers with a redirect to our callback; this follows it like a browser. */
export async function callback(t: TestApp, authUrl: URL, cookie: string | null): Promise<URL> {
  const dialog = await fetch(authUrl, { redirect: 'manual' });
  expect(dialog.status).toBe(302);
  const back = new URL(dialog.headers.get('location')!);
  const res = await t.app.inject({
    method: 'GET',
    url: back.pathname + back.search,
    headers: cookie ? { cookie: `${FB_OAUTH_COOKIE}=${cookie}` } : {},
  });
  expect(res.statusCode).toBe(302);
  return new URL(res.headers.location as string);
}

/** start → Facebook Login (emulator) → callback; the new connection's id. */
export async function connect(t: TestApp, user: SignedInUser): Promise<string> {
  const { authUrl, cookie } = await start(t, user);
  const screen = await callback(t, authUrl, cookie);
  const id = screen.searchParams.get('connected');
  expect(id, screen.toString()).toBeTruthy();
  return id!;
}

/** A Facebook connection's generic row, with the names the Facebook tests were written with. */
export const fbConnectionOf = (row: ConnectorConnectionRow) => ({
  ...row,
  fbUserId: row.externalId,
  userToken: row.secret,
  tokenExpiresAt: row.expiresAt,
});

/** A page's generic asset row, with the names the Facebook tests were written with. */
export const fbPageOf = (row: ConnectorAssetRow) => ({
  ...row,
  pageId: row.externalId,
  pageToken: row.secret,
  isSubscribed: row.subscribed,
  category: row.details.category ?? null,
});

export async function connectionRow(t: TestApp, id: string) {
  const [row] = await t.app.db.select().from(connectorConnections).where(eq(connectorConnections.id, id));
  return row && fbConnectionOf(row);
}

export const pageRows = async (t: TestApp, connectionId: string) =>
  (
    await t.app.db
      .select()
      .from(connectorAssets)
      .where(and(eq(connectorAssets.connectionId, connectionId), eq(connectorAssets.kind, 'page')))
  ).map(fbPageOf);

export const adAccountRows = (t: TestApp, connectionId: string) =>
  t.app.db
    .select()
    .from(connectorAssets)
    .where(and(eq(connectorAssets.connectionId, connectionId), eq(connectorAssets.kind, 'adAccount')));
