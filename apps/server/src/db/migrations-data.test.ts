// Migrations that move data keep it: a database as an earlier build left it, migrated to this one.
import { randomBytes } from 'node:crypto';
import { drizzle } from 'drizzle-orm/node-postgres';
import { migrate } from 'drizzle-orm/node-postgres/migrator';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { migrationsBefore as shippedBefore } from '../test/migrations';
import { MIGRATIONS_FOLDER } from './client';

const server = inject('testDatabaseUrl');
const prefix = `lr_migrations_${randomBytes(6).toString('hex')}`;
const made: { name: string; client: pg.Client }[] = [];
let client: pg.Client;
const folders: (() => void)[] = [];

async function onServer(sql: string) {
  const admin = new pg.Client({ connectionString: server });
  await admin.connect();
  try {
    await admin.query(sql);
  } finally {
    await admin.end();
  }
}

/** An empty database of its own (one per migration tested: each starts from an earlier build). */
async function emptyDatabase(): Promise<pg.Client> {
  const name = `${prefix}_${made.length}`;
  await onServer(`CREATE DATABASE ${name}`);
  const url = new URL(server);
  url.pathname = `/${name}`;
  const db = new pg.Client({ connectionString: url.toString() });
  made.push({ name, client: db });
  await db.connect();
  return db;
}

/** The migrations this build ships, up to (not including) the one tagged `before` (removed after the file). */
function migrationsBefore(before: string): string {
  const { folder, remove } = shippedBefore(before);
  folders.push(remove);
  return folder;
}

