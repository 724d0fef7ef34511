// What the Horoshop tests share: the app on a real port (the emulated shop PUTs its webhooks to our
// receiver there), the shop emulator, and a source connected to it that sends to an http destination.

import { type HoroshopEmulator, startHoroshopEmulator } from '@leadrelay/connectors/horoshop/emulator';
import { type HttpEmulator, startHttpEmulator } from '@leadrelay/connectors/http/emulator';
import { eq } from 'drizzle-orm';
import { expect } from 'vitest';
import { connectorSeen, connectorState, hooks, integrations, leads } from '../db/schema';
import { freePort } from './server-process';
import { callAs, createTestApp, onUnlimitedPlan, type SignedInUser, signUp, type TestApp } from './test-app';

export interface HoroshopTest {
  t: TestApp;
  shop: HoroshopEmulator;
  crm: HttpEmulator;
  close(): Promise<void>;
}

export async function startHoroshopTest(): Promise<HoroshopTest> {
  const shop = await startHoroshopEmulator();
  const crm = await startHttpEmulator();
  const port = await freePort();
  const t = await createTestApp({ publicUrl: `http://127.0.0.1:${port}`, allowPrivateDestinations: true });
  await t.app.listen({ port, host: '127.0.0.1' });
  return {
    t,
    shop,
    crm,
    async close() {
      await t.close();
      await shop.close();
      await crm.close();
    },
  };
}

export interface ShopSetup {
  user: SignedInUser;
  integrationId: string;
  destinationId: string;
}

/** A user with a Horoshop source (not connected yet) sending to an http destination. */
export async function shopSource(h: HoroshopTest, user?: SignedInUser): Promise<ShopSetup> {
  const owner = user ?? (await onUnlimitedPlan(h.t, await signUp(h.t)));
  const destination = await callAs(h.t, 'POST', '/api/integrations', owner, {
    type: 'http',
    name: 'CRM endpoint',
    settings: { url: h.crm.hookUrl },
  });
  expect(destination.statusCode, destination.body).toBe(201);
  const created = await callAs(h.t, 'POST', '/api/integrations', owner, {
    type: 'horoshop',
    name: 'My shop',
    destination: [destination.json()._id],
  });
  expect(created.statusCode, created.body).toBe(201);
  return { user: owner, integrationId: created.json()._id, destinationId: destination.json()._id };
}

/** POST .../horoshop/auth with the emulator's address and API admin (or the body given). */
export function connectShop(h: HoroshopTest, s: ShopSetup, body?: Record<string, unknown>) {
  return callAs(h.t, 'POST', `/api/integrations/${s.integrationId}/horoshop/auth`, s.user, {
    domain: h.shop.url,
    login: h.shop.login,
    password: h.shop.password,
    ...body,
  });
}

/** A source connected to the emulated shop, its webhook registered. */
export async function connectedShop(h: HoroshopTest, withWebhook = true): Promise<ShopSetup> {
  const s = await shopSource(h);
  const res = await connectShop(h, s);
  expect(res.statusCode, res.body).toBe(200);
  if (withWebhook) {
    const hook = await callAs(h.t, 'POST', `/api/integrations/${s.integrationId}/horoshop/webhooks`, s.user);
    expect(hook.statusCode, hook.body).toBe(200);
  }
  return s;
}

export const leadsOf = (t: TestApp, integrationId: string) =>
  t.app.db.select().from(leads).where(eq(leads.integrationId, integrationId));
export const hooksOf = (t: TestApp, integrationId: string) =>
  t.app.db.select().from(hooks).where(eq(hooks.integrationId, integrationId));
/** The orders the source took (connector_seen), as the integration page's rows name them. */
export const ordersOf = async (t: TestApp, integrationId: string) =>
  (await t.app.db.select().from(connectorSeen).where(eq(connectorSeen.integrationId, integrationId))).map((o) => ({
    ...o.summary,
    orderId: o.itemId,
    via: o.via,
    timesSeen: o.timesSeen,
    hookId: o.hookId,
    receivedAt: o.firstSeenAt,
    lastSeenAt: o.lastSeenAt,
  }));
/** The source's state row (connector_state) as stored. */
export const stateRowOf = async (t: TestApp, integrationId: string) =>
  (await t.app.db.select().from(connectorState).where(eq(connectorState.integrationId, integrationId)))[0];
/** The source's state with the poll's cursor read as Horoshop writes it ({polledUntil}) and its webhook's status. */
export const sourceOf = async (t: TestApp, integrationId: string) => {
  const state = await stateRowOf(t, integrationId);
  if (!state) return undefined;
  const until = (state.cursor as { polledUntil?: string } | null)?.polledUntil;
  return { ...state, polledUntil: until ? new Date(until) : null, webhookStatus: state.subscriptionStatus };
};
/** Moves the cursor and the connection back, as if the shop was connected and last polled at `at`. */
export const setCursor = (t: TestApp, integrationId: string, at: Date) =>
  t.app.db
    .update(connectorState)
    .set({ cursor: { polledUntil: at.toISOString() }, pollFrom: at })
    .where(eq(connectorState.integrationId, integrationId));
export const rowOf = async (t: TestApp, integrationId: string) =>
  (await t.app.db.select().from(integrations).where(eq(integrations.id, integrationId)))[0]!;

/** The credentials as stored (opened with the app's key). */
export async function storedAuth(t: TestApp, integrationId: string): Promise<Record<string, unknown>> {
  const row = await rowOf(t, integrationId);
  return t.app.deps.secrets.open(row.auth!, row.id);
}

/** Changes the stored credentials (sealed again), as time or another worker would. */
export async function rewriteAuth(
  t: TestApp,
  integrationId: string,
  change: (auth: Record<string, unknown>) => Record<string, unknown>,
): Promise<void> {
  const next = change(await storedAuth(t, integrationId));
  await t.app.db
    .update(integrations)
    .set({ auth: t.app.deps.secrets.seal(next, integrationId) })
    .where(eq(integrations.id, integrationId));
}

/** The receiver's path of the integration (its secret token). */
export async function receiverPath(t: TestApp, integrationId: string): Promise<string> {
  const row = await rowOf(t, integrationId);
  return `/api/horoshop/webhook/${row.hookToken}`;
}
