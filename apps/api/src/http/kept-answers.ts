import type SQLite from 'better-sqlite3';
import { sql } from 'kysely';
import { hearWrites, onWrite, recordReads, sqliteFileOf, type Db } from '../db';

/** The most text the kept answers of one database hold (characters of JSON, mostly one byte each). */
const CHARS_KEPT = 32 * 1024 * 1024;
/** PostgreSQL: how long an answer is kept at most (see `Store.lifetime`). */
const UNHEARD_SEEN_MS = 30_000;

type Entry = { body: string; tables: string[]; stamp: number; mark: number; until: number };
type Store = {
  entries: Map<string, Entry>;
  chars: number;
  /** Raised by every write heard; a write's tables are stamped with it. */
  clock: number;
  written: Map<string, number>;
  /**
   * What says whether writes may have gone unheard: SQLite's `data_version` (another connection committed: the
   * command line, another process), PostgreSQL's listening connection (undefined while none listens). An answer is
   * kept with it and dropped when it changes.
   */
  mark: () => number | undefined;
  /** PostgreSQL: resolves once every write committed before it was asked for has been heard (see `Listening`). */
  caughtUp?: () => Promise<void>;
  /**
   * PostgreSQL: how long an answer is kept at most (ms). An instance tells a write made outside a transaction just
   * after it (`writeTellingClient`; a transaction's with its commit): one killed between the two leaves the write
   * unheard, seen by the others within this time.
   */
  lifetime?: number;
};
const stores = new WeakMap<Db, Store | null>();

/** A foreign key's action (cascade, set null or its default) on a deletion of the table it names, and on an update of its key. */
type Cascade = { from: string; to: string; onDelete: boolean; onUpdate: boolean };
type Sides = { triggers: { table: string; body: string }[]; cascades: Cascade[] };

/**
 * What a write to each table may write besides: its triggers' targets (a domain's write raises its site's
 * `domains_version`) and, when rows may have been deleted, the tables whose foreign keys act on a deletion (a site's
 * deletion deletes its domains), followed to their end. Keyed by the table for a write, by `-table` for a deletion:
 * an update of a zone's revision reaches none of what hangs off the zone, its deletion all of it.
 */
