import fs from 'node:fs/promises';
import path from 'node:path';
import type { DuckDBConnection, DuckDBInstance } from '@duckdb/node-api';
import type { Logger } from 'pino';
import { refusals, refusalSeries, refusalTop } from './blocked-queries';
import { identify, loadBatches, timeOf } from './load';
import { createL4Store } from './l4/store';
import { countLines, lines, streamLines } from './lines';
import { cards, series } from './queries';
import { domainRanks, group, top, totalsBySite } from './ranks';
import { compact, fold, prune } from './rollup';
import { prepareSchema } from './schema';
import { openSpool, type Spool, type Spooled } from './spool';
import type { AnalyticsStore } from './types';

export type { AnalyticsStore } from './types';

/** Raw access lines are kept this long by default (LOG_RETENTION_DAYS), then pruned; the rollups stay. */
export const RAW_RETENTION_DAYS = 7;
/**
 * Lines stored are folded into the rollups this long after the first load since the last fold, or before the next
 * query. A fold costs some 200 ms of statements however few lines it holds: one every 5 s rather than every 2 s leaves
 * the loads more of the writer (in the ingest bench's burst, one fold where there were two: one node's rate from 0.48
 * to 0.53–0.55 of DuckDB alone).
 */
const FOLD_DELAY_MS = 5000;
const PRUNE_EVERY_MS = 10 * 60_000;
/** Folds append rows to the rollups; the hours they touched are merged this often. */
const COMPACT_EVERY_MS = 5 * 60_000;
/**
 * A load takes the batches waiting, in arrival order, up to this many lines (one at least): while DuckDB loads, a
 * node's next batches are acknowledged and wait, so a node that is behind gets its lines loaded five batches at a time.
 */
const LOAD_MAX_LINES = 50_000;
/** While this many lines wait to be loaded, a batch's answer waits for a load to end (the nodes keep their lines). */
const SPOOL_MAX_LINES = 200_000;
const NO_LIMITS = { bytes: Infinity, lines: Infinity };
/** A batch that fails to load alone this many times is set aside. */
const LOAD_TRIES = 3;
/**
 * The block size of a store file made now (a file keeps the size it was made with). An append to a table after a
 * checkpoint brings the last, partly filled block of each of its columns back into memory until the next checkpoint:
 * a fold appends to 20 rollup tables of 10 to 22 columns, which with DuckDB's default of 256 KB held some 110 MB
 * (`duckdb_memory()`, IN_MEMORY_TABLE, after a fold of 200,000 lines) and with 64 KB 32 MB. The 30-day queries over
 * 10 million lines were as fast with 64 KB (and the file as large); with 16 KB the file doubled and rankings slowed.
 */
export const BLOCK_SIZE = 65_536;
/**
 * Rows per row group (DuckDB's default: 122,880). A load that fills row groups has DuckDB compress and write them to
 * the file while it inserts, on both threads, where a smaller load went to the write-ahead log first and was compressed
 * again at each checkpoint, on one thread. With 16,384 rows a load of 50,000 lines fills three: a burst of 200,000 lines
 * loaded and folded in some 1.0-1.3 s where it took 1.6-1.9 s (the ingest bench: 0.65-0.66 of DuckDB alone where it
 * was 0.45-0.50, the API's peak unchanged), and a month's rankings got faster (more row groups to share between the
 * threads; the file 5 % larger). With 32,768 rows: 0.53-0.58 and a higher peak. Row groups written from now on.
 */
export const ROW_GROUP_SIZE = 16_384;
/** The store file's name among the databases of the store's DuckDB instance (its catalog: the default of each connection). */
const STORE = 'store';
/**
 * An embedded store: DuckDB's memory and threads are bounded so the API's footprint stays small. Under 256 MB a month's
 * ranking of a busy site's client addresses spilled to disk; the process's peak while ingesting moved little with it.
 * A checkpoint rewrites the tables' last, partly filled row groups: at 32 MB of log between them a line is compressed
 * about twice; the lines since the last checkpoint are held in memory (about 2 MB for each MB of log).
 */
