// A PostgreSQL cluster as initdb leaves it, made once per run (by the first test that asks) and
// copied into the data folders of tests that need a cluster but do not test its creation: initdb
// took seconds per folder. db/embedded-postgres.test.ts keeps covering a first start's initdb.
import { execFileSync } from 'node:child_process';
import { chmodSync, existsSync, mkdtempSync, renameSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { inject } from 'vitest';
import { createCluster } from '../db/embedded-postgres';

async function readyCluster(): Promise<string> {
  const ready = join(inject('readyClusterFolder'), 'postgres');
  if (existsSync(join(ready, 'PG_VERSION'))) return ready;
  // Made aside, then renamed: a worker finding it there finds it complete. Two making it at once
  // both succeed; the second rename fails (the folder is not empty) and its copy is dropped.
  const making = mkdtempSync(join(inject('readyClusterFolder'), 'making-'));
  chmodSync(making, 0o755); // as root, the cluster's own user must reach it
  try {
    await createCluster(making);
    renameSync(join(making, 'postgres'), ready);
  } catch (error) {
    if (!existsSync(join(ready, 'PG_VERSION'))) throw error;
  } finally {
    rmSync(making, { recursive: true, force: true });
  }
  return ready;
}

/** Gives `dataDir` an initialised cluster (`<dataDir>/postgres`), owned as initdb left it. */
export async function seedCluster(dataDir: string): Promise<void> {
  execFileSync('cp', ['-a', await readyCluster(), join(dataDir, 'postgres')]);
}
