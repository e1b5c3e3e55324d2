import type { DuckDBConnection, DuckDBValue } from '@duckdb/node-api';

export type Params = DuckDBValue[];

export const rows = async (conn: DuckDBConnection, sql: string, params: Params = []) =>
  (await conn.runAndReadAll(sql, params)).getRowObjectsJS() as Record<string, unknown>[];

/** A time as DuckDB reads a TIMESTAMP (UTC, no zone). */
export const stamp = (d: Date) => d.toISOString().replace('T', ' ').replace(/Z$/, '');

/** A list of ids written into SQL: only integers get there. */
export const idList = (ids: number[]) => {
  for (const id of ids) if (!Number.isSafeInteger(id)) throw new Error(`not an id: ${id}`);
  return ids.join(', ');
};

/** Binds a value and answers its placeholder. */
export const binder = (params: Params) => (value: DuckDBValue) => {
  params.push(value);
  return `$${params.length}`;
};

/** The sum of a counter as a JS number (DuckDB answers HUGEINT sums as bigint). */
export const num = (v: unknown) => Number(v ?? 0);
