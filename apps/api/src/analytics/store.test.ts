import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { DuckDBInstance } from '@duckdb/node-api';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { logLine } from '../../test/agent-logs';
import { identify } from './load';
import { compact } from './rollup';
import { openSpool } from './spool';
import { BLOCK_SIZE, createAnalyticsStore, RAW_RETENTION_DAYS, ROW_GROUP_SIZE } from './store';
import type { AnalyticsStore, Scope } from './types';

type Line = Parameters<typeof logLine>[0];
const HOUR = 3_600_000;
/** The start of the hour two hours ago: a window of whole hours that both rollups cover. */
const base = Math.floor(Date.now() / HOUR) * HOUR - 2 * HOUR;
const at = (minutes: number) => new Date(base + minutes * 60_000).toISOString();
const ndjson = (lines: unknown[]) => lines.map((l) => JSON.stringify(l)).join('\n') + '\n';
const withOffsets = (lines: Line[], first = 1) => lines.map((l, i) => ({ ...logLine(l), offset: (first + i) * 100 }));

/** A known mix: three sites' lines over one hour, blocked, cached, Chinese, IPv6, bots and browsers. */
const MIX: Line[] = [
  { siteId: 1, time: at(1), bytesSent: 1000, status: 200, cacheStatus: 'HIT', country: 'TW', region: 'Taipei', city: 'Taipei', isp: 'HiNet', uri: '/a?x=1', referer: 'https://www.google.com/search?q=1', userAgent: 'Mozilla/5.0 Chrome/120.0 Safari/537.36', scheme: 'https' },
  { siteId: 1, time: at(2), bytesSent: 500, status: 404, cacheStatus: 'MISS', country: 'CN', region: 'Guangdong', clientIp: '2001:db8::1', uri: '/a?y=2', userAgent: 'Mozilla/5.0 (X11) Gecko/20100101 Firefox/121.0', method: 'POST', httpVersion: 'HTTP/2.0', scheme: 'http' },
  { siteId: 1, time: at(7), bytesSent: 200, status: 403, country: 'CN', blockCause: 'waf', blockRule: '12:3', blockAction: 'block', upstreamTime: null, userAgent: 'Googlebot/2.1 (+http://www.google.com/bot.html)' },
  { siteId: 1, time: at(8), bytesSent: 0, status: 444, blockCause: 'cc', blockRule: 'cc:1', upstreamTime: null, userAgent: 'curl/8.4' },
  { siteId: 1, time: at(61), bytesSent: 300, status: 502, domain: 'api.example.com', cacheStatus: 'STALE', userAgent: 'Mozilla/5.0 Edg/120.0 Chrome/120.0', referer: 'http://ref.example.org:8080/p' },
  { siteId: 2, time: at(30), bytesSent: 700, status: 301, domain: 'two.example.com', userAgent: 'python-requests/2.31' },
];

