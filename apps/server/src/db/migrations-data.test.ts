// Migrations that move data keep it: a database as an earlier build left it, migrated to this one.
import { randomBytes } from 'node:crypto';
import { cpSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { drizzle } from 'drizzle-orm/node-postgres';
import { migrate } from 'drizzle-orm/node-postgres/migrator';
import pg from 'pg';
import { afterAll, beforeEach, describe, expect, inject, it } from 'vitest';
import { MIGRATIONS_FOLDER } from './client';
import { readJournal } from './migrations-journal';

const server = inject('testDatabaseUrl');
const names: string[] = [];
const clients: pg.Client[] = [];
let client: pg.Client;
const folders: string[] = [];

async function onServer(sql: string) {
  const admin = new pg.Client({ connectionString: server });
  await admin.connect();
  try {
    await admin.query(sql);
  } finally {
    await admin.end();
  }
}

/** The migrations this build ships, up to (not including) the one tagged `before`. */
function migrationsBefore(before: string): string {
  const folder = mkdtempSync(join(tmpdir(), 'leadrelay-migrations-'));
  folders.push(folder);
  cpSync(MIGRATIONS_FOLDER, folder, { recursive: true });
  const journal = readJournal(MIGRATIONS_FOLDER);
  const at = journal.entries.findIndex((e) => e.tag === before);
  expect(at).toBeGreaterThan(0);
  writeFileSync(
    join(folder, 'meta', '_journal.json'),
    JSON.stringify({ ...journal, entries: journal.entries.slice(0, at) }),
  );
  return folder;
}

/** A new, empty database of its own: each migration's test starts from nothing. */
async function emptyDatabase(): Promise<pg.Client> {
  const name = `lr_migrations_${randomBytes(6).toString('hex')}`;
  names.push(name);
  await onServer(`CREATE DATABASE ${name}`);
  const url = new URL(server);
  url.pathname = `/${name}`;
  const fresh = new pg.Client({ connectionString: url.toString() });
  clients.push(fresh);
  await fresh.connect();
  return fresh;
}

beforeEach(async () => {
  client = await emptyDatabase();
});
afterAll(async () => {
  for (const c of clients) await c.end();
  for (const name of names) await onServer(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
  for (const folder of folders) rmSync(folder, { recursive: true, force: true });
});

describe('0032: the SMS log moves into connector records', () => {
  it('keeps every message with its id, times, state and fields, and whether it is still asked about', async () => {
    await migrate(drizzle(client), { migrationsFolder: migrationsBefore('0032_sms_into_connector_records') });
    const {
      rows: [user],
    } = await client.query(`INSERT INTO users (login, password_hash) VALUES ('olena@example.com', 'x') RETURNING id`);
    const {
      rows: [integration],
    } = await client.query(
      `INSERT INTO integrations (account_id, type, name) VALUES ($1, 'alfasms', 'SMS') RETURNING id`,
      [user.id],
    );
    await client.query(
      `INSERT INTO sms_messages (id, account_id, integration_id, lead_id, recipient, phone, channel, text, msg_id, parts, status, provider_status, cost, checked_at, created_at, updated_at)
       VALUES ('00000000-0000-4000-8000-000000000001', $1, $2, '00000000-0000-4000-8000-0000000000aa', 'lead', '380501111111', 'sms', 'Дякуємо!', '101', 1, 'sent', NULL, 0.85, NULL, '2026-11-01T10:00:00Z', '2026-11-01T10:00:00Z'),
              ('00000000-0000-4000-8000-000000000002', $1, $2, NULL, 'manager', '380672222222', 'viber+sms', 'Новий лід', '102', 2, 'delivered', 'DELIVERED', NULL, '2026-11-01T10:05:00Z', '2026-11-01T10:01:00Z', '2026-11-01T10:05:00Z'),
              ('00000000-0000-4000-8000-000000000003', $1, $2, NULL, 'lead', '380503333333', 'sms', 'Дякуємо!', '103', 1, 'delivered', 'DELIVERED', 1.2, '2026-11-01T10:06:00Z', '2026-11-01T10:02:00Z', '2026-11-01T10:06:00Z')`,
      [user.id, integration.id],
    );

    await migrate(drizzle(client), { migrationsFolder: MIGRATIONS_FOLDER });

    const { rows } = await client.query(
      `SELECT id, account_id, integration_id, kind, key, lead_id, status, open, data, checked_at, created_at, updated_at
       FROM connector_records ORDER BY key`,
    );
    expect(rows).toEqual([
      {
        id: '00000000-0000-4000-8000-000000000001',
        account_id: user.id,
        integration_id: integration.id,
        kind: 'sms',
        key: '101',
        lead_id: '00000000-0000-4000-8000-0000000000aa',
        status: 'sent',
        open: true,
        data: {
          recipient: 'lead',
          phone: '380501111111',
          channel: 'sms',
          text: 'Дякуємо!',
          msgId: '101',
          parts: 1,
          providerStatus: null,
          cost: 0.85,
        },
        checked_at: null,
        created_at: new Date('2026-11-01T10:00:00Z'),
        updated_at: new Date('2026-11-01T10:00:00Z'),
      },
      expect.objectContaining({
        key: '102',
        status: 'delivered',
        // Delivered by Viber: it may still be read.
        open: true,
        data: expect.objectContaining({ recipient: 'manager', channel: 'viber+sms', parts: 2, cost: null }),
        checked_at: new Date('2026-11-01T10:05:00Z'),
      }),
      expect.objectContaining({
        key: '103',
        status: 'delivered',
        open: false,
        data: expect.objectContaining({ cost: 1.2 }),
      }),
    ]);
    const { rows: tables } = await client.query(`SELECT to_regclass('public.sms_messages') AS t`);
    expect(tables[0].t).toBeNull();
  });
});

describe('0033: amoCRM backups move into connector records', () => {
  it('keeps every snapshot with its id, integration, time and data, as a record of kind backups', async () => {
    await migrate(drizzle(client), {
      migrationsFolder: migrationsBefore('0033_amocrm_backups_into_connector_records'),
    });
    const {
      rows: [user],
    } = await client.query(`INSERT INTO users (login, password_hash) VALUES ('bohdan@example.com', 'x') RETURNING id`);
    const {
      rows: [integration],
    } = await client.query(
      `INSERT INTO integrations (account_id, type, name) VALUES ($1, 'amocrm', 'amoCRM') RETURNING id`,
      [user.id],
    );
    const data = {
      settings: { pipelineId: 7000002, tags: ['fb'] },
      pipelines: [{ id: 7000002, name: 'Продажі', isMain: true, statuses: [] }],
      users: [{ id: 5000001, name: 'Анна' }],
      fields: { lead: [], contact: [] },
    };
    await client.query(
      `INSERT INTO amocrm_backups (id, account_id, integration_id, data, created_at)
       VALUES ('00000000-0000-4000-8000-0000000000b1', $1, $2, $3, '2026-11-02T09:00:00Z'),
              ('00000000-0000-4000-8000-0000000000b2', $1, $2, '{"settings":{},"pipelines":[],"users":[],"fields":{"lead":[],"contact":[]}}', '2026-11-02T09:05:00Z')`,
      [user.id, integration.id, JSON.stringify(data)],
    );

    await migrate(drizzle(client), { migrationsFolder: MIGRATIONS_FOLDER });

    const { rows } = await client.query(
      `SELECT id, account_id, integration_id, kind, key, delivery_id, status, open, data, created_at, updated_at
       FROM connector_records WHERE kind = 'backups' ORDER BY created_at`,
    );
    expect(rows).toEqual([
      {
        id: '00000000-0000-4000-8000-0000000000b1',
        account_id: user.id,
        integration_id: integration.id,
        kind: 'backups',
        key: '00000000-0000-4000-8000-0000000000b1',
        delivery_id: null,
        status: 'kept',
        open: false,
        data,
        created_at: new Date('2026-11-02T09:00:00Z'),
        updated_at: new Date('2026-11-02T09:00:00Z'),
      },
      expect.objectContaining({
        id: '00000000-0000-4000-8000-0000000000b2',
        data: { settings: {}, pipelines: [], users: [], fields: { lead: [], contact: [] } },
      }),
    ]);
    const { rows: tables } = await client.query(`SELECT to_regclass('public.amocrm_backups') AS t`);
    expect(tables[0].t).toBeNull();
  });
});
