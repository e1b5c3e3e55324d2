import { AsyncLocalStorage } from 'node:async_hooks';
import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import SQLite from 'better-sqlite3';
import { Kysely, PostgresDialect, sql, SqliteDialect, type CompiledQuery, type DatabaseConnection, type Dialect as KyselyDialect, type KyselyPlugin, type OperationNode, type QueryId, type RawNode, type SqliteDatabase } from 'kysely';
import pg from 'pg';
import type { Logger } from 'pino';
import { listen, type Listening } from './notices';
import type { Database } from './schema';
import { APP_NAME, WRITES_CHANNEL } from './write-notices';

export type Db = Kysely<Database>;
export type Dialect = 'sqlite' | 'postgres';
export type DbHandle = { db: Db; dialect: Dialect };

/** How long a request waits for a new PostgreSQL connection before it is answered as unavailable. */
const CONNECT_TIMEOUT_MS = 5000;

/**
 * PostgreSQL when a URL is given, otherwise the embedded SQLite file in the data directory. A pooled PostgreSQL
 * connection that the server drops while idle (a restart) is forgotten, and the next query opens a new one: the API
 * rides out a database restart without one of its own.
 */
export function openDatabase(opts: { databaseUrl?: string; dataDir: string; log?: Pick<Logger, 'warn'>; keptAnswers?: 'on' | 'off' | 'check' }): DbHandle {
  if (opts.databaseUrl) {
    // BIGINT and COUNT(*) arrive as numbers, as they do from SQLite; no value here exceeds 2^53.
    pg.types.setTypeParser(pg.types.builtins.INT8, (v) => Number(v));
    const server: Watch['server'] = { url: opts.databaseUrl, log: opts.log, tellsWrites: opts.keptAnswers !== 'off', tag: randomBytes(4).toString('hex') };
    const tables = statementTables(() => server.schema);
    const pool = new pg.Pool({ connectionString: opts.databaseUrl, application_name: APP_NAME, max: 10, connectionTimeoutMillis: CONNECT_TIMEOUT_MS, Client: writeTellingClient(server, tables) });
    // Without a listener a connection's error would end the process: an idle one's reaches the pool, one in use
    // between two queries its own client (its query fails, and the pool drops it when it is given back).
    const dropped = (err: Error) => opts.log?.warn({ err: { message: err.message } }, 'a database connection was dropped');
    pool.on('error', dropped);
    pool.on('connect', (client) => client.on('error', dropped));
    return { db: watched(new PostgresDialect({ pool }), { server, tables, verifiesReads: opts.keptAnswers === 'check' }), dialect: 'postgres' };
  }
  fs.mkdirSync(opts.dataDir, { recursive: true });
  const file = new SQLite(path.join(opts.dataDir, 'edgekeep.sqlite'));
  file.pragma('journal_mode = WAL');
  file.pragma('foreign_keys = ON');
  file.pragma('busy_timeout = 5000');
  let schema: Set<string> | undefined;
  const tables = statementTables(() => (schema ??= schemaTables(file)));
  // a statement that makes, changes or drops a table: the schema's tables are read again
  const database = preparedOnce(file, () => ((schema = undefined), tables.forget()));
  return { db: watched(new SqliteDialect({ database }), { file, tables, verifiesReads: opts.keptAnswers === 'check' }), dialect: 'sqlite' };
}

/** `deleting`: rows of them may have been deleted (what foreign keys act on), not only inserted or updated. */
type WriteListener = (tables: ReadonlySet<string>, deleting: boolean) => void;
/**
 * What the statements run through a read's handle named: their tables (`known` false on PostgreSQL before it listens,
 * and for a cursor's statement), and when what was read changes with the clock alone (epoch ms; see `readsChangeAt`).
 */
