// The server suites run on PostgreSQL: TEST_DATABASE_URL when set (npm test sets it to the cluster
// it made for the run), otherwise an embedded cluster made here for this Vitest run alone.
import type { TestProject } from 'vitest/node';
import { startTemporaryCluster } from '../db/embedded-postgres';

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
  const cluster = await startTemporaryCluster('leadrelay-vitest');
  project.provide('testDatabaseUrl', cluster.url);
  return () => cluster.stop();
}