const DUCKDB_CONFIG = { memory_limit: '512MB', threads: '2', checkpoint_threshold: '32MB', default_block_size: String(BLOCK_SIZE) };
/**
 * DuckDB's allocator (its own jemalloc) keeps freed pages for a while by default: a load's buffers, freed, stayed in
 * the process's memory through the next loads (60 to 80 MB of a burst's peak, measured with the loads on both
 * threads). It returns them at once instead.
 */
const DUCKDB_MALLOC_CONF = 'dirty_decay_ms:0,muzzy_decay_ms:0';

/**
 * Folds run on one of DuckDB's threads: each thread grouping holds hash tables of its own (a burst's fold took some
 * 20 MB less at its peak on one, and about as long). Queries, which wait for the folds anyway, get both threads back
 * after each. Loads run on both: they write the row groups they fill as they go (ROW_GROUP_SIZE).
 */
const oneThread = async <T>(conn: DuckDBConnection, work: () => Promise<T>) => {
  await conn.run('SET threads = 1');
  try {
    return await work();
  } finally {
    await conn.run(`SET threads = ${DUCKDB_CONFIG.threads}`);
  }
};

const hourOf = (time: string) => `${time.slice(0, 13)}:00:00`;
const hourAfter = (time: string) => new Date(Date.parse(`${hourOf(time).replace(' ', 'T')}Z`) + 3_600_000).toISOString().replace('T', ' ').slice(0, 19);

/** A connection to the store's instance, reading and writing the store file by default. */
const connect = async (instance: DuckDBInstance) => {
  const conn = await instance.connect();
  await conn.run(`USE ${STORE}`);
  return conn;
};

type Open = { instance: DuckDBInstance; writer: DuckDBConnection; idle: DuckDBConnection[]; spool: Spool };

/**
 * The analytics store: one DuckDB file `DATA_DIR/analytics.duckdb`, opened on first use. A batch is acknowledged
 * once it is in the spool (`DATA_DIR/analytics-spool`, on disk) and loaded from there, with the batches that came
 * meanwhile. Writes (loads, rollup folds, pruning) run one at a time on one connection; queries read on connections
 * of their own, after the lines acknowledged so far are loaded (and, for the rollups' queries, folded).
 */
