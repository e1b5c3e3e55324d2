import type { DuckDBConnection } from '@duckdb/node-api';
import { countLines } from '../load';
import { loadStreamBatch } from './load';
import { compactL4, pruneL4 } from './maintain';
import { series, sums, top } from './queries';
import { prepareL4Schema } from './schema';
import type { L4Store } from './types';

const PRUNE_EVERY_MS = 10 * 60_000;
/** Batches append rollup rows; the hours they touched are merged this often. */
const COMPACT_EVERY_MS = 5 * 60_000;

type Run = <T>(work: (conn: DuckDBConnection) => Promise<T>) => Promise<T>;

/**
 * The L4 store on the analytics store's DuckDB file: writes on its one writer (`serial`), reads on reader connections.
 * A batch's rollup rows are written with its lines, so a read never waits for a fold.
 */
export function createL4Store({ serial, read, tmpDir, rawRetentionDays }: { serial: Run; read: Run; tmpDir: string; rawRetentionDays: number }): L4Store {
  let ready: Promise<void> | undefined;
  let lastPrune = 0;
  let lastCompact = Date.now();
  /** The earliest line stored since the last compaction. */
  let dirty: Date | undefined;
  const prepared = () => (ready ??= serial(prepareL4Schema).catch((err: unknown) => {
    ready = undefined;
    throw err;
  }));
  const query: Run = async (work) => {
    await prepared();
    return read(work);
  };
  return {
    async ingest(o) {
      const batch = { ...o, ndjson: Buffer.isBuffer(o.ndjson) ? o.ndjson : Buffer.from(o.ndjson) };
      const accepted = countLines(batch.ndjson);
      if (!accepted) return { accepted, stored: 0, siteIds: [] };
      await prepared();
      const { first, ...loaded } = await serial(async (conn) => {
        const done = await loadStreamBatch(conn, { batch, tmpDir });
        if (done.first && (!dirty || done.first < dirty)) dirty = done.first;
        if (dirty && Date.now() - lastCompact >= COMPACT_EVERY_MS) {
          await compactL4(conn, { from: dirty });
          dirty = undefined;
          lastCompact = Date.now();
        }
        if (Date.now() - lastPrune >= PRUNE_EVERY_MS) {
          lastPrune = Date.now();
          await pruneL4(conn, { rawRetentionDays });
        }
        return done;
      });
      return { accepted, ...loaded };
    },
    sums: (scope) => query((conn) => sums(conn, scope)),
    series: (scope, o) => query((conn) => series(conn, scope, o)),
    top: (scope, o) => query((conn) => top(conn, scope, o)),
  };
}