export type Reads = { tables: Set<string>; known: boolean; until: number };
/** The schema's tables a statement's text names (worked out once per text), undefined while the schema is not known. */
type StatementTables = ((text: string) => string[] | undefined) & { forget: () => void };
type Watch = {
  listeners: WriteListener[];
  file?: SQLite.Database;
  tables: StatementTables;
  /**
   * `KEPT_ANSWERS=check`: every statement a read's chain of calls runs is followed as well (`AsyncLocalStorage`), and
   * one that did not go through the read's handle fails the read (`recordReads`).
   */
  verifiesReads: boolean;
  /**
   * PostgreSQL's: where to listen for the writes of every connection (`hearWrites`), and the schema's tables once it
   * listens.
   */
  server?: {
    url: string;
    log?: Pick<Logger, 'warn'>;
    hearing?: Promise<Listening>;
    schema?: ReadonlySet<string>;
    /** Whether its connections tell their writes (not when no instance keeps answers: `KEPT_ANSWERS=off`). */
    tellsWrites: boolean;
    /** What its notices begin with: the instance hears its own writes at their commit, not from the server. */
    tag: string;
    /** Tells the listeners of `onWrite` (see `watched`). */
    tell?: WriteListener;
  };
};
const watches = new WeakMap<Db, Watch>();

/** The read whose handle built each statement (see `RecordingPlugin`). */
const readOfStatement = new WeakMap<QueryId, Reads>();
/** The plugin of a read's handle (`recordReads`): each statement built through it is known as the read's by its query id. */
class RecordingPlugin implements KyselyPlugin {
  constructor(readonly reads: Reads) {}
  transformQuery({ node, queryId }: { node: OperationNode; queryId: QueryId }) {
    readOfStatement.set(queryId, this.reads);
    return node as never;
  }
  async transformResult<R>({ result }: { result: R }) {
    return result;
  }
}
/**
 * `KEPT_ANSWERS=check`: the tables every statement of a read's chain of calls names, through its handle or not. Only
 * then: once used, Node runs a hook on every promise of the process (13 % of the API's CPU under the console's load).
 */
let followed: AsyncLocalStorage<Set<string>> | undefined;

/**
 * The dialect with the tables of each statement a read's handle built added to that read (`recordReads`): each
 * connection its driver gives out is told apart once.
 */
function recordingStatements(dialect: KyselyDialect, tables: StatementTables): KyselyDialect {
  const patched = new WeakSet<DatabaseConnection>();
  const record = (query: CompiledQuery, known: boolean) => {
    const reads = query.queryId && readOfStatement.get(query.queryId);
    const chain = followed?.getStore();
    if (!reads && !chain) return;
    const named = tables(query.sql);
    if (reads) {
      if (!named || !known) reads.known = false;
      else for (const t of named) reads.tables.add(t);
    }
    if (chain) for (const t of named ?? []) chain.add(t);
  };
  const patch = (connection: DatabaseConnection) => {
    if (patched.has(connection)) return connection;
    patched.add(connection);
    const executeQuery = connection.executeQuery.bind(connection) as DatabaseConnection['executeQuery'];
    const streamQuery = connection.streamQuery.bind(connection) as DatabaseConnection['streamQuery'];
    connection.executeQuery = (query) => (record(query, true), executeQuery(query));
    // a cursor's statement is not told apart from what runs meanwhile on its connection
    connection.streamQuery = (query, chunkSize) => (record(query, false), streamQuery(query, chunkSize));
    return connection;
  };
  return {
    createAdapter: () => dialect.createAdapter(),
    createIntrospector: (db) => dialect.createIntrospector(db),
    createQueryCompiler: () => dialect.createQueryCompiler(),
    createDriver: () => {
      const driver = dialect.createDriver();
      const acquire = driver.acquireConnection.bind(driver);
      driver.acquireConnection = async () => patch(await acquire());
      return driver;
    },
  };
}

/** Every table a statement names (its target, its subqueries' tables): more than it writes, never less. */
function tablesOf(node: unknown, into = new Set<string>()) {
  if (!node || typeof node !== 'object') return into;
  const n = node as { kind?: string; table?: { identifier?: { name?: string } } };
  if (n.kind === 'TableNode' && n.table?.identifier?.name) into.add(n.table.identifier.name);
  for (const v of Object.values(node)) if (v && typeof v === 'object') tablesOf(v, into);
  return into;
}