beforeAll(async () => {
  client = await emptyDatabase();
});
afterAll(async () => {
  for (const { name, client: db } of made) {
    await db.end().catch(() => undefined);
    await onServer(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
  }
  for (const remove of folders) remove();
});

/**
 * The operator's saved words as the migrations from `tag` on leave them: a database migrated up to
 * just before it, with uk and en and the `saved` rows [locale, namespace, key, value], then to the end.
 */
async function savedWordsAfter(tag: string, saved: string[][]): Promise<unknown[]> {
  const client = await emptyDatabase();
  await migrate(drizzle(client), { migrationsFolder: migrationsBefore(tag) });
  const { rows: locales } = await client.query(`SELECT code FROM locales ORDER BY code`);
  for (const code of ['en', 'uk']) {
    if (!locales.some((l) => l.code === code)) {
      await client.query(`INSERT INTO locales (code, iso, file) VALUES ($1, $1, $1 || '.json')`, [code]);
    }
  }
  for (const row of saved) {
    await client.query(`INSERT INTO translations (locale, namespace, key, value) VALUES ($1, $2, $3, $4)`, row);
  }
  await migrate(drizzle(client), { migrationsFolder: MIGRATIONS_FOLDER });
  const { rows } = await client.query(
    `SELECT locale, namespace, key, value FROM translations ORDER BY locale, namespace, key`,
  );
  return rows;
}

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

describe("0034: Horoshop's tables move into the sources' generic ones", () => {
  it("keeps each shop's cursor, connection time, last poll and webhook, and every order with its counts and times", async () => {
    const db = await emptyDatabase();
    await migrate(drizzle(db), { migrationsFolder: migrationsBefore('0034_horoshop_into_connector_sources') });
    const {
      rows: [user],
    } = await db.query(`INSERT INTO users (login, password_hash) VALUES ('shop@example.com', 'x') RETURNING id`);
    const {
      rows: [shop, quiet],
    } = await db.query(
      `INSERT INTO integrations (account_id, type, name) VALUES ($1, 'horoshop', 'Shop'), ($1, 'horoshop', 'Quiet') RETURNING id`,
      [user.id],
    );
    await db.query(
      `INSERT INTO horoshop_sources (integration_id, account_id, webhook_id, webhook_status, webhook_registered_at, webhook_removed_at, polled_until, poll_from, last_poll_at, last_poll_error, updated_at)
       VALUES ($2, $1, '77', 'active', '2026-11-01T09:00:00Z', NULL, '2026-11-02T10:05:00.123Z', '2026-11-01T09:00:00Z', '2026-11-02T10:05:00.123Z', 'HOROSHOP_POLL_TRUNCATED', '2026-11-02T10:05:01Z'),
              ($3, $1, NULL, 'removed', NULL, '2026-11-01T12:00:00Z', NULL, NULL, NULL, NULL, '2026-11-01T12:00:00Z')`,
      [user.id, shop.id, quiet.id],
    );
    await db.query(
      `INSERT INTO horoshop_orders (integration_id, account_id, order_id, name, phone, total, currency, via, times_seen, hook_id, received_at, last_seen_at)
       VALUES ($2, $1, '1024', 'Олена', '+380671234567', '4500', 'UAH', 'webhook', 3, '00000000-0000-4000-8000-0000000000aa', '2026-11-01T10:00:00Z', '2026-11-02T10:05:00Z'),
              ($2, $1, '1025', NULL, NULL, NULL, NULL, 'poll', 1, NULL, '2026-11-02T10:05:00Z', '2026-11-02T10:05:00Z')`,
      [user.id, shop.id],
    );

    await migrate(drizzle(db), { migrationsFolder: MIGRATIONS_FOLDER });

    const { rows: states } = await db.query(
      `SELECT integration_id, account_id, cursor, poll_from, last_poll_at, last_poll_error, subscription_id, subscription_status,
              subscription_registered_at, subscription_removed_at, updated_at
       FROM connector_state ORDER BY updated_at DESC`,
    );
    expect(states).toEqual([
      {
        integration_id: shop.id,
        account_id: user.id,
        // In Horoshop's shape: the page's "polled until", and where the next poll starts.
        cursor: { polledUntil: '2026-11-02T10:05:00.123Z' },
        poll_from: new Date('2026-11-01T09:00:00Z'),
        last_poll_at: new Date('2026-11-02T10:05:00.123Z'),
        last_poll_error: 'HOROSHOP_POLL_TRUNCATED',
        subscription_id: '77',
        subscription_status: 'active',
        subscription_registered_at: new Date('2026-11-01T09:00:00Z'),
        subscription_removed_at: null,
        updated_at: new Date('2026-11-02T10:05:01Z'),
      },
      expect.objectContaining({
        integration_id: quiet.id,
        // Never polled: its first poll starts from then.
        cursor: null,
        poll_from: null,
        subscription_status: 'removed',
        subscription_removed_at: new Date('2026-11-01T12:00:00Z'),
      }),
    ]);
    const { rows: seen } = await db.query(
      `SELECT integration_id, account_id, item_id, via, times_seen, hook_id, summary, first_seen_at, last_seen_at
       FROM connector_seen ORDER BY item_id`,
    );
    expect(seen).toEqual([
      {
        integration_id: shop.id,
        account_id: user.id,
        item_id: '1024',
        via: 'webhook',
        times_seen: 3,
        hook_id: '00000000-0000-4000-8000-0000000000aa',
        summary: { name: 'Олена', phone: '+380671234567', total: '4500', currency: 'UAH' },
        first_seen_at: new Date('2026-11-01T10:00:00Z'),
        last_seen_at: new Date('2026-11-02T10:05:00Z'),
      },
      expect.objectContaining({
        item_id: '1025',
        via: 'poll',
        times_seen: 1,
        hook_id: null,
        summary: { name: null, phone: null, total: null, currency: null },
      }),
    ]);
    const { rows: tables } = await db.query(
      `SELECT to_regclass('public.horoshop_sources') AS sources, to_regclass('public.horoshop_orders') AS orders`,
    );
    expect(tables[0]).toEqual({ sources: null, orders: null });
  });
});

describe('0035: amoCRM backups move into connector records', () => {
  it('keeps every snapshot with its id, integration, time and data, as a record of kind backups', async () => {
    const client = await emptyDatabase();
    await migrate(drizzle(client), {
      migrationsFolder: migrationsBefore('0035_amocrm_backups_into_connector_records'),
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

describe("0038: the operator's words for the connectors' codes follow them into their folders", () => {
  it('moves a saved error or reason word to connectors:<slug>.errors|reasons.<CODE>, and leaves every other word', async () => {
    const saved = [
      ['uk', 'errors', 'USPACY_PORTAL_INVALID', 'Наш портал: назва.uspacy.ua'],
      ['en', 'integrations', 'reasons.SMS_NO_PHONE', 'No phone, no SMS'],
      ['uk', 'errors', 'REQUIRED', 'Заповніть'],
      ['uk', 'integrations', 'reasons.AUTH', 'Відмовлено'],
      // Saved under both keys: the new one is the operator's latest, it stays.
      ['en', 'errors', 'HOROSHOP_REFUSED', 'old words'],
      ['en', 'connectors', 'horoshop.errors.HOROSHOP_REFUSED', 'new words'],
    ];
    expect(await savedWordsAfter('0038_codes_words_into_connectors', saved)).toEqual([
      { locale: 'en', namespace: 'connectors', key: 'alfasms.reasons.SMS_NO_PHONE', value: 'No phone, no SMS' },
      { locale: 'en', namespace: 'connectors', key: 'horoshop.errors.HOROSHOP_REFUSED', value: 'new words' },
      { locale: 'en', namespace: 'errors', key: 'HOROSHOP_REFUSED', value: 'old words' },
      {
        locale: 'uk',
        namespace: 'connectors',
        key: 'uspacy.errors.USPACY_PORTAL_INVALID',
        value: 'Наш портал: назва.uspacy.ua',
      },
      { locale: 'uk', namespace: 'errors', key: 'REQUIRED', value: 'Заповніть' },
      { locale: 'uk', namespace: 'integrations', key: 'reasons.AUTH', value: 'Відмовлено' },
    ]);
  });
});

describe("0039: the operator's words for Facebook's codes follow them into its folder", () => {
  it('moves a saved error or reason word to connectors:facebook.errors|reasons.<CODE>, and leaves sign-in’s and every other word', async () => {
    const saved = [
      ['uk', 'errors', 'FB_PAGE_NOT_FOUND', 'Немає такої сторінки'],
      ['en', 'integrations', 'reasons.FACEBOOK_TOKEN', 'Log in to Facebook again'],
      // Sign-in with Facebook's key is the product's, not the connector's: it stays.
      ['uk', 'errors', 'FACEBOOK_EMAIL_REQUIRED', 'Дайте доступ до пошти'],
      ['uk', 'integrations', 'reasons.AUTH', 'Відмовлено'],
      // Saved under both keys: the new one is the operator's latest, it stays.
      ['en', 'errors', 'FB_CONNECTION_NOT_FOUND', 'old words'],
      ['en', 'connectors', 'facebook.errors.FB_CONNECTION_NOT_FOUND', 'new words'],
    ];
    expect(await savedWordsAfter('0039_facebook_codes_words', saved)).toEqual([
      { locale: 'en', namespace: 'connectors', key: 'facebook.errors.FB_CONNECTION_NOT_FOUND', value: 'new words' },
      {
        locale: 'en',
        namespace: 'connectors',
        key: 'facebook.reasons.FACEBOOK_TOKEN',
        value: 'Log in to Facebook again',
      },
      { locale: 'en', namespace: 'errors', key: 'FB_CONNECTION_NOT_FOUND', value: 'old words' },
      {
        locale: 'uk',
        namespace: 'connectors',
        key: 'facebook.errors.FB_PAGE_NOT_FOUND',
        value: 'Немає такої сторінки',
      },
      { locale: 'uk', namespace: 'errors', key: 'FACEBOOK_EMAIL_REQUIRED', value: 'Дайте доступ до пошти' },
      { locale: 'uk', namespace: 'integrations', key: 'reasons.AUTH', value: 'Відмовлено' },
    ]);
  });
});

describe("0037: Facebook's tables move into the account connections' generic ones", () => {
  it('keeps every connection, page, ad account, leadgen event and cursor with its ids, times and state', async () => {
    const client = await emptyDatabase();
    await migrate(drizzle(client), {
      migrationsFolder: migrationsBefore('0037_facebook_into_connector_connections'),
    });
    const {
      rows: [user],
    } = await client.query(`INSERT INTO users (login, password_hash) VALUES ('olena@example.com', 'x') RETURNING id`);
    const conn = '00000000-0000-4000-8000-0000000000c1';
    const page = '00000000-0000-4000-8000-0000000000a1';
    const ad = '00000000-0000-4000-8000-0000000000d1';
    const userToken = { v: 1, kid: 'k1', iv: 'i', tag: 't', data: 'user' };
    const pageToken = { v: 1, kid: 'k1', iv: 'i', tag: 't', data: 'page' };
    await client.query(
      `INSERT INTO fb_connections (id, account_id, fb_user_id, name, email, user_token, token_expires_at, status,
         status_reason, broken_notified_at, created_at, updated_at)
       VALUES ($1, $2, '10001', 'Olena Koval', 'olena@example.com', $3, '2027-01-20T10:00:00Z', 'broken',
         'Session has expired (code 190/463)', '2026-11-20T10:00:00Z', '2026-10-01T09:00:00Z', '2026-11-20T10:00:00Z')`,
      [conn, user.id, JSON.stringify(userToken)],
    );
    await client.query(
      `INSERT INTO fb_pages (id, account_id, connection_id, page_id, name, category, page_token, is_subscribed,
         subscribed_at, created_at, updated_at)
       VALUES ($1, $2, $3, '2001', 'Kyiv Dental Studio', 'Dentist', $4, true, '2026-10-02T09:00:00Z',
         '2026-10-01T09:00:00Z', '2026-10-02T09:00:00Z')`,
      [page, user.id, conn, JSON.stringify(pageToken)],
    );
    await client.query(
      `INSERT INTO fb_ad_accounts (id, account_id, connection_id, ad_account_id, name) VALUES ($1, $2, $3, 'act_1', 'Ads')`,
      [ad, user.id, conn],
    );
    await client.query(
      `INSERT INTO fb_leadgen_events (id, leadgen_id, page_id, form_id, origin, status, attempts, next_at,
         done_connections, last_error, received_at, updated_at)
       VALUES ('00000000-0000-4000-8000-0000000000e1', '9001', '2001', '3001', 'webhook', 'pending', 0,
           '2026-11-20T10:00:00Z', '[]', null, '2026-11-20T10:00:00Z', '2026-11-20T10:00:00Z'),
         ('00000000-0000-4000-8000-0000000000e2', '9002', '2001', null, 'sweep', 'waiting', 2,
           '2026-11-20T10:30:00Z', $1, 'Session has expired', '2026-11-20T09:00:00Z', '2026-11-20T10:00:00Z')`,
      [JSON.stringify([conn])],
    );
    await client.query(
      `INSERT INTO fb_backfill_cursors (form_id, page_id, swept_until) VALUES ('3001', '2001', '2026-11-20T10:15:00Z')`,
    );
    const {
      rows: [alert],
    } = await client.query(
      `INSERT INTO guardian_alerts (account_id, connection_id, kind, expires_at, days_ahead)
       VALUES ($1, $2, 'expiry', '2027-01-20T10:00:00Z', 7) RETURNING id`,
      [user.id, conn],
    );

    await migrate(drizzle(client), { migrationsFolder: MIGRATIONS_FOLDER });

    const { rows: connections } = await client.query(`SELECT * FROM connector_connections`);
    expect(connections).toEqual([
      {
        id: conn,
        account_id: user.id,
        type: 'facebook',
        external_id: '10001',
        name: 'Olena Koval',
        email: 'olena@example.com',
        secret: userToken,
        expires_at: new Date('2027-01-20T10:00:00Z'),
        status: 'broken',
        status_reason: 'Session has expired (code 190/463)',
        broken_notified_at: new Date('2026-11-20T10:00:00Z'),
        created_at: new Date('2026-10-01T09:00:00Z'),
        updated_at: new Date('2026-11-20T10:00:00Z'),
      },
    ]);
    const { rows: assets } = await client.query(
      `SELECT id, account_id, connection_id, kind, external_id, name, details, secret, subscribed, subscribed_at,
         created_at, updated_at FROM connector_assets ORDER BY kind`,
    );
    expect(assets).toEqual([
      expect.objectContaining({
        id: ad,
        connection_id: conn,
        kind: 'adAccount',
        external_id: 'act_1',
        name: 'Ads',
        secret: null,
      }),
      {
        id: page,
        account_id: user.id,
        connection_id: conn,
        kind: 'page',
        external_id: '2001',
        name: 'Kyiv Dental Studio',
        details: { category: 'Dentist' },
        secret: pageToken,
        subscribed: true,
        subscribed_at: new Date('2026-10-02T09:00:00Z'),
        created_at: new Date('2026-10-01T09:00:00Z'),
        updated_at: new Date('2026-10-02T09:00:00Z'),
      },
    ]);
    const { rows: events } = await client.query(`SELECT * FROM connector_inbound_events ORDER BY external_id`);
    expect(events).toEqual([
      {
        id: '00000000-0000-4000-8000-0000000000e1',
        type: 'facebook',
        external_id: '9001',
        asset_id: '2001',
        data: { formId: '3001' },
        origin: 'webhook',
        status: 'pending',
        attempts: 0,
        next_at: new Date('2026-11-20T10:00:00Z'),
        done_connections: [],
        last_error: null,
        received_at: new Date('2026-11-20T10:00:00Z'),
        updated_at: new Date('2026-11-20T10:00:00Z'),
      },
      expect.objectContaining({
        id: '00000000-0000-4000-8000-0000000000e2',
        data: {},
        origin: 'sweep',
        status: 'waiting',
        attempts: 2,
        done_connections: [conn],
        last_error: 'Session has expired',
      }),
    ]);
    const { rows: cursors } = await client.query(`SELECT * FROM connector_cursors`);
    expect(cursors).toEqual([
      { type: 'facebook', key: '3001', asset_id: '2001', until: new Date('2026-11-20T10:15:00Z') },
    ]);
    const { rows: alerts } = await client.query(`SELECT id, connection_id FROM guardian_alerts`);
    expect(alerts).toEqual([{ id: alert.id, connection_id: conn }]);
    // A removed connection still takes its alerts and assets with it.
    await client.query(`DELETE FROM connector_connections WHERE id = $1`, [conn]);
    expect((await client.query(`SELECT count(*)::int AS n FROM guardian_alerts`)).rows[0].n).toBe(0);
    expect((await client.query(`SELECT count(*)::int AS n FROM connector_assets`)).rows[0].n).toBe(0);
    const { rows: tables } = await client.query(
      `SELECT to_regclass('public.fb_connections') AS a, to_regclass('public.fb_pages') AS b,
         to_regclass('public.fb_ad_accounts') AS c, to_regclass('public.fb_leadgen_events') AS d,
         to_regclass('public.fb_backfill_cursors') AS e`,
    );
    expect(tables[0]).toEqual({ a: null, b: null, c: null, d: null, e: null });
  });
});

describe("0040: the operator's words for SendPulse's connection form follow it into its folder", () => {
  it("moves a saved word of the form and the catalogue's description to connectors:sendpulse.*, and leaves every other word", async () => {
    const saved = [
      ['uk', 'widget', 'admin.connectionTitle', 'SendPulse магазину'],
      ['en', 'integrations', 'catalogue.descriptions.sendpulse', 'Our chatbot CRM'],
      // The widget's own words stay the widget's.
      ['uk', 'widget', 'admin.title', 'Наш віджет'],
      ['en', 'integrations', 'catalogue.descriptions.webhook', 'A form'],
      // Saved under both keys: the new one is the operator's latest, it stays.
      ['en', 'widget', 'admin.botId', 'old words'],
      ['en', 'connectors', 'sendpulse.connection.botId', 'new words'],
    ];
    expect(await savedWordsAfter('0040_sendpulse_words_into_connector', saved)).toEqual([
      { locale: 'en', namespace: 'connectors', key: 'sendpulse.catalogue.description', value: 'Our chatbot CRM' },
      { locale: 'en', namespace: 'connectors', key: 'sendpulse.connection.botId', value: 'new words' },
      { locale: 'en', namespace: 'integrations', key: 'catalogue.descriptions.webhook', value: 'A form' },
      { locale: 'en', namespace: 'widget', key: 'admin.botId', value: 'old words' },
      { locale: 'uk', namespace: 'connectors', key: 'sendpulse.connection.title', value: 'SendPulse магазину' },
      { locale: 'uk', namespace: 'widget', key: 'admin.title', value: 'Наш віджет' },
    ]);
  });
});

describe('0046: what an install already offers counts as shipped', () => {
  it('marks every destination type and every type a source lists as shipped, so the seed adds only later ones', async () => {
    const db = await emptyDatabase();
    await migrate(drizzle(db), { migrationsFolder: migrationsBefore('0046_shipped_destinations') });
    await db.query(`INSERT INTO integration_settings (slug, name, kind, destinations) VALUES
      ('crm-a', 'CRM A', 'destination', '[]'),
      ('forms', 'Forms', 'source', '["crm-a", "sms-b"]'),
      ('shop', 'Shop', 'source', '[]')`);
    await migrate(drizzle(db), { migrationsFolder: MIGRATIONS_FOLDER });
    const { rows } = await db.query(`SELECT slug FROM catalogue_shipped_destinations ORDER BY slug`);
    expect(rows.map((r) => r.slug)).toEqual(['crm-a', 'sms-b']);
  });
});
