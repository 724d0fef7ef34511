// drizzle-kit's journal of the migrations this build ships, and where drizzle-orm's migrator
// records what it applied: one row per migration, created_at being the journal entry's `when`.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';

export interface JournalEntry {
  tag: string;
  when: number;
}

export interface Journal {
  entries: JournalEntry[];
}

export const MIGRATIONS_TABLE = 'drizzle.__drizzle_migrations';

export function readJournal(folder: string): Journal {
  return JSON.parse(readFileSync(join(folder, 'meta', '_journal.json'), 'utf8')) as Journal;
}
