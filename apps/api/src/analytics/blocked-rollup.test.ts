import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { DuckDBInstance } from '@duckdb/node-api';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { logLine } from '../../test/agent-logs';
import { compact } from './rollup';
import { createAnalyticsStore } from './store';
import type { AnalyticsStore, Scope } from './types';

const HOUR = 3_600_000;
const base = Math.floor(Date.now() / HOUR) * HOUR - 2 * HOUR;
const at = (minutes: number) => new Date(base + minutes * 60_000).toISOString();
const ndjson = (lines: unknown[]) => lines.map((l) => JSON.stringify(l)).join('\n') + '\n';
const LINES = [
  logLine({ siteId: 1, time: at(1), clientIp: '192.0.2.1' }),
  logLine({ siteId: 1, time: at(2), clientIp: '192.0.2.2', blockCause: 'blacklist', country: 'US', status: 929, bytesSent: 10 }),
  logLine({ siteId: 1, time: at(8), clientIp: '192.0.2.2', blockCause: 'blocked:acl', country: 'US', status: 444, bytesSent: 0 }),
  logLine({ siteId: 1, time: at(61), clientIp: '192.0.2.3', blockCause: 'acl', blockRule: 'r1', country: 'DE', status: 929, bytesSent: 20 }),
  logLine({ siteId: 2, time: at(3), clientIp: '192.0.2.4', blockCause: 'acl', blockRule: 'r2', status: 929 }),
];

describe('refused lines rollups', () => {
  let dir: string;
  let store: AnalyticsStore;
  const scope = (o: Partial<Scope> = {}): Scope => ({ siteIds: [1], from: new Date(base), to: new Date(base + 2 * HOUR), intervalMinutes: 60, outcomes: 'all', ...o });
  const answers = async () => ({
    all: await store.refusals(scope(), {}),
    blacklist: await store.refusals(scope(), { types: [2] }),
    byType: (await store.refusalTop(scope(), { by: 'blockType', limit: 10 })).rows.map((r) => [r.key, r.requests]),
    waf: (await store.refusalTop(scope(), { types: [12], by: 'blockRule', limit: 10 })).rows.map((r) => [r.key, r.requests]),
    hourly: (await store.refusalSeries(scope(), {})).map((p) => p.requests),
    fine: (await store.refusalSeries(scope({ intervalMinutes: 5 }), { types: [2] })).slice(0, 3).map((p) => p.requests),
  });
  const EXPECTED = {
    all: { requests: 3, traffic: 30, sourceIps: 2 },
    blacklist: { requests: 2, traffic: 10, sourceIps: 1 },
    byType: [['2', 2], ['12', 1]],
    waf: [['r1', 1]],
    hourly: [2, 1],
    fine: [1, 1, 0],
  };

  beforeEach(async () => {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'ek-blocked-'));
    store = createAnalyticsStore({ dataDir: dir });
    await store.ingest({ nodeId: 3, ndjson: ndjson(LINES), served: [1, 2] });
  });
  afterEach(async () => {
    await store.close();
    fs.rmSync(dir, { recursive: true, force: true });
  });

  it('counts refusals by type, rule and bucket from the 5-minute and hourly rollups, the same after compaction', async () => {
    expect(await answers()).toEqual(EXPECTED);
    await store.close();
    const instance = await DuckDBInstance.create(path.join(dir, 'analytics.duckdb'));
    const conn = await instance.connect();
    await compact(conn, { from: new Date(base).toISOString().slice(0, 19).replace('T', ' '), to: new Date(base + 2 * HOUR).toISOString().slice(0, 19).replace('T', ' ') });
    conn.closeSync();
    instance.closeSync();
    store = createAnalyticsStore({ dataDir: dir });
    expect(await answers()).toEqual(EXPECTED);
  });

  it('builds the rollups from the raw lines when a store made before them opens', async () => {
    await store.close();
    const instance = await DuckDBInstance.create(path.join(dir, 'analytics.duckdb'));
    const conn = await instance.connect();
    await conn.run('DROP TABLE blocked_5m');
    await conn.run('DROP TABLE blocked_1h');
    conn.closeSync();
    instance.closeSync();
    store = createAnalyticsStore({ dataDir: dir });
    expect(await answers()).toEqual(EXPECTED);
    await store.ingest({ nodeId: 3, ndjson: ndjson([logLine({ siteId: 1, time: at(62), clientIp: '192.0.2.9', blockCause: 'ipset' })]), served: [1] });
    expect(await store.refusals(scope(), { types: [2] })).toMatchObject({ requests: 3, sourceIps: 2 });
  });
});
