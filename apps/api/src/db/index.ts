import fs from 'node:fs';
import path from 'node:path';
import SQLite from 'better-sqlite3';
import { Kysely, PostgresDialect, SqliteDialect } from 'kysely';
import pg from 'pg';
import type { Database } from './schema';

export type Db = Kysely<Database>;
export type Dialect = 'sqlite' | 'postgres';
export type DbHandle = { db: Db; dialect: Dialect };

/** PostgreSQL when a URL is given, otherwise the embedded SQLite file in the data directory. */
export function openDatabase(opts: { databaseUrl?: string; dataDir: string }): DbHandle {
  if (opts.databaseUrl) {
    // BIGINT and COUNT(*) arrive as numbers, as they do from SQLite; no value here exceeds 2^53.
    pg.types.setTypeParser(pg.types.builtins.INT8, (v) => Number(v));
    const pool = new pg.Pool({ connectionString: opts.databaseUrl, max: 10 });
    return { db: new Kysely<Database>({ dialect: new PostgresDialect({ pool }) }), dialect: 'postgres' };
  }
  fs.mkdirSync(opts.dataDir, { recursive: true });
  const file = new SQLite(path.join(opts.dataDir, 'edgekeep.sqlite'));
  file.pragma('journal_mode = WAL');
  file.pragma('foreign_keys = ON');
  file.pragma('busy_timeout = 5000');
  return { db: new Kysely<Database>({ dialect: new SqliteDialect({ database: file }) }), dialect: 'sqlite' };
}

export const now = () => new Date().toISOString();
export const inSeconds = (seconds: number, from = Date.now()) => new Date(from + seconds * 1000).toISOString();
/** COUNT(*) arrives as a string from PostgreSQL and a number from SQLite. */
/** Rows in slices small enough for one statement's bound parameters (SQLite takes at most 32,766 in one). */
export const inBatches = <T>(rows: T[], size = 500) => Array.from({ length: Math.ceil(rows.length / size) }, (_, i) => rows.slice(i * size, (i + 1) * size));

export const toCount = (v: string | number | bigint | undefined | null) => Number(v ?? 0);
