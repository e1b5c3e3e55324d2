import type SQLite from 'better-sqlite3';
import { onWrite, recordReads, sqliteFileOf, type Db } from '../db';

/** The most text the kept answers of one database hold (characters of JSON, mostly one byte each). */
const CHARS_KEPT = 32 * 1024 * 1024;

type Entry = { body: string; tables: string[]; stamp: number; foreign: number; until: number };
type Store = {
  entries: Map<string, Entry>;
  chars: number;
  /** Raised by every write heard; a write's tables are stamped with it. */
  clock: number;
  written: Map<string, number>;
  /** Writes to the database by other connections (SQLite's data_version: the command line, another process). */
  foreign: () => number;
};
const stores = new WeakMap<Db, Store | null>();

/**
 * What a write to each table may write besides: its triggers' targets (a domain's write raises its site's
 * `domains_version`) and the tables whose foreign keys act on it (a site's deletion deletes its domains), followed
 * to their end.
 */
function sideWrites(file: SQLite.Database) {
  const direct = new Map<string, Set<string>>();
  const add = (from: string, to: string) => (direct.get(from) ?? direct.set(from, new Set()).get(from)!).add(to);
  for (const t of file.prepare(`SELECT tbl_name AS "table", sql FROM sqlite_master WHERE type = 'trigger'`).all() as { table: string; sql: string }[]) {
    const body = t.sql.slice(t.sql.search(/\bbegin\b/i));
    for (const m of body.matchAll(/\b(?:update(?:\s+or\s+\w+)?|into|delete\s+from)\s+"?(\w+)/gi)) add(t.table, m[1]);
  }
  for (const { name } of file.prepare(`SELECT name FROM sqlite_master WHERE type = 'table'`).all() as { name: string }[]) {
    for (const fk of file.pragma(`foreign_key_list("${name}")`) as { table: string; on_update: string; on_delete: string }[]) {
      if ([fk.on_update, fk.on_delete].some((action) => !['NO ACTION', 'RESTRICT'].includes(action))) add(fk.table, name);
    }
  }
  const closure = new Map<string, string[]>();
  for (const from of direct.keys()) {
    const reached = new Set<string>();
    const walk = (t: string) => direct.get(t)?.forEach((to) => !reached.has(to) && (reached.add(to), walk(to)));
    walk(from);
    closure.set(from, [...reached]);
  }
  return closure;
}

function storeOf(db: Db): Store | null {
  const known = stores.get(db);
  if (known !== undefined) return known;
  const file = sqliteFileOf(db);
  if (!file) {
    stores.set(db, null);
    return null;
  }
  const version = file.prepare('PRAGMA data_version').pluck();
  const side = sideWrites(file);
  const store: Store = { entries: new Map(), chars: 0, clock: 0, written: new Map(), foreign: () => version.get() as number };
  onWrite(db, (tables) => {
    const at = ++store.clock;
    for (const t of tables) {
      store.written.set(t, at);
      side.get(t)?.forEach((s) => store.written.set(s, at));
    }
  });
  stores.set(db, store);
  return store;
}

/** Whether a table was written since `stamp`: `*` (a raw write whose table is not known) counts for every table. */
const writtenSince = (store: Store, tables: Iterable<string>, stamp: number) => {
  const everything = store.written.get('*') ?? 0;
  if (everything > stamp) return true;
  for (const t of tables) if ((store.written.get(t) ?? 0) > stamp) return true;
  return false;
};

function drop(store: Store, key: string) {
  const entry = store.entries.get(key);
  if (!entry) return;
  store.entries.delete(key);
  store.chars -= entry.body.length;
}

/**
 * The answer kept under `key`, while none of the tables its reading named has been written since, through this
 * process or by another connection to the database, and until the time its reading said it changes (`readsChangeAt`).
 */
export function keptAnswer(db: Db, key: string): string | undefined {
  const store = storeOf(db);
  const entry = store?.entries.get(key);
  if (!store || !entry) return undefined;
  if (entry.foreign === store.foreign() && Date.now() < entry.until && !writtenSince(store, entry.tables, entry.stamp)) return entry.body;
  drop(store, key);
  return undefined;
}

/**
 * The answer `read` gives, kept under `key` with the tables its statements named (see `recordReads`). Not kept when
 * one of them was written while it read, or when another connection wrote meanwhile. Only the embedded SQLite keeps
 * answers: with several API instances on PostgreSQL, a write through another
 * instance would not be heard in time.
 */
export async function keepAnswer(db: Db, key: string, read: () => Promise<string>): Promise<string> {
  const store = storeOf(db);
  if (!store) return read();
  const stamp = store.clock;
  const foreign = store.foreign();
  const reads = recordReads(db);
  let body: string;
  try {
    body = await read();
  } finally {
    reads.stop();
  }
  if (!reads.known || foreign !== store.foreign() || writtenSince(store, reads.tables, stamp)) return body;
  drop(store, key);
  store.entries.set(key, { body, tables: [...reads.tables], stamp, foreign, until: reads.until });
  store.chars += body.length;
  for (const oldest of store.entries.keys()) {
    if (store.chars <= CHARS_KEPT) break;
    drop(store, oldest);
  }
  return body;
}
