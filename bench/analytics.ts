import { execFile } from 'node:child_process';
import { mkdir, mkdtemp, rm, stat } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { promisify } from 'node:util';
import { DuckDBInstance } from '@duckdb/node-api';
import { createAnalyticsStore } from '../apps/api/src/analytics/store';
import type { Scope } from '../apps/api/src/analytics/types';
import { API_EXTERNAL, bundle } from '../scripts/build-server.mjs';
import { writeBatches } from './analytics-lines';
import { SERVE_FLAGS } from './api-start';
import { percentile, summary } from './stats';

const ROOT = join(import.meta.dirname, '..');
type Round = { mode: string; senders: number; lines: number; ms: number; ackMs: number; peakRssMb: number; beforeRssMb: number };
/** A round in a process of its own; the one holding the API runs with the flags `npm start` gives it. */
const round = async (script: string, mode: 'store' | 'duckdb' | 'api', batches: string) =>
  JSON.parse((await promisify(execFile)(process.execPath, [...(mode === 'api' ? SERVE_FLAGS : []), script, mode, batches], { cwd: ROOT })).stdout) as Round;

/**
 * Ingest rate of the analytics store (full shipper batches through store.ingest, rollups included) against DuckDB alone
 * loading the same lines from one file, in alternating rounds of fresh processes, with one node sending and with
 * `senders` nodes sending at once (their batches commit together); the store's peak RSS, and the whole API's while
 * it ingests the same through its own store. The lines are written to batch files first, so no round holds them in
 * memory.
 */
