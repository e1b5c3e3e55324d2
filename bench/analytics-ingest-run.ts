import { appendFile, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { DuckDBInstance } from '@duckdb/node-api';
import { agentProtocol } from '@edgekeep/contract';
import { createAnalyticsStore } from '../apps/api/src/analytics/store';

/**
 * One round of the analytics ingest benchmark in a process of its own (its peak RSS is the round's): `store` sends
 * full batches (agentProtocol.LOG_BATCH_MAX) through store.ingest as nodes' shippers do when behind (one, or SENDERS at once), then waits for the rollups; `duckdb`
 * has DuckDB alone load the same lines from one file into a table of the same fields. Prints one JSON line.
 */
const mode = process.argv[2];
const LINES = Number(process.argv[3] ?? 200_000);
/** Nodes sending at once, each its share of the lines from a log file of its own. */
const SENDERS = Number(process.argv[4] ?? 1);
/** A node that is behind sends full batches. */
const BATCH = agentProtocol.LOG_BATCH_MAX.lines;

const pick = <T>(list: T[], i: number) => list[i % list.length];
const agents = ['Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/124.0 Safari/537.36', 'Mozilla/5.0 (iPhone; CPU iPhone OS 17_4 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.4 Mobile/15E148 Safari/604.1', 'Mozilla/5.0 (compatible; Googlebot/2.1; +http://www.google.com/bot.html)', 'curl/8.5.0'];
const line = (i: number, offset: number) =>
  JSON.stringify({
    time: new Date(Date.now() - (LINES - i) * 10).toISOString(), siteId: 1 + (i % 20), domain: `www${i % 3}.site${i % 20}.example.com`,
    clientIp: `203.0.${(i * 7) % 256}.${(i * 13) % 256}`, country: pick(['TW', 'CN', 'US', 'JP', 'DE'], i), asn: 'AS3462', method: pick(['GET', 'GET', 'GET', 'POST'], i),
    uri: `/assets/${i % 500}.js?v=${i % 7}`, status: pick([200, 200, 200, 304, 404, 403, 502], i), bytesSent: 500 + (i % 40_000), bytesReceived: 300 + (i % 700),
    requestTime: 0.012, upstreamTime: i % 3 ? 0.01 : null, cacheStatus: pick(['HIT', 'MISS', 'HIT', 'EXPIRED'], i), httpVersion: 'HTTP/2.0',
    referer: i % 4 ? '' : 'https://www.google.com/search?q=edge', userAgent: pick(agents, i), blockCause: i % 50 ? '' : 'waf',
    requestId: `${i.toString(16).padStart(32, '0')}`, scheme: 'https', region: 'Taipei City', city: 'Taipei', isp: 'Chunghwa Telecom',
    blockRule: i % 50 ? '' : '3:17', blockAction: i % 50 ? '' : 'block', offset,
  });

const dir = await mkdtemp(join(tmpdir(), 'ek-bench-analytics-'));
try {
  const batches = function* (from = 0, to = LINES) {
    for (let i = from; i < to; i += BATCH) yield Array.from({ length: Math.min(BATCH, to - i) }, (_, k) => line(i + k, (i + k - from + 1) * 600)).join('\n') + '\n';
  };
  let peakRss = process.memoryUsage().rss;
  const sampler = setInterval(() => (peakRss = Math.max(peakRss, process.memoryUsage().rss)), 20);
  const before = process.memoryUsage().rss;
  let ms: number;
  let ackMs = 0;
  if (mode === 'duckdb') {
    const file = join(dir, 'all.ndjson');
    for (const ndjson of batches()) await appendFile(file, ndjson);
    const instance = await DuckDBInstance.create(join(dir, 'alone.duckdb'));
    const conn = await instance.connect();
    const started = performance.now();
    await conn.run(`CREATE TABLE t AS SELECT * FROM read_json('${file}', format = 'newline_delimited') LIMIT 0`);
    await conn.run(`INSERT INTO t SELECT * FROM read_json('${file}', format = 'newline_delimited')`);
    ms = performance.now() - started;
    conn.closeSync();
    instance.closeSync();
  } else {
    const store = createAnalyticsStore({ dataDir: dir });
    const served = Array.from({ length: 20 }, (_, i) => i + 1);
    const share = Math.ceil(LINES / SENDERS);
    /** Each node's batches are written first, as DuckDB's file is, and read one at a time when sent. */
    const files = await Promise.all(
      Array.from({ length: SENDERS }, async (_, node) => {
        const names: string[] = [];
        for (const ndjson of batches(node * share, Math.min(LINES, (node + 1) * share))) {
          names.push(join(dir, `node${node}-${names.length}.ndjson`));
          await writeFile(names.at(-1)!, ndjson);
        }
        return names;
      }),
    );
    const started = performance.now();
    const send = async (node: number) => {
      for (const name of files[node]) await store.ingest({ nodeId: node + 1, file: '2049:7', ndjson: await readFile(name), served });
    };
    await Promise.all(Array.from({ length: SENDERS }, (_, node) => send(node)));
    ackMs = performance.now() - started;
    const day = { from: new Date(Date.now() - 86_400_000), to: new Date(Date.now() + 60_000) };
    const { requests } = await store.cards({ siteIds: served, ...day, intervalMinutes: 5, outcomes: 'all' });
    ms = performance.now() - started;
    if (requests !== LINES) throw new Error(`stored ${requests} of ${LINES} lines`);
    await store.close();
  }
  clearInterval(sampler);
  console.log(JSON.stringify({ mode, senders: SENDERS, lines: LINES, ms, ackMs, peakRssMb: peakRss / 2 ** 20, beforeRssMb: before / 2 ** 20 }));
} finally {
  await rm(dir, { recursive: true, force: true });
}