const WRITES = new Set(['InsertQueryNode', 'UpdateQueryNode', 'DeleteQueryNode', 'MergeQueryNode']);
/** The table a raw statement writes: `UPDATE nodes …`, `INSERT INTO …`, `DELETE FROM …`. */
const RAW_WRITE = /^\s*(?:update|insert\s+(?:or\s+\w+\s+)?into|replace\s+into|delete\s+from)\s+"?(\w+)/i;
/** A raw statement that changes the database (a write whose table RAW_WRITE does not find is told as `*`, every table). */
const RAW_CHANGE = /^\s*(?:with|insert|update|delete|replace|merge)\b/i;

/** A statement's text that may delete rows (more than those that do, never fewer). */
const MAY_DELETE = /\b(?:delete|truncate|drop|merge)\b/i;

/**
 * The tables a write statement writes: its target and those of the writes in its WITH clause, not the tables its
 * conditions and subqueries read (a deletion of automatic certificates whose domains stopped asking for one writes no
 * domain); every table it names when no target is found.
 */
function targetsOf(node: OperationNode): Set<string> {
  const n = node as { kind: string; into?: unknown; table?: unknown; from?: unknown; with?: { expressions?: { expression?: OperationNode }[] } };
  const tables = tablesOf(n.kind === 'UpdateQueryNode' ? n.table : n.kind === 'DeleteQueryNode' ? n.from : n.into);
  for (const cte of n.with?.expressions ?? []) if (cte.expression && WRITES.has(cte.expression.kind)) targetsOf(cte.expression).forEach((t) => tables.add(t));
  return tables.size ? tables : tablesOf(node);
}

/** The tables a statement writes and whether it may delete, or undefined when it only reads. */
function writtenBy(node: OperationNode): { tables: ReadonlySet<string>; deleting: boolean } | undefined {
  if (WRITES.has(node.kind)) return { tables: targetsOf(node), deleting: node.kind !== 'InsertQueryNode' && node.kind !== 'UpdateQueryNode' };
  if (node.kind !== 'RawNode') return undefined;
  const text = (node as RawNode).sqlFragments.join('?');
  if (!RAW_CHANGE.test(text)) return undefined;
  return { tables: new Set([RAW_WRITE.exec(text)?.[1] ?? '*']), deleting: MAY_DELETE.test(text) };
}

/**
 * The database with its writes heard: each insert, update and delete made through it (or a transaction of it), raw
 * SQL too, is told to the listeners of `onWrite` with its tables (`*` when a raw statement's are not known), both
 * before it runs and once it has run, so a reader that keeps what it read can drop it and never keep what it read
 * while the write was under way.
 */
function watched(dialect: PostgresDialect | SqliteDialect, where: Omit<Watch, 'listeners'>) {
  const watch: Watch = { listeners: [], ...where };
  const writing = new WeakMap<QueryId, { tables: ReadonlySet<string>; deleting: boolean }>();
  const tell: WriteListener = (tables, deleting) => watch.listeners.forEach((l) => l(tables, deleting));
  if (watch.server) watch.server.tell = tell;
  const plugin: KyselyPlugin = {
    transformQuery({ node, queryId }) {
      const write = writtenBy(node);
      if (write) {
        writing.set(queryId, write);
        tell(write.tables, write.deleting);
      }
      return node;
    },
    async transformResult({ result, queryId }) {
      const write = writing.get(queryId);
      if (write) tell(write.tables, write.deleting);
      return result;
    },
  };
  const db = new Kysely<Database>({ dialect: recordingStatements(dialect, watch.tables), plugins: [plugin] });
  watches.set(db, watch);
  return db;
}

/** Calls `listener` with the tables of every write made through `db` (see `watched`); a database opened otherwise has none. */
export function onWrite(db: Db, listener: WriteListener) {
  watches.get(db)?.listeners.push(listener);
}

