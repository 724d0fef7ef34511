// The one-off import of an old install's PGlite database, on a real data folder written by
// LeadRelay 0921fc5 with PGlite 0.5.16 (fixtures/pglite-0.5.16/README.md says how it was made).
import { execFileSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { cpSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { drizzle } from 'drizzle-orm/node-postgres';
import { migrate } from 'drizzle-orm/node-postgres/migrator';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { buildApp } from '../app';
import { createSecretBox, parseEncryptionKey } from '../lib/secret-box';
import { seedCatalogueRows } from '../modules/catalogue/catalogue.service';
import { createTestDatabase } from '../test/test-app';
import { importPgliteData, loadPglite, type PgliteLike, type SqlSource } from './pglite-import';

interface Expected {
  migrations: { applied: number };
  accounts: Record<'owner' | 'user' | 'second', { id: string; login: string; password: string; role: string }> & {
    user: { name: string; company: string };
  };
  integrations: { id: string; name: string; type: string; auth?: Record<string, string> }[];
  leads: { count: number; sample: { id: string; name: string; phone: string; createdAt: string } };
  tables: Record<string, number>;
}

const FIXTURE = join(import.meta.dirname, '../../fixtures/pglite-0.5.16');
const MIGRATIONS = join(import.meta.dirname, '../../drizzle');
const expected = JSON.parse(readFileSync(join(FIXTURE, 'expected.json'), 'utf8')) as Expected;
const CATALOGUE = ['integration_categories', 'integration_settings', 'integration_modules'];
/**
 * Tables of the fixture that a later migration moves and drops (0033: amoCRM's backups into
 * connector_records; 0037: Facebook's into the account connections' tables; none has rows here).
 */
const DROPPED_LATER = new Set([
  'amocrm_backups',
  'fb_connections',
  'fb_pages',
  'fb_ad_accounts',
  'fb_leadgen_events',
  'fb_backfill_cursors',
]);
const destination = expected.integrations.find((i) => i.type === 'http')!;
const log = () => {};

let dataDir: string;
let source: PgliteLike;
const dropAfterwards: (() => Promise<void>)[] = [];
const temporary: string[] = [];

beforeAll(async () => {
  dataDir = mkdtempSync(join(tmpdir(), 'lr-pglite-data-'));
  execFileSync('tar', ['-xJf', join(FIXTURE, 'data.tar.xz'), '-C', dataDir]);
  // Fetched from the npm registry the first time, as the import command does.
  const pglite = await loadPglite({ log: (line) => console.info(line) });
  source = await pglite.create(join(dataDir, 'pglite'));
  await source.query(`set timezone = 'UTC'`);
}, 300_000);

afterAll(async () => {
  await source?.close();
  for (const drop of dropAfterwards.reverse()) await drop();
  for (const dir of [dataDir, ...temporary]) if (dir) rmSync(dir, { recursive: true, force: true });
});

/** A new database on the run's PostgreSQL, dropped after the file. */
async function newDatabase(): Promise<string> {
  const database = await createTestDatabase('lr_import');
  dropAfterwards.push(database.drop);
  return database.url;
}

async function connect(url: string): Promise<pg.Client> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  await client.query(`set timezone = 'UTC'`);
  return client;
}

/** Every row of a table as JSON text, in one order on both sides. */
/** The table's rows as text, in a stable order; only `columns` (the old data's: later migrations add more). */
async function tableText(db: SqlSource, table: string, columns: string[]): Promise<string> {
  const list = columns.map((c) => `"${c}"`).join(', ');
  const { rows } = await db.query<{ rows: string | null }>(
    `select json_agg(t order by t::text)::text as rows from (select ${list} from public."${table}") t`,
  );
  return rows[0]?.rows ?? '[]';
}

async function columnsOf(db: SqlSource, table: string): Promise<string[]> {
  const { rows } = await db.query<{ name: string }>(
    `select column_name as name from information_schema.columns
     where table_schema = 'public' and table_name = $1 order by ordinal_position`,
    [table],
  );
  return rows.map((r) => r.name);
}

async function count(db: SqlSource, table: string): Promise<number> {
  const { rows } = await db.query<{ n: string }>(`select count(*)::text as n from public."${table}"`);
  return Number(rows[0]?.n);
}

/** A copy of the migrations folder whose journal keeps the first `keep` entries, plus `extra` ones. */
function migrationsFolder(keep: number, extra: { tag: string; sql: string }[] = []): string {
  const folder = mkdtempSync(join(tmpdir(), 'lr-migrations-'));
  temporary.push(folder);
  cpSync(MIGRATIONS, folder, { recursive: true });
  const journalPath = join(folder, 'meta', '_journal.json');
  const journal = JSON.parse(readFileSync(journalPath, 'utf8')) as { entries: { when: number; tag: string }[] };
  const entries = journal.entries.slice(0, keep);
  for (const { tag, sql } of extra) {
    writeFileSync(join(folder, `${tag}.sql`), sql);
    entries.push({ ...entries.at(-1)!, when: entries.at(-1)!.when + 1000, tag });
  }
  writeFileSync(journalPath, JSON.stringify({ ...journal, entries }));
  return folder;
}

describe('into a new, empty database', () => {
  let targetUrl: string;
  let target: pg.Client;
  let tables: Record<string, number>;
  beforeAll(async () => {
    targetUrl = await newDatabase();
    ({ tables } = await importPgliteData({ source, targetUrl, migrationsFolder: MIGRATIONS, log }));
    target = await connect(targetUrl);
  }, 120_000);
  afterAll(() => target?.end());

  it('copies every row of every table, values and timestamps identical', async () => {
    expect(tables).toEqual(expected.tables);
    for (const [table, rows] of Object.entries(expected.tables)) {
      if (DROPPED_LATER.has(table)) continue;
      expect(await count(target, table), table).toBe(rows);
      // Migration 0024 lets every source type send to Telegram: the one old value a later migration changes.
      const changedLater = table === 'integration_settings' ? ['destinations'] : [];
      const columns = (await columnsOf(source, table)).filter((c) => !changedLater.includes(c));
      expect(await tableText(target, table, columns), table).toBe(await tableText(source, table, columns));
    }
    const destinationsOf = async (db: SqlSource) =>
      (
        await db.query<{ slug: string; destinations: string[] }>(
          `select slug, destinations from integration_settings where kind = 'source' order by slug`,
        )
      ).rows;
    expect(await destinationsOf(target)).toEqual(
      (await destinationsOf(source)).map((r) => ({ ...r, destinations: [...r.destinations, 'telegram'] })),
    );
  });

  it('keeps the accounts, the Cyrillic names and the lead as the user left them', async () => {
    const { user } = expected.accounts;
    const account = await target.query(
      'select login, role, name, company, email_confirmed_at is not null as confirmed from users where id = $1',
      [user.id],
    );
    expect(account.rows).toEqual([
      { login: user.login, role: 'client', name: user.name, company: user.company, confirmed: true },
    ]);
    const logins = await target.query('select login from users order by login');
    expect(logins.rows.map((r) => r.login)).toEqual(
      Object.values(expected.accounts)
        .map((a) => a.login)
        .sort(),
    );
    const integrations = await target.query('select id, name, type from integrations order by created_at desc');
    expect(integrations.rows).toEqual(expected.integrations.map(({ id, name, type }) => ({ id, name, type })));
    const lead = await target.query(
      `select fields->>'name' as name, fields->>'phone' as phone, created_at from leads where id = $1`,
      [expected.leads.sample.id],
    );
    const { sample } = expected.leads;
    expect(lead.rows).toEqual([{ name: sample.name, phone: sample.phone, created_at: new Date(sample.createdAt) }]);
  });

  it('keeps the sealed credentials byte for byte, still opened by the old encryption key', async () => {
    const sealed = 'select auth::text as auth from integrations where id = $1';
    const before = await source.query<{ auth: string }>(sealed, [destination.id]);
    const after = await target.query<{ auth: string }>(sealed, [destination.id]);
    expect(after.rows[0]?.auth).toBe(before.rows[0]?.auth);
    const key = parseEncryptionKey(readFileSync(join(dataDir, 'encryption-key'), 'utf8'))!;
    expect(createSecretBox(key).open(JSON.parse(after.rows[0]!.auth), destination.id)).toEqual(destination.auth);
  });

  it('continues serial and identity numbers after the copied ones', async () => {
    await target.query('begin');
    const failure = await target.query<{ id: string }>(
      `insert into login_failures (key) values ('ip:probe') returning id`,
    );
    await target.query('rollback');
    expect(Number(failure.rows[0]?.id)).toBeGreaterThan(expected.tables.login_failures!);
    const seq = await target.query<{ next: string; max: string }>(
      `select nextval(pg_get_serial_sequence('public.deliveries', 'seq'))::text as next,
              (select max(seq) from deliveries)::text as max`,
    );
    expect(Number(seq.rows[0]?.next)).toBeGreaterThan(Number(seq.rows[0]?.max));
  });

  it('refuses a second import into it and leaves it as it was', async () => {
    const snapshot = async () => {
      const applied = await target.query(
        'select json_agg(m order by id)::text as rows from drizzle.__drizzle_migrations m',
      );
      const rows = [applied.rows[0].rows];
      for (const table of Object.keys(expected.tables).filter((t) => !DROPPED_LATER.has(t)))
        rows.push(await tableText(target, table, await columnsOf(target, table)));
      return rows;
    };
    const before = await snapshot();
    // The fixture is older than this LeadRelay: the import left the database past the old data's
    // level, which is refused first (the accounts check is tested at the old level below).
    await expect(importPgliteData({ source, targetUrl, migrationsFolder: MIGRATIONS, log })).rejects.toThrow(
      /already at a later migration|already holds accounts/,
    );
    expect(await snapshot()).toEqual(before);
    // The first import brought it up to date with every migration this LeadRelay has.
    const journal = JSON.parse(readFileSync(join(MIGRATIONS, 'meta', '_journal.json'), 'utf8'));
    const migrations = await target.query('select count(*)::int as n from drizzle.__drizzle_migrations');
    expect(migrations.rows[0].n).toBe(journal.entries.length);
  });

  it('lets the old user sign in to the app on it and see the integrations and leads', async () => {
    const app = await buildApp({
      databaseUrl: targetUrl,
      encryptionKey: readFileSync(join(dataDir, 'encryption-key'), 'utf8').trim(),
      jwtSecret: readFileSync(join(dataDir, 'jwt-secret'), 'utf8').trim(),
    });
    try {
      const { user } = expected.accounts;
      const login = await app.inject({
        method: 'POST',
        url: '/api/auth/login',
        payload: { login: user.login, password: user.password },
      });
      expect(login.statusCode).toBe(200);
      const headers = { authorization: `Bearer ${login.json().accessToken}` };
      const list = await app.inject({ method: 'GET', url: '/api/integrations', headers });
      expect(
        list
          .json()
          .data.map((i: { name: string }) => i.name)
          .sort(),
      ).toEqual(expected.integrations.map((i) => i.name).sort());
      const hooks = await app.inject({ method: 'GET', url: '/api/hook?limit=50', headers });
      const names = hooks.json().data.map((h: { lead: { name?: string } | null }) => h.lead?.name);
      expect(names).toContain(expected.leads.sample.name);
    } finally {
      await app.close();
    }
  });
});

describe('into a database the app has already started on', () => {
  it('replaces the seeded catalogue with the old install’s own', async () => {
    const targetUrl = await newDatabase();
    const folder = migrationsFolder(expected.migrations.applied);
    const target = await connect(targetUrl);
    try {
      await migrate(drizzle(target), { migrationsFolder: folder });
      // The app of the export's build seeded its catalogue (the rows; later builds' seed needs later tables).
      await seedCatalogueRows(drizzle(target));
      expect(await count(target, 'integration_settings')).toBeGreaterThan(0);
      await importPgliteData({ source, targetUrl, migrationsFolder: folder, log });
      for (const table of CATALOGUE) {
        const columns = await columnsOf(source, table);
        expect(await tableText(target, table, columns), table).toBe(await tableText(source, table, columns));
      }
      expect(await count(target, 'users')).toBe(expected.tables.users);
    } finally {
      await target.end();
    }
  });
});

describe('across migration levels', () => {
  it('runs the migrations the old data has not seen after copying it', async () => {
    const targetUrl = await newDatabase();
    const folder = migrationsFolder(expected.migrations.applied, [
      { tag: '9000_import_probe', sql: `ALTER TABLE "users" ADD COLUMN "import_probe" text DEFAULT 'later' NOT NULL;` },
    ]);
    await importPgliteData({ source, targetUrl, migrationsFolder: folder, log });
    const target = await connect(targetUrl);
    try {
      const users = await target.query('select login, import_probe from users order by login');
      expect(users.rows).toHaveLength(expected.tables.users!);
      expect(users.rows.every((r) => r.import_probe === 'later')).toBe(true);
      const migrations = await target.query('select count(*)::int as n from drizzle.__drizzle_migrations');
      expect(migrations.rows[0].n).toBe(expected.migrations.applied + 1);
    } finally {
      await target.end();
    }
  });

  it('refuses a database at the old data’s level that already holds an account, changing nothing', async () => {
    const targetUrl = await newDatabase();
    const folder = migrationsFolder(expected.migrations.applied);
    const target = await connect(targetUrl);
    try {
      await migrate(drizzle(target), { migrationsFolder: folder });
      await target.query(`insert into users (login, password_hash) values ('someone@example.com', 'x')`);
      await expect(importPgliteData({ source, targetUrl, migrationsFolder: folder, log })).rejects.toThrow(
        /already holds accounts/,
      );
      expect(await count(target, 'users')).toBe(1);
      expect(await count(target, 'integrations')).toBe(0);
    } finally {
      await target.end();
    }
  });

  it('refuses data written by a newer LeadRelay, before touching the new database', async () => {
    const targetUrl = await newDatabase();
    const older = migrationsFolder(expected.migrations.applied - 1);
    await expect(importPgliteData({ source, targetUrl, migrationsFolder: older, log })).rejects.toThrow(
      /written by a newer LeadRelay/,
    );
    const target = await connect(targetUrl);
    try {
      const tables = await target.query(
        `select count(*)::int as n from pg_tables where schemaname in ('public', 'drizzle')`,
      );
      expect(tables.rows[0].n).toBe(0);
    } finally {
      await target.end();
    }
  });

  it('refuses to copy as a role that is not a superuser, and says so', async () => {
    const base = inject('testDatabaseUrl');
    const role = `lr_import_role_${randomBytes(4).toString('hex')}`;
    const admin = await connect(base);
    await admin.query(`create role ${role} login password 'import-probe'`);
    dropAfterwards.push(async () => {
      const dropper = await connect(base);
      await dropper.query(`drop role if exists ${role}`);
      await dropper.end();
    });
    const targetUrl = await newDatabase();
    const url = new URL(targetUrl);
    await admin.query(`alter database ${url.pathname.slice(1)} owner to ${role}`);
    await admin.end();
    url.username = role;
    url.password = 'import-probe';
    await expect(
      importPgliteData({ source, targetUrl: url.toString(), migrationsFolder: MIGRATIONS, log }),
    ).rejects.toThrow(/as a superuser/);
    const target = await connect(targetUrl);
    try {
      expect(await count(target, 'users')).toBe(0);
    } finally {
      await target.end();
    }
  });

  it('refuses a new database already migrated past the old data', async () => {
    const targetUrl = await newDatabase();
    const later = migrationsFolder(expected.migrations.applied, [{ tag: '9000_later', sql: 'SELECT 1;' }]);
    const target = await connect(targetUrl);
    try {
      await migrate(drizzle(target), { migrationsFolder: later });
      await expect(importPgliteData({ source, targetUrl, migrationsFolder: later, log })).rejects.toThrow(
        /already at a later migration/,
      );
      expect(await count(target, 'users')).toBe(0);
    } finally {
      await target.end();
    }
  });
});
