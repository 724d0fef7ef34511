// A table's row sent by PostgreSQL as `to_jsonb(t)` in a constant statement (db/raw-sql.ts), read
// back into the row Drizzle would give: its columns by their TypeScript names, each mapped the way
// Drizzle maps the driver's value (timestamps to Dates, bigints in number mode to numbers). Lets a
// hot path load several tables' rows in one statement without building the query each time.
import { setOwn } from '@leadrelay/shared';
import { getTableColumns, type InferSelectModel } from 'drizzle-orm';
import type { PgTable } from 'drizzle-orm/pg-core';

type Mapper = (json: Record<string, unknown>) => Record<string, unknown>;
const mappers = new WeakMap<PgTable, Mapper>();

/** JSON columns arrive as JSON already: Drizzle's mapping would parse a string value a second time. */
const JSON_COLUMNS = new Set(['PgJson', 'PgJsonb']);

function mapperOf(table: PgTable): Mapper {
  let mapper = mappers.get(table);
  if (mapper) return mapper;
  const columns = Object.entries(getTableColumns(table)).map(([key, column]) => ({
    key,
    name: column.name,
    map: JSON_COLUMNS.has(column.columnType) ? undefined : (value: unknown) => column.mapFromDriverValue(value),
  }));
  mapper = (json) => {
    const row: Record<string, unknown> = {};
    for (const { key, name, map } of columns) {
      const value = Object.hasOwn(json, name) ? json[name] : undefined;
      setOwn(row, key, value === null || value === undefined ? null : map ? map(value) : value);
    }
    return row;
  };
  mappers.set(table, mapper);
  return mapper;
}

/** The row of `table` from its `to_jsonb` (null stays null: an outer join found none). */
export function rowFromJson<T extends PgTable>(table: T, json: unknown): InferSelectModel<T> | null {
  if (json === null || json === undefined) return null;
  return mapperOf(table)(json as Record<string, unknown>) as InferSelectModel<T>;
}