/**
 * Runs `read` with a handle on `db` through which it reads (`read` is given it), recording the tables of every
 * statement run through the handle (a transaction or connection of it too): those of the read alone, not those of
 * calls running meanwhile. A statement `read` runs otherwise is not recorded; with `KEPT_ANSWERS=check` it fails the
 * read. On PostgreSQL, once `hearWrites` listens; before, `known` is false.
 */
export async function recordReads<T>(db: Db, read: (db: Db) => Promise<T>): Promise<{ value: T; reads: Reads }> {
  const reads: Reads = { tables: new Set(), known: true, until: Infinity };
  const watch = watches.get(db);
  if (!watch?.file && !watch?.server?.schema) return { value: await read(db), reads: { ...reads, known: false } };
  const handle = db.withPlugin(new RecordingPlugin(reads));
  if (!watch.verifiesReads) return { value: await read(handle), reads };
  const chain = new Set<string>();
  const value = await (followed ??= new AsyncLocalStorage()).run(chain, () => read(handle));
  const missed = [...chain].filter((t) => !reads.tables.has(t));
  if (missed.length && reads.known) throw new Error(`a read ran statements outside the handle it was given (tables ${missed.join(', ')})`);
  return { value, reads };
}

/**
 * Tells the read whose handle `db` is (see `recordReads`), if any, that what it read changes at `time` (epoch ms)
 * though no table is written then: a certificate's status once it is past its expiry.
 */
export function readsChangeAt(db: Db, time: number) {
  const plugin = db.getExecutor().plugins.find((p): p is RecordingPlugin => p instanceof RecordingPlugin);
  if (plugin) plugin.reads.until = Math.min(plugin.reads.until, time);
}

/**
 * PostgreSQL: listens for the writes of every connection to the database, once committed: every other API instance's
 * and the command line's (each tells its own: `writeTellingClient`), and any other's (the tables' triggers:
 * `noticeWrites`), and tells them to `onWrite`'s listeners, every table at once after a gap in listening. From then on
 * reads are recorded (`recordReads`). Once per database; undefined on SQLite, where no one else writes unseen
 * (another connection's commit changes its `data_version`).
 */
export function hearWrites(db: Db): Promise<Listening> | undefined {
  const server = watches.get(db)?.server;
  if (!server?.tell) return undefined;
  const tell = server.tell;
  // `tag:tables`, or `tag:tables:-` when rows may have been deleted, from an instance's connection (its own already
  // told); a table's name from a trigger (a deletion, for all it says)
  const heard = (notice = '*') => {
    const [from, tables, deleted] = notice.includes(':') ? notice.split(':') : ['', notice, '-'];
    if (from !== server.tag) tell(new Set(tables.split(',')), deleted === '-');
  };
  const hearing = (server.hearing ??= (async () => {
    const { rows } = await sql<{ name: string }>`SELECT tablename AS name FROM pg_tables WHERE schemaname = current_schema()`.execute(db);
    const listening = await listen({
      url: server.url,
      log: server.log ?? console,
      what: 'write notices',
      channels: { [WRITES_CHANNEL]: (notice) => heard(notice) },
      onGap: () => tell(new Set(['*']), true),
    });
    server.schema = new Set(rows.map((r) => r.name));
    return listening;
  })());
  // a failed start is tried again by the next to ask
  hearing.catch(() => server.hearing === hearing && (server.hearing = undefined));
  return hearing;
}

/** Stops listening for writes (see `hearWrites`): before the database is closed. */
export async function stopHearing(db: Db) {
  const server = watches.get(db)?.server;
  const hearing = server?.hearing;
  if (!server || !hearing) return;
  server.hearing = undefined;
  server.schema = undefined;
  await hearing.then((l) => l.close(), () => undefined);
}