export const analyticsIngest = async ({ rounds = 3, lines = 200_000, senders = 4 }: { rounds?: number; lines?: number; senders?: number } = {}) => {
  const dir = await mkdtemp(join(tmpdir(), 'ek-bench-batches-'));
  // A round runs compiled, as the API does (npm start): the TypeScript loader would add its own memory to the peak.
  // The bundle lies under node_modules, where it finds DuckDB.
  const script = join(ROOT, 'node_modules/.cache/edgekeep-bench/analytics-ingest-run.mjs');
  await bundle({ entry: 'bench/analytics-ingest-run.ts', out: script, external: API_EXTERNAL });
  await bundle({ entry: 'bench/analytics-ingest-api.ts', out: join(dirname(script), 'analytics-ingest-api.mjs'), external: API_EXTERNAL });
  const layouts = { 1: join(dir, 'one'), [senders]: join(dir, 'many') };
  for (const [n, sub] of Object.entries(layouts)) {
    await mkdir(sub);
    await writeBatches({ dir: sub, lines, senders: Number(n) });
  }
  const all: (Round & { ratio?: number })[] = [];
  try {
    for (let i = 0; i < rounds; i++) {
      const alone = await round(script, 'duckdb', layouts[1]);
      all.push(alone);
      for (const n of [1, senders]) {
        const store = await round(script, 'store', layouts[n]);
        all.push({ ...store, ratio: alone.ms / store.ms });
        all.push(await round(script, 'api', layouts[n]));
      }
    }
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
  const median = (samples: number[]) => percentile({ samples, p: 50 });
  const peaks = <K extends string>(r: Round[], key: K) =>
    ({
      [`${key}PeakRssMb`]: Math.max(...r.map((x) => x.peakRssMb)),
      [`${key}PeaksMb`]: r.map((x) => x.peakRssMb),
      [`${key}RssBeforeMb`]: Math.max(...r.map((x) => x.beforeRssMb)),
    }) as Record<`${K}PeakRssMb` | `${K}RssBeforeMb`, number> & Record<`${K}PeaksMb`, number[]>;
  const rate = (r: Round[], key: 'ms' | 'ackMs') => median(r.map((x) => (x.lines / x[key]) * 1000));
  const duckdbLinesPerSec = rate(all.filter((r) => r.mode === 'duckdb'), 'ms');
  const duckdbPeakRssMb = Math.max(...all.filter((r) => r.mode === 'duckdb').map((r) => r.peakRssMb));
  console.log(`analytics ingest: DuckDB alone ${duckdbLinesPerSec.toFixed(0)} lines/s, peak RSS ${duckdbPeakRssMb.toFixed(0)} MB`);
  const result: Record<string, unknown> = { duckdbLinesPerSec, duckdbPeakRssMb };
  for (const n of [1, senders]) {
    const stores = all.filter((r) => r.mode === 'store' && r.senders === n);
    const ratios = stores.map((r) => r.ratio!);
    const figures = {
      storeLinesPerSec: rate(stores, 'ms'),
      storeAckedLinesPerSec: rate(stores, 'ackMs'),
      ratio: median(ratios),
      ratios,
      ...peaks(stores, 'store'),
      ...peaks(all.filter((r) => r.mode === 'api' && r.senders === n), 'api'),
    };
    result[`senders${n}`] = figures;
    console.log(
      `analytics ingest, ${n} node(s) sending: store ${figures.storeLinesPerSec.toFixed(0)} lines/s with rollups (${figures.storeAckedLinesPerSec.toFixed(0)} acknowledged) · ` +
        `median ratio ${figures.ratio.toFixed(2)} (rounds ${ratios.map((r) => r.toFixed(2)).join(', ')}; target ≥ 0.5: ${figures.ratio >= 0.5 ? 'met' : 'missed'}) · ` +
        `peak RSS ${figures.storePeakRssMb.toFixed(0)} MB, of which ${figures.storeRssBeforeMb.toFixed(0)} MB before ingesting · ` +
        `the whole API ingesting the same: peak RSS ${figures.apiPeakRssMb.toFixed(0)} MB (rounds ${figures.apiPeaksMb.map((r) => r.toFixed(0)).join(', ')}; target < 300 MB: ${figures.apiPeakRssMb < 300 ? 'met' : 'missed'}), of which ${figures.apiRssBeforeMb.toFixed(0)} MB before`,
    );
  }
  return result;
};

const DAY = 86_400_000;

/** `lines` access lines over `days` days straight into the raw table (SQL, no JSON), 60 % of them of site 1. */
export const generate = async ({ file, lines, days, from }: { file: string; lines: number; days: number; from: number }) => {
  const instance = await DuckDBInstance.create(file);
  const conn = await instance.connect();
  const chunk = 1_000_000;
  for (let start = 0; start < lines; start += chunk) {
    await conn.run(`INSERT INTO access_log SELECT nextval('raw_seq'), 1 + i % 4, CASE WHEN i % 5 < 3 THEN 1 ELSE 2 + i % 30 END, 'www' || (i % 5) || '.example.com',
      make_timestamp(${from * 1000}::BIGINT + (i * ${Math.floor((days * DAY * 1000) / lines)})::BIGINT), md5(i::VARCHAR),
      '10.' || (i % 97) || '.' || (i % 89) || '.' || (i % 83), ['TW', 'CN', 'US', 'JP', 'DE', 'SG'][1 + i % 6], 'Region ' || (i % 20), 'City ' || (i % 200), 'ISP ' || (i % 50), 'AS' || (i % 50),
      ['https', 'http'][1 + (i % 7 = 0)::INT], ['GET', 'POST', 'HEAD'][1 + i % 3], '/p/' || (i % 2000) || '?q=' || (i % 11), [200, 200, 304, 404, 403, 502][1 + i % 6],
      500 + i % 50000, 300 + i % 700, 0.01, CASE WHEN i % 3 = 0 THEN NULL ELSE 0.005 END, ['HIT', 'MISS', 'HIT', 'EXPIRED'][1 + i % 4], 'HTTP/2.0',
      CASE WHEN i % 4 = 0 THEN 'https://ref' || (i % 40) || '.example.org/x' ELSE '' END, ['Mozilla/5.0 Chrome/124.0 Safari/537.36', 'Googlebot/2.1', 'curl/8.5.0'][1 + i % 3],
      CASE WHEN i % 50 = 0 THEN 'waf' ELSE '' END, CASE WHEN i % 50 = 0 THEN '3:' || (i % 9) ELSE '' END, CASE WHEN i % 50 = 0 THEN 'block' ELSE '' END
      FROM range(${start}, ${Math.min(lines, start + chunk)}) t(i)`);
  }
  conn.closeSync();
  instance.closeSync();
};

/**
 * Query latency over a store holding `lines` lines over 30 days (rolled up as ingest would): cards, series and top for
 * one site over the 30 days, 5-minute and hourly buckets.
 */
export const analyticsQuery = async ({ lines = 10_000_000, samples = 40 }: { lines?: number; samples?: number } = {}) => {
  const dir = await mkdtemp(join(tmpdir(), 'ek-bench-analytics-q-'));
  try {
    const to = Math.floor(Date.now() / 3_600_000) * 3_600_000;
    const from = to - 30 * DAY;
    let store = createAnalyticsStore({ dataDir: dir });
    await store.countLines({ siteIds: [1], from: new Date(from), to: new Date(to) });
    await store.close();
    let started = performance.now();
    await generate({ file: join(dir, 'analytics.duckdb'), lines, days: 30, from });
    const generatedMs = performance.now() - started;
    store = createAnalyticsStore({ dataDir: dir, rawRetentionDays: 31 });
    started = performance.now();
    const scope = (intervalMinutes: number): Scope => ({ siteIds: [1], from: new Date(from), to: new Date(to), intervalMinutes, outcomes: 'all' });
    const stored = (await store.cards(scope(5))).requests;
    const rollupMs = performance.now() - started;
    const result: Record<string, unknown> = { lines, siteLines: stored, generatedMs, rollupMs };
    console.log(`analytics query: ${lines} lines over 30 days generated in ${(generatedMs / 1000).toFixed(1)} s, rolled up in ${(rollupMs / 1000).toFixed(1)} s; site 1 holds ${stored}`);
    const calls = {
      cards: (s: Scope) => store.cards(s),
      series: (s: Scope) => store.series(s, { offset: 0, limit: 26_784 }),
      top: (s: Scope) => store.top(s, { dimension: 'clientIp', limit: 10, by: 'traffic' }),
      topUrl: (s: Scope) => store.top(s, { dimension: 'url', limit: 10, by: 'requests' }),
    };
    for (const interval of [5, 60]) {
      for (const [name, call] of Object.entries(calls)) {
        const times: number[] = [];
        for (let i = 0; i < samples; i++) {
          const t = performance.now();
          await call(scope(interval));
          times.push(performance.now() - t);
        }
        result[`${name}${interval}`] = { p50: percentile({ samples: times, p: 50 }), p99: percentile({ samples: times, p: 99 }) };
        console.log(`analytics query: ${name}, one site, 30 days, ${interval}-minute buckets: ${summary({ samples: times })}`);
      }
    }
    await store.close();
    // the file as a store leaves it on closing: raw lines and both rollups, checkpointed
    result.fileMb = (await stat(join(dir, 'analytics.duckdb'))).size / 2 ** 20;
    console.log(`analytics query: the store's file holds the ${lines} lines and their rollups in ${(result.fileMb as number).toFixed(0)} MB`);
    return result;
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
};
