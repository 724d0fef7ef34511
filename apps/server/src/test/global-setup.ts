// The server suites run on PostgreSQL: TEST_DATABASE_URL when set (npm test sets it to the cluster
// it made for the run), otherwise an embedded cluster made here for this Vitest run alone.
import { chmodSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { TestProject } from 'vitest/node';
import { startEmbeddedPostgres } from '../db/embedded-postgres';

declare module 'vitest' {
  export interface ProvidedContext {
    /** A server the tests may create databases on (its `postgres` database). */
    testDatabaseUrl: string;
  }
}

export default async function setup(project: TestProject): Promise<(() => Promise<void>) | undefined> {
  const given = process.env.TEST_DATABASE_URL;
  if (given) {
    project.provide('testDatabaseUrl', given);
    return undefined;
  }
  const dir = mkdtempSync(join(tmpdir(), 'leadrelay-vitest-'));
  chmodSync(dir, 0o755); // as root, the cluster's own user must reach its folder
  const cluster = await startEmbeddedPostgres({ dataDir: dir, ephemeral: true });
  project.provide('testDatabaseUrl', cluster.url);
  return async () => {
    await cluster.stop();
    rmSync(dir, { recursive: true, force: true });
  };
}