/** Statements that open and end a transaction (`rollback to` a savepoint ends none). */
const OPENS = /^\s*(?:begin|start\s+transaction)\b/i;
const COMMITS = /^\s*(?:commit|end)\b/i;
const ROLLS_BACK = /^\s*(?:rollback|abort)\s*$/i;
/** A statement that may write: told with its target (`RAW_WRITE`), or when none is found with every table it names. */
const MAY_WRITE = /^\s*(?:insert|update|delete|merge|truncate|create|alter|drop|with\b[\s\S]*\b(?:insert|update|delete|merge)\b)/i;

type Query = (this: pg.Client, ...args: unknown[]) => unknown;

/**
 * PostgreSQL's client, telling the tables it writes once they are committed, before the caller goes on: to this
 * instance at once, and to every other on the database by a notice on WRITES_CHANNEL, sent on the same connection
 * right after the write (outside a transaction) or with its transaction's commit (one round trip, the notice in a
 * transaction of its own after the commit), so a call answered after a write finds it heard (`caughtUp`). A notice sent within the writing transaction would hold PostgreSQL's one notice lock across its
 * commit, and every writer behind it.
 */
function writeTellingClient(server: NonNullable<Watch['server']>, tablesOf: StatementTables) {
  const query = pg.Client.prototype.query as Query;
  class WriteTellingClient extends pg.Client {
    /** Tables written in the open transaction, undefined outside one; and whether it may have deleted rows. */
    writing: Set<string> | undefined;
    deleting = false;
  }
  Object.defineProperty(WriteTellingClient.prototype, 'query', {
    value(this: WriteTellingClient, text: unknown, ...rest: unknown[]) {
      if (typeof text !== 'string') return query.call(this, text, ...rest);
      let written: Iterable<string> | undefined;
      let deleting = false;
      if (OPENS.test(text)) [this.writing, this.deleting] = [new Set(), false];
      else if (COMMITS.test(text)) [written, deleting, this.writing] = [this.writing, this.deleting, undefined];
      else if (ROLLS_BACK.test(text)) this.writing = undefined;
      else if (MAY_WRITE.test(text)) {
        const target = RAW_WRITE.exec(text)?.[1];
        const tables = DDL.test(text) ? ['*'] : target && server.schema?.has(target) ? [target] : (tablesOf(text) ?? ['*']);
        deleting = MAY_DELETE.test(text);
        if (this.writing) {
          for (const t of tables) this.writing.add(t);
          this.deleting ||= deleting;
        } else written = tables;
      }
      const tables = written && server.tellsWrites ? [...written] : [];
      const notice = `${server.tag}:${tables.join(',')}${deleting ? ':-' : ''}`;
      const told = (r: unknown) => (server.tell?.(new Set(tables), deleting), r);
      // a commit and its notice in one round trip: the notice runs once the commit is done, in a transaction of its own
      if (tables.length && COMMITS.test(text) && noValues(rest)) {
        return (query.call(this, `${text}; ${noticeStatement(notice)}`) as Promise<unknown[]>).then((results) => told(results[0]));
      }
      const result = query.call(this, text, ...rest);
      if (!tables.length || !(result instanceof Promise)) return result;
      // a notice that fails (the connection lost once the write was made) does not fail the write: kept answers on
      // PostgreSQL live a bounded time (see `keepAnswer`)
      const lost = (err: Error) => server.log?.warn({ err: { message: err.message } }, 'a write notice was not sent');
      return result.then((r: unknown) => {
        told(r);
        return (query.call(this, noticeStatement(notice)) as Promise<unknown>).then(() => r, (err: Error) => (lost(err), r));
      });
    },
  });
  return WriteTellingClient;
}

/** A query's arguments after its text that bind no values (the simple protocol, where one text may hold several statements). */
const noValues = (rest: unknown[]) => rest.length === 0 || (rest.length === 1 && Array.isArray(rest[0]) && rest[0].length === 0);

/** The statement that sends a write notice: its text is the instance's tag and table names alone, quoted as they are. */
const noticeStatement = (notice: string) => {
  if (!/^[\w:,*-]+$/.test(notice)) throw new Error(`a write notice of unexpected text: ${notice}`);
  return `SELECT pg_notify('${WRITES_CHANNEL}', '${notice}')`;
};

