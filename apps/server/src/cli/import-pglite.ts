// npm run db:import-pglite
// Copies the PGlite database of an earlier LeadRelay (DATA_DIR/pglite) into the embedded PostgreSQL
// of DATA_DIR (or into DATABASE_URL when set), once, with the app stopped. It reads a copy of the old
// folder, so the folder stays as it was; after a complete copy it is renamed to pglite.imported.
import { cpSync, existsSync, mkdtempSync, renameSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { loadEnv } from '../app-modules';
import { legacyPgliteDir, MIGRATIONS_FOLDER } from '../db/client';
import { lockDataDir } from '../db/data-dir-lock';
import { type EmbeddedPostgres, startEmbeddedPostgres } from '../db/embedded-postgres';
import { importPgliteData, loadPglite, PgliteImportError } from '../db/pglite-import';
import { StartupError } from '../db/startup-error';

const say = (line: string) => console.info(line);

/** pglite.imported, or pglite.imported-<n> when an earlier import left one. */
function importedName(dataDir: string): string {
  let name = join(dataDir, 'pglite.imported');
  for (let n = 2; existsSync(name); n++) name = join(dataDir, `pglite.imported-${n}`);
  return name;
}

async function run(): Promise<number> {
  const env = loadEnv();
  const oldDir = legacyPgliteDir(env.dataDir);
  if (!existsSync(join(oldDir, 'PG_VERSION'))) {
    console.error(`There is no PGlite database in ${oldDir}: nothing to import (is DATA_DIR right?)`);
    return 1;
  }
  // The app may not run meanwhile: it would start on an empty database (and it refuses to while
  // the old folder is there); with the embedded database the folder lock says so.
  const lock = env.databaseUrl ? undefined : lockDataDir(env.dataDir);
  let cluster: EmbeddedPostgres | undefined;
  const copy = mkdtempSync(join(tmpdir(), 'leadrelay-pglite-copy-'));
  try {
    const pglite = await loadPglite({ log: say });
    // PGlite replays its log when it opens a folder: it opens a copy, the original stays as it was.
    cpSync(oldDir, copy, { recursive: true });
    const source = await pglite.create(copy);
    try {
      cluster = env.databaseUrl
        ? undefined
        : await startEmbeddedPostgres({ dataDir: env.dataDir, log: { info: say, warn: say } });
      const targetUrl = env.databaseUrl ?? cluster!.url;
      const where = env.databaseUrl ? 'DATABASE_URL' : `the embedded PostgreSQL in ${join(env.dataDir, 'postgres')}`;
      say(`copying ${oldDir} into ${where}`);
      const { tables } = await importPgliteData({ source, targetUrl, migrationsFolder: MIGRATIONS_FOLDER, log: say });
      const rows = Object.values(tables).reduce((sum, n) => sum + n, 0);
      const renamed = importedName(env.dataDir);
      renameSync(oldDir, renamed);
      say(
        `Imported ${rows} rows of ${Object.keys(tables).length} tables. The old folder is now ${renamed}; delete it once the app runs as before.`,
      );
    } finally {
      await source.close();
    }
    return 0;
  } catch (error) {
    if (error instanceof PgliteImportError || error instanceof StartupError) {
      console.error(`Nothing was imported: ${error.message}`);
      return 1;
    }
    throw error;
  } finally {
    await cluster?.stop();
    lock?.release();
    rmSync(copy, { recursive: true, force: true });
  }
}

run().then(
  (code) => process.exit(code),
  (error) => {
    console.error(error instanceof StartupError ? error.message : error);
    process.exit(1);
  },
);
