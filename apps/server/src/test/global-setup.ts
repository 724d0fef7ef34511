// The server suites run on PostgreSQL: TEST_DATABASE_URL when set (npm test sets it to the cluster
// it made for the run), otherwise an embedded cluster made here for this Vitest run alone.
// Every test app starts on a copy of one database migrated here once (`CREATE DATABASE … TEMPLATE`):
// running every migration for each of some 80 test files was a large part of the suite's time.
import { randomBytes } from 'node:crypto';
import { chmodSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { drizzle } from 'drizzle-orm/node-postgres';
import { migrate } from 'drizzle-orm/node-postgres/migrator';
import pg from 'pg';
import type { TestProject } from 'vitest/node';
import { MIGRATIONS_FOLDER } from '../db/client';
import { startTemporaryCluster } from '../db/embedded-postgres';

declare module 'vitest' {
  export interface ProvidedContext {
    /** A server the tests may create databases on (its `postgres` database). */
    testDatabaseUrl: string;
    /** A database on that server with every migration applied, to copy (never to connect to). */
    testTemplateDatabase: string;
    /** A folder of the run for test/ready-cluster.ts (removed after the run). */
    readyClusterFolder: string;
  }
}

async function onServer(url: string, sql: string): Promise<void> {
  const admin = new pg.Client({ connectionString: url });
  await admin.connect();
  try {
    await admin.query(sql);
  } finally {
    await admin.end();
  }
}

/** Makes the migrated template on `url`'s server; returns its name and how to drop it. */
async function migratedTemplate(url: string): Promise<{ name: string; drop: () => Promise<void> }> {
  const name = `lr_template_${randomBytes(6).toString('hex')}`;
  await onServer(url, `CREATE DATABASE ${name}`);
  const target = new URL(url);
  target.pathname = `/${name}`;
  const client = new pg.Client({ connectionString: target.toString() });
  await client.connect();
  try {
    await migrate(drizzle(client), { migrationsFolder: MIGRATIONS_FOLDER });
  } finally {
    await client.end();
  }
  return { name, drop: () => onServer(url, `DROP DATABASE IF EXISTS ${name} WITH (FORCE)`) };
}

export default async function setup(project: TestProject): Promise<() => Promise<void>> {
  const given = process.env.TEST_DATABASE_URL;
  const cluster = given ? undefined : await startTemporaryCluster('leadrelay-vitest');
  const url = given ?? cluster!.url;
  project.provide('testDatabaseUrl', url);
  const template = await migratedTemplate(url);
  project.provide('testTemplateDatabase', template.name);
  const readyClusterFolder = mkdtempSync(join(tmpdir(), 'leadrelay-ready-cluster-'));
  chmodSync(readyClusterFolder, 0o755); // as root, the cluster's own user must reach it
  project.provide('readyClusterFolder', readyClusterFolder);
  return async () => {
    rmSync(readyClusterFolder, { recursive: true, force: true });
    await template.drop().catch(() => {});
    await cluster?.stop();
  };
}
