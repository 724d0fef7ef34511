// A crash between acknowledging Meta's webhook and fetching the lead loses nothing: the app that
// answered 200 goes away before its worker ran, and a fresh app on the same database ingests the lead.
import { randomBytes } from 'node:crypto';
import { GRAPH_VERSION, type GraphEmulator, startGraphEmulator } from '@leadrelay/connectors/testing';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { type AppOptions, buildApp } from '../../app';
import { connect } from '../../test/facebook-kit';
import { CONSULTATION, eventsOf, leadSetup, leadsOf, received, startReceiver } from '../../test/facebook-leads-kit';
import { freePort } from '../../test/server-process';
import { createTestDatabase, signUp, type TestApp, type TestDatabase } from '../../test/test-app';

let emu: GraphEmulator;
let receiver: Awaited<ReturnType<typeof startReceiver>>;
/** A database two app instances open one after the other. */
let database: TestDatabase;

const asTestApp = (app: FastifyInstance, databaseUrl: string): TestApp => ({
  app,
  outbox: app.mailer.outbox,
  databaseUrl,
  close: () => app.close(),
});

beforeAll(async () => {
  emu = await startGraphEmulator();
  receiver = await startReceiver();
  database = await createTestDatabase('lr_test', { migrated: true });
});
afterAll(async () => {
  await receiver?.close();
  await emu?.close();
  await database?.drop();
});

it('an acknowledged lead is ingested by a fresh app on the same database after the first one died', async () => {
  const port = await freePort();
  const options: AppOptions = {
    databaseUrl: database.url,
    publicUrl: `http://127.0.0.1:${port}`,
    allowPrivateDestinations: true,
    mail: { kind: 'memory' },
    encryptionKey: randomBytes(32).toString('hex'),
    jwtSecret: randomBytes(32).toString('base64url'),
    facebook: { appId: emu.appId, appSecret: emu.appSecret, graphUrl: emu.graphUrl, dialogUrl: emu.dialogUrl },
  };

  const first = asTestApp(await buildApp(options), database.url);
  await first.app.listen({ port, host: '127.0.0.1' });
  const alice = await signUp(first);
  const setup = await leadSetup(first, alice, await connect(first, alice), receiver);
  const leadgenId = emu.submitLead({ formId: CONSULTATION });
  await emu.idle();
  expect(emu.deliveries.filter((d) => d.leadgenIds.includes(leadgenId)).map((d) => d.status)).toEqual([200]);
  expect((await eventsOf(first, leadgenId))[0]).toMatchObject({ status: 'pending' });
  // The first app goes away before its worker fetched the lead.
  await first.app.close();
  expect(emu.requests.some((r) => r.path.startsWith(`/${GRAPH_VERSION}/${leadgenId}`))).toBe(false);

  const second = asTestApp(await buildApp(options), database.url);
  try {
    expect(await second.app.inboundEvents.drain()).toBe(1);
    await second.app.deliveryWorker.drain();
    expect((await eventsOf(second, leadgenId))[0]).toMatchObject({ status: 'done' });
    expect((await leadsOf(second, setup.integrationId)).map((l) => l.sourceId)).toEqual([leadgenId]);
    expect(received(receiver, leadgenId)).toHaveLength(1);
  } finally {
    await second.app.close();
  }
});
