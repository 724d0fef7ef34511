// What the Meta lead tests share: an account connected through the Graph emulator with an http
// destination (the http emulator) and a facebook integration on a subscribed page.
import { type HttpEmulator, startHttpEmulator } from '@leadrelay/connectors/http/emulator';
import { GRAPH_SEED } from '@leadrelay/connectors/testing';
import { and, eq } from 'drizzle-orm';
import { expect } from 'vitest';
import { connectorInboundEvents, leads } from '../db/schema';
import { call } from './facebook-kit';
import type { SignedInUser, TestApp } from './test-app';

export const [DENTAL, COFFEE] = GRAPH_SEED.pages;
export const CONSULTATION = GRAPH_SEED.forms.consultation;

export interface LeadSetup {
  connectionId: string;
  integrationId: string;
  destinationId: string;
}

export const startReceiver = (): Promise<HttpEmulator> => startHttpEmulator();

/** An http destination, a facebook integration on the page and form feeding it, the page subscribed. */
export async function leadSetup(
  t: TestApp,
  user: SignedInUser,
  connectionId: string,
  receiver: HttpEmulator,
  settings: { pageId?: string; formId?: string } = {},
): Promise<LeadSetup> {
  const pageId = settings.pageId ?? DENTAL.id;
  const destination = await call(t, 'POST', '/api/integrations', user, {
    type: 'http',
    name: 'CRM endpoint',
    settings: { url: receiver.hookUrl },
  });
  expect(destination.statusCode, destination.body).toBe(201);
  const created = await call(t, 'POST', '/api/integrations', user, {
    type: 'facebook',
    name: 'Meta leads',
    settings: { fbConnectionId: connectionId, fbPageId: pageId, fbFormId: settings.formId ?? CONSULTATION },
    destination: [destination.json()._id],
  });
  expect(created.statusCode, created.body).toBe(201);
  const subscribed = await call(
    t,
    'POST',
    `/api/facebook/connection/${connectionId}/account/${pageId}/subscribe`,
    user,
  );
  expect(subscribed.statusCode, subscribed.body).toBe(200);
  return { connectionId, integrationId: created.json()._id, destinationId: destination.json()._id };
}

/** A stored leadgen event's generic row, with the names the Facebook tests were written with. */
export const fbEventOf = (row: typeof connectorInboundEvents.$inferSelect) => ({
  ...row,
  leadgenId: row.externalId,
  pageId: row.assetId,
  formId: row.data.formId ?? null,
});

export const eventsOf = async (t: TestApp, leadgenId: string) =>
  (
    await t.app.db
      .select()
      .from(connectorInboundEvents)
      .where(and(eq(connectorInboundEvents.type, 'facebook'), eq(connectorInboundEvents.externalId, leadgenId)))
  ).map(fbEventOf);

export const leadsOf = (t: TestApp, integrationId: string) =>
  t.app.db.select().from(leads).where(eq(leads.integrationId, integrationId));

/** The worker's part: stored events fetched and ingested, then the deliveries made. */
export async function work(t: TestApp): Promise<void> {
  await t.app.inboundEvents.drain();
  await t.app.deliveryWorker.drain();
}

/** Requests the receiver got carrying this leadgen_id. */
export const received = (receiver: HttpEmulator, leadgenId: string) =>
  receiver.requests.filter((r) => r.rawBody.includes(leadgenId));
