// A crash between acknowledging Meta's webhook and fetching the lead loses nothing: the app that
// answered 200 goes away before its worker ran, and a fresh app on the same database ingests the lead.
import { randomBytes } from 'node:crypto';
import { GRAPH_SEED, GRAPH_VERSION, type GraphEmulator, startGraphEmulator } from '@leadrelay/connectors/testing';
import { drizzle } from 'drizzle-orm/node-postgres';
import { migrate } from 'drizzle-orm/node-postgres/migrator';
import type { FastifyInstance } from 'fastify';
import pg from 'pg';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { type AppOptions, buildApp } from '../../app';
import { createSecretBox } from '../../lib/secret-box';
import { connect } from '../../test/facebook-kit';
import {
  CONSULTATION,
  DENTAL,
  eventsOf,
  leadSetup,
  leadsOf,
  received,
  startReceiver,
} from '../../test/facebook-leads-kit';
import { migrationsBefore } from '../../test/migrations';
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
    crm: { facebook: { appId: emu.appId, appSecret: emu.appSecret, graphUrl: emu.graphUrl, dialogUrl: emu.dialogUrl } },
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

it('a leadgen event an earlier build stored and never processed is processed once its rows moved to the generic tables', async () => {
  // The database as the build before migration 0037 left it: Facebook's own tables, one event pending.
  const old = await createTestDatabase('lr_test');
  const before = migrationsBefore('0037_facebook_into_connector_connections');
  const key = randomBytes(32);
  const secrets = createSecretBox(key);
  const client = new pg.Client({ connectionString: old.url });
  await client.connect();
  let leadgenId: string;
  let integrationId: string;
  try {
    await migrate(drizzle(client), { migrationsFolder: before.folder });
    const {
      rows: [user],
    } = await client.query(`INSERT INTO users (login, password_hash) VALUES ('olena@example.com', 'x') RETURNING id`);
    const connectionId = '00000000-0000-4000-8000-00000000c001';
    const pageRowId = '00000000-0000-4000-8000-00000000a001';
    await client.query(
      `INSERT INTO fb_connections (id, account_id, fb_user_id, name, user_token) VALUES ($1, $2, $3, 'Olena', $4)`,
      [
        connectionId,
        user.id,
        GRAPH_SEED.user.id,
        JSON.stringify(secrets.seal({ accessToken: 'user-token' }, connectionId)),
      ],
    );
    await client.query(
      `INSERT INTO fb_pages (id, account_id, connection_id, page_id, name, page_token, is_subscribed)
       VALUES ($1, $2, $3, $4, $5, $6, true)`,
      [
        pageRowId,
        user.id,
        connectionId,
        DENTAL.id,
        DENTAL.name,
        JSON.stringify(secrets.seal({ accessToken: emu.pageToken(DENTAL.id) }, pageRowId)),
      ],
    );
    const {
      rows: [integration],
    } = await client.query(
      `INSERT INTO integrations (account_id, type, name, settings) VALUES ($1, 'facebook', 'Meta leads', $2) RETURNING id`,
      [user.id, JSON.stringify({ fbConnectionId: connectionId, fbPageId: DENTAL.id, fbFormId: CONSULTATION })],
    );
    integrationId = integration.id;
    // Meta's webhook was acknowledged (the row stored) and the process died before the worker ran.
    emu.setWebhookDelivery('drop');
    leadgenId = emu.submitLead({ formId: CONSULTATION });
    await emu.idle();
    emu.setWebhookDelivery('on');
    await client.query(
      `INSERT INTO fb_leadgen_events (leadgen_id, page_id, form_id, origin) VALUES ($1, $2, $3, 'webhook')`,
      [leadgenId, DENTAL.id, CONSULTATION],
    );
  } finally {
    await client.end();
    before.remove();
  }

  // This build starts on it: the migration moves the rows, the processor takes the event.
  const app = await buildApp({
    databaseUrl: old.url,
    publicUrl: 'http://app.test',
    allowPrivateDestinations: true,
    mail: { kind: 'memory' },
    encryptionKey: key.toString('base64'),
    jwtSecret: randomBytes(32).toString('base64url'),
    crm: { facebook: { appId: emu.appId, appSecret: emu.appSecret, graphUrl: emu.graphUrl, dialogUrl: emu.dialogUrl } },
  });
  const t = asTestApp(app, old.url);
  try {
    expect((await eventsOf(t, leadgenId))[0]).toMatchObject({
      status: 'pending',
      pageId: DENTAL.id,
      formId: CONSULTATION,
    });
    expect(await app.inboundEvents.drain()).toBe(1);
    expect((await eventsOf(t, leadgenId))[0]).toMatchObject({ status: 'done' });
    expect((await leadsOf(t, integrationId)).map((l) => l.sourceId)).toEqual([leadgenId]);
  } finally {
    await app.close();
    await old.drop();
  }
});
