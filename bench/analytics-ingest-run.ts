import { appendFile, mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { createAnalyticsStore } from '../apps/api/src/analytics/store';
import { batchFiles } from './analytics-lines';

/**
 * One round of the analytics ingest benchmark in a process of its own (its peak RSS is the round's), over the batch
 * files of `bench/analytics-lines.ts` in BATCHES: `store` sends each node's batches through store.ingest as shippers
 * do when behind (the nodes at once), then waits for the rollups; `duckdb` has DuckDB alone load the same lines from
 * one file into a table of the same fields; `api` does what `store` does in a process holding the whole API as
 * `npm start` runs it (its database, modules, jobs, listening on a port) and through the API's own store, with the
 * batches gzipped as nodes send them, so its peak RSS is the API's while it ingests. Prints one JSON line.
 */
const [mode, BATCHES] = process.argv.slice(2);

const files = await batchFiles(BATCHES);
const dir = await mkdtemp(join(tmpdir(), 'ek-bench-analytics-'));
try {
  const all = join(dir, 'all.ndjson');
  if (mode === 'duckdb') for (const name of files.flat()) await appendFile(all, await readFile(name));
  let peakRss = process.memoryUsage().rss;
  const sampler = setInterval(() => (peakRss = Math.max(peakRss, process.memoryUsage().rss)), 20);
  // the API's modules are bundled apart and loaded in this mode only: the other rounds' processes do not hold them
  const api = mode === 'api' ? await ((await import(pathToFileURL(join(import.meta.dirname, 'analytics-ingest-api.mjs')).href)) as typeof import('./analytics-ingest-api')).startApi(dir) : undefined;
  const before = process.memoryUsage().rss;
  let ms: number;
  let ackMs = 0;
  let lines = 0;
  if (mode === 'duckdb') {
    // loaded in this mode only: loaded before the store opens, DuckDB's library would miss the allocator settings the store gives it
    const { DuckDBInstance } = await import('@duckdb/node-api');
    const instance = await DuckDBInstance.create(join(dir, 'alone.duckdb'));
    const conn = await instance.connect();
    const started = performance.now();
    await conn.run(`CREATE TABLE t AS SELECT * FROM read_json('${all}', format = 'newline_delimited') LIMIT 0`);
    await conn.run(`INSERT INTO t SELECT * FROM read_json('${all}', format = 'newline_delimited')`);
    ms = performance.now() - started;
    lines = Number((await conn.runAndReadAll('SELECT count(*) FROM t')).getRowsJS()[0][0]);
    conn.closeSync();
    instance.closeSync();
  } else {
    const store = api?.deps.analytics ?? createAnalyticsStore({ dataDir: dir });
    const served = Array.from({ length: 20 }, (_, i) => i + 1);
    const day = { from: new Date(Date.now() - 86_400_000), to: new Date(Date.now() + 60_000) };
    // opened (its schema made) before the clock starts, as the API opens it once, not per batch
    await store.countLines({ siteIds: served, ...day });
    const started = performance.now();
    const send = async (node: number) => {
      for (const name of files[node]) {
        // the API takes a batch as nodes send it, gzipped, and unpacks it as it writes it to disk
        const batch = api ? { ndjson: await readFile(`${name}.gz`), gzip: true } : { ndjson: await readFile(name) };
        const { accepted: stored } = await store.ingest({ nodeId: node + 1, file: '2049:7', ...batch, served });
        lines += stored;
      }
    };
    await Promise.all(files.map((_, node) => send(node)));
    ackMs = performance.now() - started;
    const { requests } = await store.cards({ siteIds: served, ...day, intervalMinutes: 5, outcomes: 'all' });
    ms = performance.now() - started;
    if (requests !== lines) throw new Error(`the rollups hold ${requests} of ${lines} lines`);
    await (api ? api.close() : store.close());
  }
  clearInterval(sampler);
  console.log(JSON.stringify({ mode, senders: files.length, lines, ms, ackMs, peakRssMb: peakRss / 2 ** 20, beforeRssMb: before / 2 ** 20 }));
} finally {
  await rm(dir, { recursive: true, force: true });
}
