// Copies every table of the old database's public schema into the target, in one transaction.
// Rows travel as JSON text (json_agg on the old side, json_populate_recordset on the new one), so
// PostgreSQL converts every value itself and nothing is parsed into JavaScript numbers or dates.
import pg from 'pg';
import type { SqlSource } from './pglite-load';

// Webhook bodies may reach 1 MB each: 500 rows keep one batch's JSON within a few hundred MB.
const BATCH_ROWS = 500;
const INSUFFICIENT_PRIVILEGE = '42501';

/** The import cannot go on: the message says why and what to do, for the person running it. */
export class PgliteImportError extends Error {
  override name = 'PgliteImportError';
}

const quoteIdent = (name: string) => pg.escapeIdentifier(name);
const tableRef = (table: string) => `${quoteIdent('public')}.${quoteIdent(table)}`;

/** pg's client as a SqlSource, so both databases are read by the same helpers. */
export function sqlSourceOf(client: pg.Client): SqlSource {
  return {
    async query<T extends object>(sql: string, params?: unknown[]) {
      return { rows: (await client.query(sql, params)).rows as T[] };
    },
  };
}

async function publicTables(db: SqlSource): Promise<string[]> {
  const { rows } = await db.query<{ name: string }>(
    `select tablename as name from pg_tables where schemaname = 'public' order by tablename`,
  );
  return rows.map((r) => r.name);
}

async function columnsOf(db: SqlSource, table: string): Promise<{ name: string; generated: boolean }[]> {
  const { rows } = await db.query<{ name: string; generated: boolean }>(
    `select attname as name, attgenerated <> '' as generated from pg_attribute
      where attrelid = $1::regclass and attnum > 0 and not attisdropped order by attnum`,
    [tableRef(table)],
  );
  return rows;
}

/** ORDER BY for stable batches: the primary key, else the physical order (nothing else writes). */
async function batchOrder(db: SqlSource, table: string): Promise<string> {
  const { rows } = await db.query<{ name: string }>(
    `select a.attname as name from pg_index i
       join pg_attribute a on a.attrelid = i.indrelid and a.attnum = any(i.indkey)
      where i.indrelid = $1::regclass and i.indisprimary
      order by array_position(i.indkey::int2[], a.attnum)`,
    [tableRef(table)],
  );
  return rows.length ? rows.map((r) => quoteIdent(r.name)).join(', ') : 'ctid';
}

async function countRows(db: SqlSource, table: string): Promise<number> {
  const { rows } = await db.query<{ n: string }>(`select count(*)::text as n from ${tableRef(table)}`);
  return Number(rows[0]?.n ?? 0);
}

async function copyTable(source: SqlSource, target: SqlSource, table: string): Promise<number> {
  const sourceColumns = await columnsOf(source, table);
  const targetColumns = await columnsOf(target, table);
  const missing = sourceColumns.filter((c) => !targetColumns.some((t) => t.name === c.name));
  if (missing.length) {
    throw new PgliteImportError(
      `table ${table}: the new database has no column ${missing.map((c) => c.name).join(', ')}; the schemas differ although their migrations match, so nothing was imported`,
    );
  }
  // Generated columns compute themselves; a column only the target has keeps its default.
  const copied = targetColumns.filter((t) => !t.generated && sourceColumns.some((c) => c.name === t.name));
  const list = copied.map((c) => quoteIdent(c.name)).join(', ');
  const total = await countRows(source, table);
  const order = await batchOrder(source, table);
  for (let offset = 0; offset < total; offset += BATCH_ROWS) {
    const { rows } = await source.query<{ batch: string | null }>(
      `select json_agg(t)::text as batch from
        (select * from ${tableRef(table)} order by ${order} limit ${BATCH_ROWS} offset ${offset}) t`,
    );
    const batch = rows[0]?.batch;
    if (!batch) break;
    // OVERRIDING SYSTEM VALUE: identity columns (deliveries.seq) keep the old numbers.
    await target.query(
      `insert into ${tableRef(table)} (${list}) overriding system value
       select ${list} from json_populate_recordset(null::${tableRef(table)}, $1::json)`,
      [batch],
    );
  }
  const landed = await countRows(target, table);
  if (landed !== total) {
    throw new PgliteImportError(`table ${table}: ${total} rows in the old database but ${landed} copied`);
  }
  return total;
}

/** Serial and identity sequences continue after the copied ids (login_failures.id, deliveries.seq). */
async function resetSequences(target: SqlSource, tables: string[]): Promise<void> {
  const { rows } = await target.query<{ table: string; column: string; seq: string }>(
    `select c.relname as table, a.attname as column, s.seq
       from pg_class c
       join pg_namespace n on n.oid = c.relnamespace
       join pg_attribute a on a.attrelid = c.oid and a.attnum > 0 and not a.attisdropped
       cross join lateral (select pg_get_serial_sequence(format('%I.%I', n.nspname, c.relname), a.attname) as seq) s
      where n.nspname = 'public' and c.relkind = 'r' and c.relname = any($1) and s.seq is not null`,
    [tables],
  );
  for (const { table, column, seq } of rows) {
    await target.query(
      `select setval(s.seqrelid, coalesce(m.v, s.seqstart), m.v is not null)
         from pg_sequence s, (select max(${quoteIdent(column)}) as v from ${tableRef(table)}) m
        where s.seqrelid = $1::regclass`,
      [seq],
    );
  }
}

/**
 * Copies every public table of `source` into `target` (which must be at the same migration level)
 * in one transaction, and answers the row count of each. Refuses a target that holds accounts;
 * other rows there (the catalogue the app seeds at every start) are replaced by the old ones.
 */
export async function copyTables(
  source: SqlSource,
  client: pg.Client,
  log: (line: string) => void,
): Promise<Record<string, number>> {
  const target = sqlSourceOf(client);
  const tables = await publicTables(source);
  const targetTables = new Set(await publicTables(target));
  const absent = tables.filter((t) => !targetTables.has(t));
  if (absent.length) {
    throw new PgliteImportError(`the new database has no table ${absent.join(', ')}; nothing was imported`);
  }
  await client.query('begin');
  try {
    const { rows } = await client.query<{ taken: boolean }>('select exists (select 1 from users) as taken');
    if (rows[0]?.taken) {
      throw new PgliteImportError(
        'the new database already holds accounts; import only into a new, empty database (nothing was changed)',
      );
    }
    try {
      // Foreign keys are checked by triggers, which do not fire for a replica: tables go in any order.
      await client.query('set local session_replication_role = replica');
    } catch (error) {
      if ((error as { code?: string }).code !== INSUFFICIENT_PRIVILEGE) throw error;
      throw new PgliteImportError(
        'the import must connect to the new database as a superuser (it sets session_replication_role); nothing was changed',
      );
    }
    for (const table of tables) await client.query(`delete from ${tableRef(table)}`);
    const counts: Record<string, number> = {};
    for (const table of tables) {
      counts[table] = await copyTable(source, target, table); // own-keys: our schema's table names
      log(`${table}: ${counts[table]} rows`);
    }
    await resetSequences(target, tables);
    await client.query('commit');
    return counts;
  } catch (error) {
    await client.query('rollback').catch(() => {});
    throw error;
  }
}
