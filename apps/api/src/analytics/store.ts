import fs from 'node:fs/promises';
import path from 'node:path';
import type { DuckDBConnection, DuckDBInstance } from '@duckdb/node-api';
import { refusals, refusalSeries, refusalTop } from './blocked-queries';
import { countLines as countBatchLines, loadBatches, type Batch, type Loaded } from './load';
import { createL4Store } from './l4/store';
import { countLines, lines, streamLines } from './lines';
import { cards, series } from './queries';
import { domainRanks, group, top, totalsBySite } from './ranks';
import { compact, fold, prune } from './rollup';
import { prepareSchema } from './schema';
import type { AnalyticsStore } from './types';

export type { AnalyticsStore } from './types';

/** Raw access lines are kept this long by default (LOG_RETENTION_DAYS), then pruned; the rollups stay. */
export const RAW_RETENTION_DAYS = 7;
/** Lines stored are folded into the rollups this long after the last batch, or before the next query. */
const FOLD_DELAY_MS = 2000;
const PRUNE_EVERY_MS = 10 * 60_000;
/** Folds append rows to the rollups; the hours they touched are merged this often. */
const COMPACT_EVERY_MS = 5 * 60_000;
/**
 * An embedded store: DuckDB's memory and threads are bounded so the API's footprint stays small. Under 256 MB a month's
 * ranking of a busy site's client addresses spilled to disk; the process's peak while ingesting moved little with it.
 * A checkpoint rewrites the tables' last, partly filled row groups: at 64 MB of log between them (rather than 16) a
 * line is compressed about once instead of three times, for some 25 MB more memory while ingesting.
 */
const DUCKDB_CONFIG = { memory_limit: '512MB', threads: '2', checkpoint_threshold: '64MB' };

const hourOf = (time: string) => `${time.slice(0, 13)}:00:00`;
const hourAfter = (time: string) => new Date(Date.parse(`${hourOf(time).replace(' ', 'T')}Z`) + 3_600_000).toISOString().replace('T', ' ').slice(0, 19);

type Open = { instance: DuckDBInstance; writer: DuckDBConnection; idle: DuckDBConnection[] };

/**
 * The analytics store: one DuckDB file `DATA_DIR/analytics.duckdb`, opened on first use. Writes (batches, rollup
 * folds, pruning) run one at a time on one connection; queries read on connections of their own, after the lines
 * acknowledged so far are folded into the rollups.
 */
export function createAnalyticsStore({ dataDir, rawRetentionDays = RAW_RETENTION_DAYS }: { dataDir: string; rawRetentionDays?: number }): AnalyticsStore {
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
  /** Batches waiting for the writer: one per node load together, in one transaction, when it is free. */
  let pending: { batch: Batch; done: (loaded: Loaded) => void; failed: (err: unknown) => void }[] = [];
  /** The log files' cursors this process committed (pruning forgets idle ones: so does this). */
  const cursors = new Map<string, number>();

  const open = () =>
    (opening ??= (async () => {
      await fs.rm(tmpDir, { recursive: true, force: true });
      await fs.mkdir(tmpDir, { recursive: true });
      // DuckDB's library loads with the store, not with the API: a start does not wait for it.
      const { DuckDBInstance } = await import('@duckdb/node-api');
      const instance = await DuckDBInstance.create(path.join(dataDir, 'analytics.duckdb'), DUCKDB_CONFIG);
      const writer = await instance.connect();
      await prepareSchema(writer);
      return { instance, writer, idle: [] };
    })());

  const serial = <T>(work: (conn: DuckDBConnection) => Promise<T>): Promise<T> => {
    const next = queue.then(async () => work((await open()).writer));
    queue = next.catch(() => undefined);
    return next;
  };

  const read = async <T>(work: (conn: DuckDBConnection) => Promise<T>): Promise<T> => {
    const db = await open();
    const conn = db.idle.pop() ?? (await db.instance.connect());
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
        const folded = await fold(conn);
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

  const loadPending = () =>
    serial(async (conn) => {
      const nodes = new Set<number>();
      const group = pending.filter((g) => !nodes.has(g.batch.nodeId) && nodes.add(g.batch.nodeId));
      pending = pending.filter((g) => !group.includes(g));
      if (pending.length) scheduleLoad();
      try {
        const loaded = await loadBatches(conn, { batches: group.map((g) => g.batch), tmpDir, known: cursors });
        group.forEach((g, i) => g.done(loaded[i]));
      } catch (err) {
        for (const g of group) g.failed(err);
      }
    });

  const scheduleLoad = () =>
    loadPending().catch((err: unknown) => {
      const group = pending;
      pending = [];
      for (const g of group) g.failed(err);
    });

  const load = (batch: Batch) =>
    new Promise<Loaded>((done, failed) => {
      pending.push({ batch, done, failed });
      if (pending.length === 1) void scheduleLoad();
    });

  const query = <T>(work: (conn: DuckDBConnection) => Promise<T>) => folded().then(() => read(work));

  return {
    l4: createL4Store({ serial, read, tmpDir, rawRetentionDays }),
    async ingest(o) {
      const batch = { ...o, ndjson: Buffer.isBuffer(o.ndjson) ? o.ndjson : Buffer.from(o.ndjson) };
      const accepted = countBatchLines(batch.ndjson);
      if (!accepted) return { accepted, stored: 0, siteIds: [] };
      const { stored, siteIds } = await load(batch);
      if (stored) {
        unfolded = true;
        foldSoon();
      }
      return { accepted, stored, siteIds };
    },
    cards: (scope) => query((conn) => cards(conn, scope)),
    series: (scope, page) => query((conn) => series(conn, scope, page)),
    top: (scope, o) => query((conn) => top(conn, scope, o)),
    group: (scope, o) => query((conn) => group(conn, scope, o)),
    lines: (filter, page) => read((conn) => lines(conn, filter, page)),
    countLines: (filter) => read((conn) => countLines(conn, filter)),
    streamLines: (filter, o) => streamLines(read, filter, o),
    totalsBySite: (o) => query((conn) => totalsBySite(conn, o)),
    domainRanks: (o) => query((conn) => domainRanks(conn, o)),
    refusals: (scope, o) => query((conn) => refusals(conn, scope, o)),
    refusalTop: (scope, o) => query((conn) => refusalTop(conn, scope, o)),
    refusalSeries: (scope, o) => query((conn) => refusalSeries(conn, scope, o)),
    onFolded(listener) {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
    async close() {
      clearTimeout(timer);
      timer = undefined;
      if (!opening) return;
      const db = await opening.catch(() => undefined);
      await queue;
      for (const conn of db?.idle ?? []) conn.closeSync();
      db?.writer.closeSync();
      db?.instance.closeSync();
      opening = undefined;
      cursors.clear();
      unfolded = true;
    },
  };
}