describe('analytics store', () => {
  let dir: string;
  let store: AnalyticsStore;
  const scope = (o: Partial<Scope> = {}): Scope => ({ siteIds: [1], from: new Date(base), to: new Date(base + 2 * HOUR), intervalMinutes: 5, outcomes: 'all', ...o });
  /** The raw lines stored of site 1, the lines' hours and those around them. */
  const rawLines = () => store.countLines({ siteIds: [1], from: new Date(base - HOUR), to: new Date(base + 3 * HOUR) });
  const reopen = async () => {
    await store.close();
    store = createAnalyticsStore({ dataDir: dir });
  };

  beforeEach(() => {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'ek-analytics-'));
    store = createAnalyticsStore({ dataDir: dir });
  });
  afterEach(async () => {
    await store.close();
    fs.rmSync(dir, { recursive: true, force: true });
  });

  it('counts every metric of a known mix, the same from 5-minute and hourly rollups', async () => {
    expect(await store.ingest({ nodeId: 7, ndjson: ndjson(MIX.map(logLine)), served: [1, 2] })).toEqual({ accepted: 6 });
    const cards = await store.cards(scope());
    expect(cards).toMatchObject({
      requests: 5, responses: 4, traffic: 2000, trafficReceived: 1000, cacheHits: 2, cacheTraffic: 1300, upstreamRequests: 3,
      chinaRequests: 2, chinaTraffic: 700, blocked: 2, chinaBlocked: 1, peakBandwidth: (1500 * 8) / 300, peakQps: 2 / 300,
    });
    expect(cards.breakdown).toEqual({
      status: { '200': 1, '404': 1, '403': 1, '444': 1, '502': 1 },
      method: { GET: 4, POST: 1 },
      httpVersion: { 'HTTP/1.1': 4, 'HTTP/2.0': 1 },
      ipVersion: { ipv4: 4, ipv6: 1 },
      protocol: { https: 4, http: 1 },
      blockCause: { '': 3, waf: 1, cc: 1 },
    });
    const hourly = await store.cards(scope({ intervalMinutes: 60 }));
    expect({ ...hourly, peakBandwidth: 0, peakQps: 0 }).toEqual({ ...cards, peakBandwidth: 0, peakQps: 0 });
    expect(await store.cards(scope({ outcomes: 'blocked' }))).toMatchObject({ requests: 2, traffic: 200, blocked: 2, cacheHits: 0, responses: 1, chinaRequests: 1 });
    expect(await store.cards(scope({ outcomes: 'allowed' }))).toMatchObject({ requests: 3, traffic: 1800, blocked: 0, cacheHits: 2, responses: 3 });
    expect((await store.cards(scope({ domains: ['api.example.com'] }))).requests).toBe(1);
  });

  it('ranks every dimension, with totals over all values', async () => {
    await store.ingest({ nodeId: 7, ndjson: ndjson(MIX.map(logLine)), served: [1, 2] });
    const keys = async (dimension: Parameters<AnalyticsStore['top']>[1]['dimension'], s = scope()) =>
      Object.fromEntries((await store.top(s, { dimension, limit: 10, by: 'requests' })).rows.map((r) => [r.key, r.requests]));
    expect(await keys('site', scope({ siteIds: [1, 2] }))).toEqual({ '1': 5, '2': 1 });
    expect(await keys('domain')).toEqual({ 'www.example.com': 4, 'api.example.com': 1 });
    expect(await keys('node')).toEqual({ '7': 5 });
    expect(await keys('cacheStatus')).toEqual({ HIT: 1, MISS: 3, STALE: 1 });
    expect(await keys('country')).toEqual({ TW: 3, CN: 2 });
    expect(await keys('region')).toEqual({ Taipei: 1, Guangdong: 1, '': 3 });
    // the China map's provinces: the regions of the lines from CN only
    expect(await keys('province')).toEqual({ Guangdong: 1, '': 4 });
    expect(await keys('city')).toEqual({ Taipei: 1, '': 4 });
    expect(await keys('isp')).toEqual({ HiNet: 1, '': 4 });
    expect(await keys('refererHost')).toEqual({ 'www.google.com': 1, 'ref.example.org': 1, '': 3 });
    expect(await keys('url')).toEqual({ '/a': 2, '/': 3 });
    expect(await keys('clientIp')).toEqual({ '198.51.100.7': 4, '2001:db8::1': 1 });
    expect(await keys('uaFamily')).toEqual({ Chrome: 1, Firefox: 1, bot: 1, curl: 1, Edge: 1 });
    expect(await keys('uaFamily', scope({ siteIds: [2] }))).toEqual({ python: 1 });
    expect(await keys('blockRule')).toEqual({ '': 3, '12:3': 1, 'cc:1': 1 });
    const top = await store.top(scope(), { dimension: 'url', limit: 1, by: 'traffic' });
    expect(top).toEqual({ rows: [{ key: '/a', requests: 2, traffic: 1500, cacheHits: 1, cacheTraffic: 1000, blocked: 0 }], total: { requests: 5, traffic: 2000, cacheHits: 2, cacheTraffic: 1300, blocked: 2 } });
    const page = await store.group(scope(), { dimension: 'status', sortBy: 'key', order: 'asc', limit: 2, offset: 2 });
    expect(page).toEqual({ total: 5, rows: [expect.objectContaining({ key: '404' }), expect.objectContaining({ key: '444' })] });
    expect((await store.group(scope(), { dimension: 'status', sortBy: 'traffic', order: 'desc', limit: 2, offset: 10 })).total).toBe(5);
    expect((await store.top(scope({ outcomes: 'blocked' }), { dimension: 'blockCause', limit: 5, by: 'requests' })).rows.map((r) => r.key)).toEqual(['cc', 'waf']);
    expect((await store.top(scope({ domains: ["x' OR 1=1 --"] }), { dimension: 'country', limit: 5, by: 'requests' })).rows).toEqual([]);
  });

  it('answers dense series aligned to the window, and days from midnight in the zone', async () => {
    await store.ingest({ nodeId: 7, ndjson: ndjson(MIX.map(logLine)), served: [1, 2] });
    const { points, total } = await store.series(scope({ intervalMinutes: 15 }), { offset: 0, limit: 100 });
    expect(total).toBe(8);
    expect(points.map((p) => p.requests)).toEqual([4, 0, 0, 0, 1, 0, 0, 0]);
    expect(points[4]).toMatchObject({ time: new Date(base + HOUR), traffic: 300, status5xx: 1, cacheHits: 1 });
    expect((await store.series(scope({ intervalMinutes: 15 }), { offset: 6, limit: 5 })).points).toHaveLength(2);
    const midnight = new Date(`${new Date(base).toISOString().slice(0, 10)}T00:00:00+08:00`);
    const days = await store.series(scope({ intervalMinutes: 1440, timeZone: 'Asia/Taipei', from: new Date(midnight.getTime() - 86_400_000), to: new Date(midnight.getTime() + 2 * 86_400_000) }), { offset: 0, limit: 10 });
    expect(days.points.map((p) => p.time)).toEqual([0, 1, 2].map((d) => new Date(midnight.getTime() + (d - 1) * 86_400_000)));
    expect(days.points.reduce((n, p) => n + p.requests, 0)).toBe(5);
  });

  it('stores a line once per node, log file and offset: a resend counts once, an overlapping batch only its new lines', async () => {
    const lines = withOffsets(MIX.slice(0, 4));
    const first = { nodeId: 7, file: '1234:5678', ndjson: ndjson(lines), served: [1] };
    expect(await store.ingest(first)).toEqual({ accepted: 4 });
    expect(await rawLines()).toBe(4);
    expect(await store.ingest(first)).toEqual({ accepted: 4 });
    expect(await rawLines()).toBe(4);
    const overlap = [...lines.slice(2), ...withOffsets([MIX[4]], 5)];
    expect(await store.ingest({ ...first, ndjson: ndjson(overlap) })).toEqual({ accepted: 3 });
    expect(await rawLines()).toBe(5);
    await store.ingest({ ...first, nodeId: 8 });
    await store.ingest({ ...first, file: 'another' });
    expect(await rawLines()).toBe(13);
    expect((await store.cards(scope())).requests).toBe(13);
  });

  it('loads batches of several nodes sent at once together, each counted once, a resend among them too', async () => {
    const batch = (nodeId: number, lines: Line[], first = 1) => ({ nodeId, file: 'f', ndjson: ndjson(withOffsets(lines, first)), served: [1, 2] });
    const results = await Promise.all([
      store.ingest(batch(7, MIX.slice(0, 2))),
      store.ingest(batch(8, MIX.slice(2, 6))),
      store.ingest(batch(7, MIX.slice(0, 2))),
      store.ingest(batch(9, [MIX[5]])),
      store.ingest(batch(7, MIX.slice(2, 4), 3)),
    ]);
    expect(results.map((r) => r.accepted)).toEqual([2, 4, 2, 1, 2]);
    expect((await store.top(scope({ siteIds: [1, 2] }), { dimension: 'node', limit: 5, by: 'requests' })).rows.map((r) => [r.key, r.requests])).toEqual([['7', 4], ['8', 4], ['9', 1]]);
  });

  it('compacts the rows folds appended into one per bucket and key, with the same sums', async () => {
    for (const l of MIX) {
      await store.ingest({ nodeId: 7, ndjson: ndjson([logLine(l)]), served: [1, 2] });
      await store.cards(scope());
    }
    const before = { cards: await store.cards(scope()), hourly: await store.cards(scope({ intervalMinutes: 60 })), urls: await store.top(scope(), { dimension: 'url', limit: 5, by: 'requests' }) };
    await store.close();
    const instance = await DuckDBInstance.create(path.join(dir, 'analytics.duckdb'));
    const conn = await instance.connect();
    const rowCount = async () => Number((await conn.runAndReadAll('SELECT count(*) FROM base_1h')).getRows()[0][0]);
    expect(await rowCount()).toBe(MIX.length);
    const hour = (ms: number) => new Date(ms).toISOString().replace('T', ' ').slice(0, 19);
    await compact(conn, { from: hour(base), to: hour(base + 2 * HOUR) });
    expect(await rowCount()).toBe(3);
    conn.closeSync();
    instance.closeSync();
    store = createAnalyticsStore({ dataDir: dir });
    expect({ cards: await store.cards(scope()), hourly: await store.cards(scope({ intervalMinutes: 60 })), urls: await store.top(scope(), { dimension: 'url', limit: 5, by: 'requests' }) }).toEqual(before);
  });

  it('takes a batch without offsets once by its content', async () => {
    const batch = { nodeId: 7, ndjson: ndjson([logLine({ siteId: 1, time: at(3) })]), served: [1] };
    await store.ingest(batch);
    await store.ingest(batch);
    expect(await rawLines()).toBe(1);
    await store.ingest({ ...batch, nodeId: 8 });
    expect(await rawLines()).toBe(2);
    expect((await store.totalsBySite({ from: new Date(base), to: new Date(base + 2 * HOUR) }))[0].requests).toBe(2);
  });

  it('loses nothing and counts nothing twice when closed before the rollup ran', async () => {
    await store.ingest({ nodeId: 7, file: 'f', ndjson: ndjson(withOffsets(MIX.slice(0, 3))), served: [1] });
    await reopen();
    await store.ingest({ nodeId: 7, file: 'f', ndjson: ndjson(withOffsets(MIX.slice(0, 4))), served: [1] });
    expect(await rawLines()).toBe(4);
    await reopen();
    expect((await store.cards(scope())).requests).toBe(4);
    await reopen();
    expect((await store.cards(scope({ intervalMinutes: 60 }))).requests).toBe(4);
  });

  it('loads at open the batches a stopped process acknowledged and had not loaded, once, and drops what a cut write left', async () => {
    await store.close();
    const spoolDir = path.join(dir, 'analytics-spool');
    const spool = await openSpool(spoolDir);
    const text = Buffer.from(ndjson(withOffsets(MIX.slice(0, 3))));
    await spool.put(text, { gzip: false, limits: { bytes: Infinity, lines: Infinity } }, async ({ lines, last, digest }) => ({ ...(await identify({ last, file: 'f', digest })), nodeId: 7, served: [1], shiftMs: 0, lines }));
    // a write cut short: its origin written, its lines never moved into place
    fs.writeFileSync(path.join(spoolDir, '99.json'), '{}');
    fs.writeFileSync(path.join(spoolDir, '99.ndjson.part'), text);
    store = createAnalyticsStore({ dataDir: dir });
    expect(await rawLines()).toBe(3);
    // the node did not get the answer and sends the batch again
    expect(await store.ingest({ nodeId: 7, file: 'f', ndjson: text, served: [1] })).toEqual({ accepted: 3 });
    expect(await rawLines()).toBe(3);
    expect((await store.cards(scope())).requests).toBe(3);
    expect(fs.readdirSync(spoolDir)).toEqual([]);
  });

  it(`prunes raw lines after ${RAW_RETENTION_DAYS} days and keeps their rollups`, async () => {
    const old = new Date(Date.now() - (RAW_RETENTION_DAYS + 1) * 86_400_000);
    await store.ingest({ nodeId: 1, ndjson: ndjson([logLine({ siteId: 1, bytesSent: 100, time: old.toISOString() })]), served: [1] });
    const window = { from: new Date(old.getTime() - HOUR), to: new Date(Date.now() + HOUR) };
    expect(await store.countLines({ siteIds: [1], ...window })).toBe(1);
    await reopen();
    await store.ingest({ nodeId: 1, ndjson: ndjson([logLine({ siteId: 1, bytesSent: 1 })]), served: [1] });
    expect((await store.totalsBySite(window))[0]).toMatchObject({ bytesSent: 101, requests: 2 });
    expect(await store.countLines({ siteIds: [1], ...window })).toBe(1);
  });

  it('forgets the numbers of client addresses whose rollups are all pruned', async () => {
    const long = new Date(Date.now() - 401 * 86_400_000).toISOString();
    await store.ingest({ nodeId: 1, ndjson: ndjson([logLine({ siteId: 1, clientIp: '10.9.9.9', time: long }), logLine({ siteId: 1, clientIp: '10.1.1.1' })]), served: [1] });
    expect((await store.cards(scope({ from: new Date(base), to: new Date(Date.now() + HOUR) }))).requests).toBe(1);
    await store.close();
    const instance = await DuckDBInstance.create(path.join(dir, 'analytics.duckdb'));
    const conn = await instance.connect();
    const numbered = (await conn.runAndReadAll('SELECT value FROM dim_clientip_ids ORDER BY value')).getRowsJS();
    conn.closeSync();
    instance.closeSync();
    expect(numbered).toEqual([['10.1.1.1']]);
  });

  it('searches and streams raw lines newest first', async () => {
    await store.ingest({ nodeId: 7, ndjson: ndjson(MIX.map(logLine)), served: [1, 2] });
    const filter = { siteIds: [1], from: new Date(base), to: new Date(base + 2 * HOUR) };
    const page = await store.lines(filter, { offset: 1, limit: 2 });
    expect(page.total).toBe(5);
    expect(page.rows.map((r) => r.status)).toEqual([444, 403]);
    expect(page.rows[1]).toMatchObject({ nodeId: 7, blockRule: '12:3', blockAction: 'block', upstreamTime: null, time: new Date(at(7)) });
    expect((await store.lines({ ...filter, blockedOnly: true, uri: '/' }, { offset: 0, limit: 10 })).total).toBe(2);
    expect(await store.countLines({ ...filter, clientIp: '2001:db8::1', status: 404, cacheStatus: 'MISS' })).toBe(1);
    const chunks: number[][] = [];
    for await (const chunk of store.streamLines(filter, { chunk: 2 })) chunks.push(chunk.map((l) => l.status));
    expect(chunks).toEqual([[502, 444], [403, 404], [200]]);
  });

  it(`makes its file with ${BLOCK_SIZE / 1024} KB blocks, and keeps a file made with DuckDB's default blocks as it is`, async () => {
    const blockSize = async (file: string) => {
      const instance = await DuckDBInstance.create(file);
      const conn = await instance.connect();
      const [[size]] = (await conn.runAndReadAll('SELECT block_size FROM pragma_database_size()')).getRowsJS();
      conn.closeSync();
      instance.closeSync();
      return Number(size);
    };
    await store.ingest({ nodeId: 7, ndjson: ndjson(MIX.map(logLine)), served: [1, 2] });
    expect((await store.cards(scope())).requests).toBe(5);
    await store.close();
    expect(await blockSize(path.join(dir, 'analytics.duckdb'))).toBe(BLOCK_SIZE);

    const older = fs.mkdtempSync(path.join(os.tmpdir(), 'ek-analytics-older-'));
    try {
      const defaultSize = await blockSize(path.join(older, 'analytics.duckdb'));
      expect(defaultSize).toBeGreaterThan(BLOCK_SIZE);
      const kept = createAnalyticsStore({ dataDir: older });
      await kept.ingest({ nodeId: 7, ndjson: ndjson(MIX.map(logLine)), served: [1, 2] });
      expect((await kept.cards(scope())).requests).toBe(5);
      await kept.close();
      expect(await blockSize(path.join(older, 'analytics.duckdb'))).toBe(defaultSize);
    } finally {
      fs.rmSync(older, { recursive: true, force: true });
    }
    store = createAnalyticsStore({ dataDir: dir });
  });

  it(`writes its lines in row groups of ${ROW_GROUP_SIZE} rows`, async () => {
    const lines = ROW_GROUP_SIZE + 1000;
    const many = Array.from({ length: lines }, (_, i) => logLine({ siteId: 1, time: at(1 + (i % 50)), clientIp: `198.51.100.${i % 250}` }));
    expect((await store.ingest({ nodeId: 7, ndjson: ndjson(many), served: [1] })).accepted).toBe(lines);
    expect((await store.cards(scope())).requests).toBe(lines);
    await store.close();
    const instance = await DuckDBInstance.create(path.join(dir, 'analytics.duckdb'));
    const conn = await instance.connect();
    const groups = (await conn.runAndReadAll(`SELECT row_group_id, max(count) AS n FROM pragma_storage_info('access_log') GROUP BY ALL ORDER BY 1`)).getRowsJS();
    conn.closeSync();
    instance.closeSync();
    expect(groups.map(([, n]) => Number(n))).toEqual([ROW_GROUP_SIZE, 1000]);
    store = createAnalyticsStore({ dataDir: dir });
  });

  it('opens a data directory whose rollups had keys and one dimension table, and keeps their counts', async () => {
    await store.ingest({ nodeId: 7, ndjson: ndjson(MIX.map(logLine)), served: [1, 2] });
    const before = { cards: await store.cards(scope()), ips: await store.top(scope(), { dimension: 'clientIp', limit: 5, by: 'requests' }) };
    await store.close();
    const instance = await DuckDBInstance.create(path.join(dir, 'analytics.duckdb'));
    const conn = await instance.connect();
    for (const r of ['5m', '1h']) {
      const wide = ['clientIp', 'url', 'refererHost', 'region', 'city', 'isp'];
      await conn.run(`CREATE TABLE base_${r}_k AS SELECT * FROM base_${r} LIMIT 0`);
      await conn.run(`ALTER TABLE base_${r}_k ADD PRIMARY KEY (bucket, site_id, domain, node_id)`);
      await conn.run(`INSERT INTO base_${r}_k SELECT * FROM base_${r}`);
      await conn.run(`CREATE TABLE dim_${r}_k AS SELECT * FROM dim_${r} LIMIT 0`);
      await conn.run(`ALTER TABLE dim_${r}_k ADD PRIMARY KEY (bucket, site_id, domain, dim, value)`);
      await conn.run(`INSERT INTO dim_${r}_k SELECT * FROM dim_${r}`);
      const counters = `COLUMNS(c -> c NOT IN ('bucket', 'site_id', 'domain', 'value_hash', 'value_id'))`;
      for (const d of wide) await conn.run(`INSERT INTO dim_${r}_k SELECT bucket, site_id, domain, '${d}', ${counters} FROM dim_${d.toLowerCase()}_${r}`);
      for (const table of [`base_${r}`, `dim_${r}`, ...wide.map((d) => `dim_${d.toLowerCase()}_${r}`)]) await conn.run(`DROP TABLE ${table}`);
      await conn.run(`ALTER TABLE base_${r}_k RENAME TO base_${r}`);
      await conn.run(`ALTER TABLE dim_${r}_k RENAME TO dim_${r}`);
    }
    await conn.run('DROP TABLE dim_clientip_ids');
    await conn.run('DROP SEQUENCE dim_clientip_id_seq');
    conn.closeSync();
    instance.closeSync();
    store = createAnalyticsStore({ dataDir: dir });
    expect({ cards: await store.cards(scope()), ips: await store.top(scope(), { dimension: 'clientIp', limit: 5, by: 'requests' }) }).toEqual(before);
    await store.ingest({ nodeId: 7, ndjson: ndjson([logLine({ siteId: 1, time: at(12) })]), served: [1] });
    expect((await store.cards(scope())).requests).toBe(6);
  });

  it('opens a data directory whose wide rollups had no value hashes, and ranks them as before', async () => {
    await store.ingest({ nodeId: 7, ndjson: ndjson(MIX.map(logLine)), served: [1, 2] });
    const ips = () => store.top(scope(), { dimension: 'clientIp', limit: 2, by: 'traffic' });
    const before = await ips();
    await store.close();
    const instance = await DuckDBInstance.create(path.join(dir, 'analytics.duckdb'));
    const conn = await instance.connect();
    for (const r of ['5m', '1h']) for (const d of ['clientip', 'url', 'refererhost', 'region', 'city', 'isp']) await conn.run(`ALTER TABLE dim_${d}_${r} DROP COLUMN value_hash`);
    conn.closeSync();
    instance.closeSync();
    store = createAnalyticsStore({ dataDir: dir });
    expect(await ips()).toEqual(before);
  });

  it('ranks a wide dimension exactly when hashes collide or ties pass the cut', async () => {
    await store.ingest({ nodeId: 7, ndjson: ndjson(MIX.map(logLine)), served: [1, 2] });
    const urls = () => store.top(scope(), { dimension: 'url', limit: 1, by: 'requests' });
    const exact = await urls();
    expect(exact.rows).toEqual([expect.objectContaining({ key: '/', requests: 3 })]);
    await store.close();
    const instance = await DuckDBInstance.create(path.join(dir, 'analytics.duckdb'));
    const conn = await instance.connect();
    // every value of the site now shares one hash: the ranking must fall back to the text
    for (const r of ['5m', '1h']) await conn.run(`UPDATE dim_url_${r} SET value_hash = 1`);
    conn.closeSync();
    instance.closeSync();
    store = createAnalyticsStore({ dataDir: dir });
    expect(await urls()).toEqual(exact);
  });

  it('ranks client addresses by their numbers: one per address, kept across folds, given to a store made before them', async () => {
    const ip = (clientIp: string, bytesSent: number, minutes: number) => logLine({ siteId: 1, clientIp, bytesSent, time: at(minutes) });
    await store.ingest({ nodeId: 7, ndjson: ndjson([ip('10.0.0.1', 100, 1), ip('10.0.0.2', 300, 2), ip('10.0.0.3', 50, 3)]), served: [1] });
    const ips = () => store.top(scope(), { dimension: 'clientIp', limit: 2, by: 'traffic' });
    const before = await ips();
    expect(before.rows.map((r) => [r.key, r.traffic])).toEqual([['10.0.0.2', 300], ['10.0.0.1', 100]]);
    await store.close();
    const instance = await DuckDBInstance.create(path.join(dir, 'analytics.duckdb'));
    let conn = await instance.connect();
    for (const r of ['5m', '1h']) await conn.run(`ALTER TABLE dim_clientip_${r} DROP COLUMN value_id`);
    await conn.run('DROP TABLE dim_clientip_ids');
    await conn.run('DROP SEQUENCE dim_clientip_id_seq');
    conn.closeSync();
    instance.closeSync();
    store = createAnalyticsStore({ dataDir: dir });
    expect(await ips()).toEqual(before);
    // a later fold numbers an address it has seen as before, and a new one anew
    await store.ingest({ nodeId: 7, ndjson: ndjson([ip('10.0.0.1', 250, 20), ip('10.0.0.4', 10, 21)]), served: [1] });
    expect((await ips()).rows.map((r) => [r.key, r.traffic, r.requests])).toEqual([['10.0.0.1', 350, 2], ['10.0.0.2', 300, 1]]);
    await store.close();
    const reopened = await DuckDBInstance.create(path.join(dir, 'analytics.duckdb'));
    conn = await reopened.connect();
    const numbers = (await conn.runAndReadAll('SELECT value, count(*) AS n FROM dim_clientip_ids GROUP BY value ORDER BY value')).getRowsJS();
    const rowsWithout = (await conn.runAndReadAll('SELECT count(*) FROM dim_clientip_1h WHERE value_id IS NULL')).getRowsJS();
    conn.closeSync();
    reopened.closeSync();
    expect(numbers).toEqual(['10.0.0.1', '10.0.0.2', '10.0.0.3', '10.0.0.4'].map((v) => [v, 1n]));
    expect(rowsWithout).toEqual([[0n]]);
  });

  it('opens a data directory of the first store and keeps its lines and rollups', async () => {
    await store.close();
    const instance = await DuckDBInstance.create(path.join(dir, 'analytics.duckdb'));
    const conn = await instance.connect();
    await conn.run(`CREATE TABLE access_log (batch_id BIGINT NOT NULL, node_id INTEGER NOT NULL, site_id INTEGER NOT NULL, domain VARCHAR NOT NULL, time TIMESTAMP NOT NULL,
      client_ip VARCHAR, country VARCHAR, asn VARCHAR, method VARCHAR, uri VARCHAR, status INTEGER, bytes_sent BIGINT, bytes_received BIGINT,
      request_time DOUBLE, upstream_time DOUBLE, cache_status VARCHAR, http_version VARCHAR, referer VARCHAR, user_agent VARCHAR, block_cause VARCHAR)`);
    await conn.run(`CREATE TABLE rollup_5m (bucket TIMESTAMP NOT NULL, site_id INTEGER NOT NULL, domain VARCHAR NOT NULL, requests BIGINT NOT NULL,
      bytes_sent BIGINT NOT NULL, bytes_received BIGINT NOT NULL, cache_hits BIGINT NOT NULL, cache_bytes BIGINT NOT NULL, status_2xx BIGINT NOT NULL,
      status_3xx BIGINT NOT NULL, status_4xx BIGINT NOT NULL, status_5xx BIGINT NOT NULL, status_other BIGINT NOT NULL, PRIMARY KEY (bucket, site_id, domain))`);
    await conn.run(`CREATE TABLE batches (node_id INTEGER NOT NULL, digest VARCHAR NOT NULL, id BIGINT NOT NULL, received_at TIMESTAMP NOT NULL, PRIMARY KEY (node_id, digest))`);
    await conn.run('CREATE SEQUENCE batch_ids');
    const stamp = (minutes: number) => at(minutes).replace('T', ' ').replace('Z', '');
    // An old bucket whose raw lines were pruned, and one bucket with its line.
    await conn.run(`INSERT INTO rollup_5m VALUES ('${stamp(0)}', 1, 'www.example.com', 3, 30, 3, 1, 10, 3, 0, 0, 0, 0), ('${stamp(10)}', 1, 'www.example.com', 1, 5, 1, 0, 0, 1, 0, 0, 0, 0)`);
    await conn.run(`INSERT INTO access_log VALUES (1, 7, 1, 'www.example.com', '${stamp(11)}', '10.0.0.1', 'TW', '', 'GET', '/x?q', 200, 5, 1, 0.1, 0.05, 'MISS', 'HTTP/1.1', '', 'curl/8', '')`);
    conn.closeSync();
    instance.closeSync();

    store = createAnalyticsStore({ dataDir: dir });
    expect(await store.cards(scope())).toMatchObject({ requests: 4, traffic: 35, cacheHits: 1 });
    expect(await store.cards(scope({ intervalMinutes: 60 }))).toMatchObject({ requests: 4, traffic: 35 });
    expect((await store.top(scope(), { dimension: 'url', limit: 5, by: 'requests' })).rows).toEqual([expect.objectContaining({ key: '/x', requests: 1 })]);
    expect((await store.lines({ siteIds: [1], from: new Date(base), to: new Date(base + HOUR) }, { offset: 0, limit: 5 })).rows[0]).toMatchObject({ uri: '/x?q', region: '' });
    await store.ingest({ nodeId: 7, ndjson: ndjson([logLine({ siteId: 1, time: at(12) })]), served: [1] });
    expect((await store.cards(scope())).requests).toBe(5);
  });
});