/** The embedded database's file (to ask SQLite what only it knows), or undefined on PostgreSQL. */
export const sqliteFileOf = (db: Db) => watches.get(db)?.file;

/** Statements kept compiled, the oldest dropped past this many (lists of ids make a statement per length). */
const STATEMENTS_KEPT = 1000;

/** A statement that makes, changes or drops a table: the schema's table names are read again. */
const DDL = /^\s*(create|alter|drop)\b/i;

/** The schema's tables that a statement's text names as a word: every table it reads or writes, raw SQL's too. */
const tablesNamed = (sql: string, schema: ReadonlySet<string>) => [...new Set(sql.match(/\w+/g)?.filter((w) => schema.has(w)))];

const schemaTables = (file: SQLite.Database) =>
  new Set((file.prepare(`SELECT name FROM sqlite_master WHERE type IN ('table', 'view')`).all() as { name: string }[]).map((r) => r.name));

/**
 * The schema's tables each statement's text names, worked out once per text while `schema` is known (see
 * `tablesNamed`); `forget` drops what was worked out (the schema changed).
 */
function statementTables(schema: () => ReadonlySet<string> | undefined): StatementTables {
  const known = new Map<string, string[]>();
  const tablesOf = (text: string) => {
    let tables = known.get(text);
    if (tables) return tables;
    const tablesNow = schema();
    if (!tablesNow) return undefined;
    tables = tablesNamed(text, tablesNow);
    if (known.size >= STATEMENTS_KEPT) known.delete(known.keys().next().value!);
    known.set(text, tables);
    return tables;
  };
  return Object.assign(tablesOf, { forget: () => known.clear() });
}

/**
 * The file as the dialect uses it, each distinct statement compiled once: Kysely asks for a statement on every query,
 * and compiling one costs more than running the small queries a request makes. `changed`: a statement that makes,
 * changes or drops a table is compiled.
 */
function preparedOnce(file: SQLite.Database, changed: () => void): SqliteDatabase {
  const kept = new Map<string, SQLite.Statement>();
  return {
    close: () => file.close(),
    prepare: (sql: string) => {
      let statement = kept.get(sql);
      if (!statement) {
        if (DDL.test(sql)) changed();
        statement = file.prepare(sql);
        if (kept.size >= STATEMENTS_KEPT) kept.delete(kept.keys().next().value!);
        kept.set(sql, statement);
      }
      return statement;
    },
  };
}

export const now = () => new Date().toISOString();
export const inSeconds = (seconds: number, from = Date.now()) => new Date(from + seconds * 1000).toISOString();
/** COUNT(*) arrives as a string from PostgreSQL and a number from SQLite. */
/** Rows in slices small enough for one statement's bound parameters (SQLite takes at most 32,766 in one). */
export const inBatches = <T>(rows: T[], size = 500) => Array.from({ length: Math.ceil(rows.length / size) }, (_, i) => rows.slice(i * size, (i + 1) * size));

/** PostgreSQL error classes that say the server is not there to answer (connection failures, shutdown, starting up). */
const UNAVAILABLE_SQLSTATE = /^(08|57P0[1-3])/;
const UNAVAILABLE_SOCKET = new Set(['ECONNREFUSED', 'ECONNRESET', 'ETIMEDOUT', 'EPIPE', 'ENOTFOUND', 'EHOSTUNREACH']);

/** Whether a query failed because the database server could not be reached, rather than because of the query. */
export function isDatabaseUnavailable(err: unknown): boolean {
  if (!(err instanceof Error)) return false;
  const code = (err as { code?: unknown }).code;
  if (typeof code === 'string' && (UNAVAILABLE_SQLSTATE.test(code) || UNAVAILABLE_SOCKET.has(code))) return true;
  // node-postgres's own words for a connection that ended or never came
  return /Connection terminated|timeout exceeded when trying to connect|Client has encountered a connection error/.test(err.message);
}

export const toCount = (v: string | number | bigint | undefined | null) => Number(v ?? 0);
