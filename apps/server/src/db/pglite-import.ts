// The engine of the one-off command that moves an old install's PGlite database (DATA_DIR/pglite)
// into PostgreSQL: bring the target to the old data's migration level, copy every row, then run
// the remaining migrations, so the data goes through the same upgrade path as on any database.
import { copyFileSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { drizzle } from 'drizzle-orm/node-postgres';
import { migrate } from 'drizzle-orm/node-postgres/migrator';
import pg from 'pg';
import { type Journal, MIGRATIONS_TABLE, readJournal } from './migrations-journal';
import { copyTables, PgliteImportError, sqlSourceOf } from './pglite-copy';
import type { SqlSource } from './pglite-load';

export { PgliteImportError } from './pglite-copy';
export { loadPglite, type PgliteLike, type SqlSource } from './pglite-load';

export interface ImportPgliteOptions {
  /** The old database, e.g. `(await loadPglite()).create(join(dataDir, 'pglite'))`. */
  source: SqlSource;
  /** The PostgreSQL database to fill; normally new and empty. Needs a superuser. */
  targetUrl: string;
  /** apps/server/drizzle: the migrations this LeadRelay knows. */
  migrationsFolder: string;
  log?: (line: string) => void;
}

async function appliedMigrations(db: SqlSource): Promise<number[] | undefined> {
  const { rows } = await db.query<{ found: string | null }>(`select to_regclass($1)::text as found`, [
    MIGRATIONS_TABLE,
  ]);
  if (!rows[0]?.found) return undefined;
  const applied = await db.query<{ at: string }>(`select created_at::text as at from ${MIGRATIONS_TABLE} order by id`);
  return applied.rows.map((r) => Number(r.at));
}

/** How many journal entries `applied` covers, or undefined when it is not a prefix of the journal. */
function levelOf(applied: number[], journal: Journal): number | undefined {
  return applied.every((at, i) => journal.entries[i]?.when === at) ? applied.length : undefined;
}

const tagAt = (journal: Journal, level: number) => journal.entries[level - 1]?.tag ?? 'none';

/** Runs the first `level` migrations of the journal only, from a copy of the folder cut there. */
async function migrateTo(client: pg.Client, folder: string, journal: Journal, level: number): Promise<void> {
  const cut = mkdtempSync(join(tmpdir(), 'leadrelay-migrations-'));
  try {
    mkdirSync(join(cut, 'meta'));
    const entries = journal.entries.slice(0, level);
    for (const { tag } of entries) copyFileSync(join(folder, `${tag}.sql`), join(cut, `${tag}.sql`));
    writeFileSync(join(cut, 'meta', '_journal.json'), JSON.stringify({ ...journal, entries }));
    await migrate(drizzle(client), { migrationsFolder: cut });
  } finally {
    rmSync(cut, { recursive: true, force: true });
  }
}

/**
 * Copies every row of an old PGlite database into the PostgreSQL database at `targetUrl` and
 * brings that one up to date with `migrationsFolder`. Refuses (PgliteImportError, nothing changed)
 * when the old data comes from a newer LeadRelay, or the target holds accounts or is ahead of it.
 */
export async function importPgliteData(options: ImportPgliteOptions): Promise<{ tables: Record<string, number> }> {
  const log = options.log ?? (() => {});
  const journal = readJournal(options.migrationsFolder);
  const applied = await appliedMigrations(options.source);
  if (!applied?.length) {
    throw new PgliteImportError('the old database holds no LeadRelay data (it has no applied migrations)');
  }
  const level = levelOf(applied, journal);
  if (level === undefined) {
    throw new PgliteImportError(
      `the old database was written by a newer LeadRelay (${applied.length} migrations, ${journal.entries.length} known here): run the import with that version or a later one`,
    );
  }
  log(`the old database is at migration ${level} of ${journal.entries.length} (${tagAt(journal, level)})`);

  const client = new pg.Client({ connectionString: options.targetUrl });
  await client.connect();
  try {
    const targetApplied = (await appliedMigrations(sqlSourceOf(client))) ?? [];
    const targetLevel = levelOf(targetApplied, journal);
    if (targetLevel === undefined || targetLevel > level) {
      throw new PgliteImportError(
        `the new database is already at a later migration than the old data (${targetApplied.length}, the old data ${level}): import into a new, empty database`,
      );
    }
    await migrateTo(client, options.migrationsFolder, journal, level);
    const tables = await copyTables(options.source, client, log);
    await migrate(drizzle(client), { migrationsFolder: options.migrationsFolder });
    if (level < journal.entries.length) log(`migrated to ${tagAt(journal, journal.entries.length)}`);
    return { tables };
  } finally {
    await client.end();
  }
}