export function createAnalyticsStore({ dataDir, rawRetentionDays = RAW_RETENTION_DAYS, log }: { dataDir: string; rawRetentionDays?: number; log?: Logger }): AnalyticsStore {
  const tmpDir = path.join(dataDir, 'analytics-tmp');
  let opening: Promise<Open> | undefined;
  let queue: Promise<unknown> = Promise.resolve();
  /** Whether raw rows may be waiting for the rollups (at open: left by a process that stopped before folding). */
  let unfolded = true;
  let lastPrune = 0;
  let lastCompact = Date.now();
  const listeners = new Set<(siteIds: number[]) => void>();
  /** The hours folds appended to since the last compaction. */
  let dirty: { from: string; to: string } | undefined;
  let timer: NodeJS.Timeout | undefined;
  /** Batches acknowledged and waiting for the writer, in arrival order. */
  let waiting: Spooled[] = [];
  let draining: Promise<void> | undefined;
  let putting: Promise<void> = Promise.resolve();
  /** After a failed load: how many batches are still loaded one at a time. */
  let alone = 0;
  /** Failed loads of a batch loaded alone, by its seq. */
  const failures = new Map<number, number>();
  let closing = false;
  const loadListeners = new Set<Parameters<AnalyticsStore['onLoaded']>[0]>();
  /** The log files' cursors this process committed (pruning forgets idle ones: so does this). */
  const cursors = new Map<string, number>();

  const open = () =>
    (opening ??= (async () => {
      await fs.rm(tmpDir, { recursive: true, force: true });
      await fs.mkdir(tmpDir, { recursive: true });
      // DuckDB's library loads with the store, not with the API: a start does not wait for it.
      // read by the allocator when the library loads (an operator's own setting is kept)
      process.env.DUCKDB_JE_MALLOC_CONF ??= DUCKDB_MALLOC_CONF;
      const { DuckDBInstance } = await import('@duckdb/node-api');
      const file = path.join(dataDir, 'analytics.duckdb');
      const instance = await DuckDBInstance.create(':memory:', { ...DUCKDB_CONFIG, temp_directory: `${file}.tmp` });
      const setup = await instance.connect();
      // attached rather than opened, for ROW_GROUP_SIZE (an option of ATTACH only)
      await setup.run(`ATTACH '${file.replaceAll("'", "''")}' AS ${STORE} (ROW_GROUP_SIZE ${ROW_GROUP_SIZE})`);
      setup.closeSync();
      const writer = await connect(instance);
      await prepareSchema(writer);
      const spool = await openSpool(path.join(dataDir, 'analytics-spool'));
      // batches acknowledged by the last process and not loaded: first in line
      waiting = spool.left;
      return { instance, writer, idle: [], spool };
    })());

  const serial = <T>(work: (conn: DuckDBConnection) => Promise<T>): Promise<T> => {
    const next = queue.then(async () => work((await open()).writer));
    queue = next.catch(() => undefined);
    return next;
  };

  const read = async <T>(work: (conn: DuckDBConnection) => Promise<T>): Promise<T> => {
    const db = await open();
    const conn = db.idle.pop() ?? (await connect(db.instance));
    try {
      return await work(conn);
    } finally {
      db.idle.push(conn);
    }
  };

  /** The fold running or queued now: a query waits for it, since it marks the rows folded before it commits them. */
  let folding: Promise<void> | undefined;
  const maintain = () => {
    const run = work();
    folding = run.catch(() => undefined);
    return run;
  };
  const work = () =>
    serial(async (conn) => {
      unfolded = false;
      try {
        const folded = await oneThread(conn, () => fold(conn));
        if (folded.first && folded.last) {
          const from = hourOf(folded.first);
          const to = hourAfter(folded.last);
          dirty = dirty ? { from: from < dirty.from ? from : dirty.from, to: to > dirty.to ? to : dirty.to } : { from, to };
        }
        if (folded.siteIds.length) for (const listener of listeners) listener(folded.siteIds);
      } catch (err) {
        unfolded = true;
        throw err;
      }
      if (dirty && Date.now() - lastCompact >= COMPACT_EVERY_MS) {
        await compact(conn, dirty);
        dirty = undefined;
        lastCompact = Date.now();
      }
      if (Date.now() - lastPrune < PRUNE_EVERY_MS) return;
      lastPrune = Date.now();
      await prune(conn, { rawRetentionDays });
      cursors.clear();
    });

  /** Every line acknowledged so far is in the rollups once this resolves. */
  const folded = async () => {
    clearTimeout(timer);
    timer = undefined;
    await folding;
    if (unfolded) await maintain();
  };

  const foldSoon = () => {
    if (timer) return;
    timer = setTimeout(() => {
      timer = undefined;
      maintain().catch(() => undefined);
    }, FOLD_DELAY_MS);
    timer.unref();
  };

  /** The first batches waiting, up to LOAD_MAX_LINES lines. */
  const nextLoad = () => {
    let lines = 0;
    const group = waiting.filter((b) => (lines += b.lines) <= LOAD_MAX_LINES);
    return group.length ? group : waiting.slice(0, 1);
  };

  /**
   * Loads the batches waiting until none are (or the store closes). The batches of a load that fails are loaded
   * again one by one, so one bad batch holds back no other.
   */
  const loadWaiting = async () => {
    while (waiting.length && !closing) {
      const group = alone ? waiting.slice(0, 1) : nextLoad();
      const { spool } = await open();
      let stored: number;
      try {
        stored = await serial((conn) => loadBatches(conn, { batches: group, known: cursors }));
      } catch (err) {
        // the batches of a failed load are loaded one by one; one that fails alone LOAD_TRIES times is set aside
        if (group.length > 1) {
          alone = group.length;
          continue;
        }
        const [bad] = group;
        const tries = (failures.get(bad.seq) ?? 0) + 1;
        failures.set(bad.seq, tries);
        if (tries < LOAD_TRIES) throw err;
        failures.delete(bad.seq);
        waiting = waiting.filter((b) => b !== bad);
        await spool.setAside(bad);
        log?.error({ err, seq: bad.seq, nodeId: bad.nodeId, lines: bad.lines }, 'log batch set aside in analytics-spool/failed: it failed to load');
        continue;
      }
      if (alone) alone--;
      waiting = waiting.filter((b) => !group.includes(b));
      await spool.drop(group);
      const lines = group.reduce((n, b) => n + b.lines, 0);
      for (const listener of loadListeners) listener({ stored, skipped: lines - stored, newest: group.flatMap((b) => (b.newest === undefined ? [] : [b.newest])) });
      if (stored) {
        unfolded = true;
        foldSoon();
      }
    }
  };
  /** The load of what waits, one run at a time. */
  const drain = (): Promise<void> => (draining ??= loadWaiting().finally(() => (draining = undefined)));

  /**
   * Starts a drain from outside `ingest`: a handler made there would share its scope, and so hold the batch's bytes
   * for as long as the drain runs (all the batches that came meanwhile with them).
   */
  const drainSoon = () => void drain().catch(() => undefined);

  /** Every batch acknowledged so far is loaded once this resolves (a failed load rejects it). */
  const loaded = async () => {
    await open();
    while (waiting.length && !closing) await drain();
  };

  const query = <T>(work: (conn: DuckDBConnection) => Promise<T>) => loaded().then(folded).then(() => read(work));
  const raw = <T>(work: (conn: DuckDBConnection) => Promise<T>) => loaded().then(() => read(work));

  return {
    l4: createL4Store({ serial, read, tmpDir, rawRetentionDays }),
    async ingest({ nodeId, file, ndjson: text, gzip = false, limits = NO_LIMITS, served, shiftMs = 0 }) {
      const body = Buffer.isBuffer(text) ? text : Buffer.from(text);
      const { spool } = await open();
      while (waiting.reduce((n, b) => n + b.lines, 0) >= SPOOL_MAX_LINES) await drain();
      let accepted = 0;
      // batches join the line in the order they came: a node's batch is never loaded after one it sent later
      const put = putting.then(async () => {
        const spooled = await spool.put(body, { gzip, limits }, async ({ lines, last, digest }) => {
          accepted = lines;
          return lines ? { ...(await identify({ last, file, digest })), nodeId, served, shiftMs, lines, newest: timeOf(last) } : undefined;
        });
        if (spooled) waiting.push(spooled);
      });
      putting = put.catch(() => undefined);
      await put;
      if (accepted) drainSoon();
      return { accepted };
    },
    cards: (scope) => query((conn) => cards(conn, scope)),
    series: (scope, page) => query((conn) => series(conn, scope, page)),
    top: (scope, o) => query((conn) => top(conn, scope, o)),
    group: (scope, o) => query((conn) => group(conn, scope, o)),
    lines: (filter, page) => raw((conn) => lines(conn, filter, page)),
    countLines: (filter) => raw((conn) => countLines(conn, filter)),
    streamLines: (filter, o) => streamLines(raw, filter, o),
    totalsBySite: (o) => query((conn) => totalsBySite(conn, o)),
    domainRanks: (o) => query((conn) => domainRanks(conn, o)),
    refusals: (scope, o) => query((conn) => refusals(conn, scope, o)),
    refusalTop: (scope, o) => query((conn) => refusalTop(conn, scope, o)),
    refusalSeries: (scope, o) => query((conn) => refusalSeries(conn, scope, o)),
    onLoaded(listener) {
      loadListeners.add(listener);
      return () => loadListeners.delete(listener);
    },
    onFolded(listener) {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
    async close() {
      clearTimeout(timer);
      timer = undefined;
      if (!opening) return;
      closing = true;
      const db = await opening.catch(() => undefined);
      await draining?.catch(() => undefined);
      await queue;
      for (const conn of db?.idle ?? []) conn.closeSync();
      db?.writer.closeSync();
      db?.instance.closeSync();
      opening = undefined;
      closing = false;
      waiting = [];
      cursors.clear();
      unfolded = true;
    },
  };
}