function sideWrites({ triggers, cascades }: Sides) {
  const direct = new Map<string, Set<string>>();
  const add = (from: string, to: string) => (direct.get(from) ?? direct.set(from, new Set()).get(from)!).add(to);
  for (const t of triggers) {
    for (const m of t.body.matchAll(/\b(update(?:\s+or\s+\w+)?|into|delete\s+from)\s+"?(\w+)/gi)) {
      const to = /^delete/i.test(m[1]) ? `-${m[2]}` : m[2];
      add(t.table, to);
      add(`-${t.table}`, to);
    }
  }
  for (const c of cascades) {
    if (c.onDelete) add(`-${c.from}`, `-${c.to}`);
    if (c.onUpdate) [c.from, `-${c.from}`].forEach((from) => add(from, `-${c.to}`));
  }
  const closure = new Map<string, string[]>();
  for (const from of direct.keys()) {
    const reached = new Set<string>();
    const walk = (t: string) => direct.get(t)?.forEach((to) => !reached.has(to) && (reached.add(to), walk(to)));
    walk(from);
    closure.set(from, [...new Set([...reached].map((t) => t.replace(/^-/, '')))]);
  }
  return closure;
}

function sqliteSides(file: SQLite.Database): Sides {
  const triggers = (file.prepare(`SELECT tbl_name AS "table", sql FROM sqlite_master WHERE type = 'trigger'`).all() as { table: string; sql: string }[]).map((t) => ({
    table: t.table,
    body: t.sql.slice(t.sql.search(/\bbegin\b/i)),
  }));
  const cascades: Cascade[] = [];
  const acts = (action: string) => !['NO ACTION', 'RESTRICT'].includes(action);
  for (const { name } of file.prepare(`SELECT name FROM sqlite_master WHERE type = 'table'`).all() as { name: string }[]) {
    for (const fk of file.pragma(`foreign_key_list("${name}")`) as { table: string; on_update: string; on_delete: string }[]) {
      if (acts(fk.on_update) || acts(fk.on_delete)) cascades.push({ from: fk.table, to: name, onDelete: acts(fk.on_delete), onUpdate: acts(fk.on_update) });
    }
  }
  return { triggers, cascades };
}

async function postgresSides(db: Db): Promise<Sides> {
  const triggers = await sql<{ table: string; body: string }>`
    SELECT c.relname AS "table", p.prosrc AS body FROM pg_trigger t
    JOIN pg_class c ON c.oid = t.tgrelid JOIN pg_namespace n ON n.oid = c.relnamespace JOIN pg_proc p ON p.oid = t.tgfoid
    WHERE n.nspname = current_schema() AND NOT t.tgisinternal`.execute(db);
  // a foreign key that acts (cascades, sets null or its default) on an update or delete of the table it names
  const cascades = await sql<Cascade>`
    SELECT r.relname AS "from", c.relname AS "to", k.confdeltype NOT IN ('a', 'r') AS "onDelete", k.confupdtype NOT IN ('a', 'r') AS "onUpdate" FROM pg_constraint k
    JOIN pg_class c ON c.oid = k.conrelid JOIN pg_class r ON r.oid = k.confrelid JOIN pg_namespace n ON n.oid = c.relnamespace
    WHERE k.contype = 'f' AND n.nspname = current_schema() AND (k.confupdtype NOT IN ('a', 'r') OR k.confdeltype NOT IN ('a', 'r'))`.execute(db);
  return { triggers: triggers.rows, cascades: cascades.rows };
}

function storeOf(db: Db): Store | null {
  const known = stores.get(db);
  if (known !== undefined) return known;
  const file = sqliteFileOf(db);
  if (file) {
    const version = file.prepare('PRAGMA data_version').pluck();
    return made(db, { mark: () => version.get() as number }, sideWrites(sqliteSides(file)));
  }
  const hearing = hearWrites(db);
  if (!hearing) return made(db, null);
  // nothing is kept until it listens; a start that failed is tried again by the next call
  stores.set(db, null);
  Promise.all([hearing, postgresSides(db)]).then(
    ([listening, sides]) => made(db, { mark: listening.connection, caughtUp: listening.caughtUp, lifetime: UNHEARD_SEEN_MS }, sideWrites(sides)),
    () => stores.delete(db),
  );
  return null;
}

/** The store of `db`, hearing its writes and what they write besides (`sideWrites`). */
function made(db: Db, how: Pick<Store, 'mark' | 'caughtUp' | 'lifetime'> | null, side?: Map<string, string[]>) {
  if (!how) {
    stores.set(db, null);
    return null;
  }
  const store: Store = { entries: new Map(), chars: 0, clock: 0, written: new Map(), ...how };
  onWrite(db, (tables, deleting) => {
    const at = ++store.clock;
    for (const t of tables) {
      store.written.set(t, at);
      side?.get(deleting ? `-${t}` : t)?.forEach((s) => store.written.set(s, at));
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

const fresh = (store: Store, entry: Entry) => entry.mark === store.mark() && Date.now() < entry.until && !writtenSince(store, entry.tables, entry.stamp);

/**
 * The answer kept under `key`, while none of the tables its reading named has been written since, through this
 * process or by another connection to the database, and until the time its reading said it changes (`readsChangeAt`).
 * On PostgreSQL once every write committed before the call has been heard.
 */
export function keptAnswer(db: Db, key: string): string | undefined | Promise<string | undefined> {
  const store = storeOf(db);
  const entry = store?.entries.get(key);
  if (!store || !entry) return undefined;
  const answer = () => {
    if (fresh(store, entry)) return entry.body;
    if (store.entries.get(key) === entry) drop(store, key);
    return undefined;
  };
  if (!store.caughtUp) return answer();
  // one already known to be stale is read again without waiting for the round trip
  if (answer() === undefined) return undefined;
  return store.caughtUp().then(answer, () => undefined);
}

/**
 * The answer `read` gives, reading through the handle it is given, kept under `key` with the tables its statements
 * named (see `recordReads`). Not kept when it ran no statement through the handle, when one of its tables was written
 * while it read, or when writes may have gone unheard meanwhile (SQLite: another connection wrote; PostgreSQL: the
 * listening connection dropped). On PostgreSQL a write committed while it read, by any instance, is heard at the
 * latest when the answer is next asked for (`keptAnswer`), and drops it then.
 */
export async function keepAnswer(db: Db, key: string, read: (db: Db) => Promise<string>): Promise<string> {
  const store = storeOf(db);
  if (!store) return read(db);
  const stamp = store.clock;
  const mark = store.mark();
  if (mark === undefined) return read(db);
  const { value: body, reads } = await recordReads(db, read);
  if (!reads.known || !reads.tables.size || mark !== store.mark() || writtenSince(store, reads.tables, stamp)) return body;
  drop(store, key);
  const until = store.lifetime ? Math.min(reads.until, Date.now() + store.lifetime) : reads.until;
  store.entries.set(key, { body, tables: [...reads.tables], stamp, mark, until });
  store.chars += body.length;
  for (const oldest of store.entries.keys()) {
    if (store.chars <= CHARS_KEPT) break;
    drop(store, oldest);
  }
  return body;
}
