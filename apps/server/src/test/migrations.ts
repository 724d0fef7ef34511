// A database as an earlier build left it: the migrations this build ships, up to (not including) one.
import { cpSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { MIGRATIONS_FOLDER } from '../db/client';
import { readJournal } from '../db/migrations-journal';

/** A migrations folder that stops before the migration tagged `before`; `remove()` deletes it. */
export function migrationsBefore(before: string): { folder: string; remove: () => void } {
  const folder = mkdtempSync(join(tmpdir(), 'leadrelay-migrations-'));
  cpSync(MIGRATIONS_FOLDER, folder, { recursive: true });
  const journal = readJournal(MIGRATIONS_FOLDER);
  const at = journal.entries.findIndex((e) => e.tag === before);
  if (at <= 0) throw new Error(`no migration ${before}`);
  writeFileSync(
    join(folder, 'meta', '_journal.json'),
    JSON.stringify({ ...journal, entries: journal.entries.slice(0, at) }),
  );
  return { folder, remove: () => rmSync(folder, { recursive: true, force: true }) };
}
