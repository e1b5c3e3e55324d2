import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { logLine } from '../../test/agent-logs';
import { createAnalyticsStore, RAW_RETENTION_DAYS, type AnalyticsStore } from './store';

const line = (o: { siteId: number; bytesSent: number; daysAgo?: number; domain?: string; status?: number; cacheStatus?: string }) => ({
  ...logLine({ ...o, time: new Date(Date.now() - (o.daysAgo ?? 0) * 86_400_000).toISOString() }),
  siteId: o.siteId,
});

describe('analytics store', () => {
  let dir: string;
  let store: AnalyticsStore;
  const month = () => ({ from: new Date(Date.now() - 40 * 86_400_000), to: new Date(Date.now() + 86_400_000) });

  beforeEach(() => {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'ek-analytics-'));
    store = createAnalyticsStore({ dataDir: dir });
  });
  afterEach(async () => {
    await store.close();
    fs.rmSync(dir, { recursive: true, force: true });
  });

  it('keeps the file in the data directory and rolls lines up per site, with cache hits and bytes', async () => {
    await store.ingest({ nodeId: 1, digest: 'a', lines: [line({ siteId: 1, bytesSent: 10 }), line({ siteId: 1, bytesSent: 5, cacheStatus: 'HIT' }), line({ siteId: 2, bytesSent: 7, domain: 'b.example.com' })] });
    expect(fs.existsSync(path.join(dir, 'analytics.duckdb'))).toBe(true);
    const totals = await store.totalsBySite(month());
    expect(totals).toEqual([
      { siteId: 1, bytesSent: 15, bytesReceived: 400, requests: 2, cacheHits: 1, cacheBytes: 5 },
      { siteId: 2, bytesSent: 7, bytesReceived: 200, requests: 1, cacheHits: 0, cacheBytes: 0 },
    ]);
    expect(await store.totalsBySite({ ...month(), siteIds: [2] })).toHaveLength(1);
    expect(await store.totalsBySite({ ...month(), siteIds: [] })).toEqual([]);
  });

  it('takes a batch once per node: the same content again is not counted, another node\'s is', async () => {
    const lines = [line({ siteId: 1, bytesSent: 10 })];
    expect(await store.ingest({ nodeId: 1, digest: 'same', lines })).toBe(true);
    expect(await store.ingest({ nodeId: 1, digest: 'same', lines })).toBe(false);
    expect(await store.ingest({ nodeId: 2, digest: 'same', lines })).toBe(true);
    expect((await store.totalsBySite(month()))[0].requests).toBe(2);
  });

  it(`prunes raw rows older than ${RAW_RETENTION_DAYS} days and keeps their rollups`, async () => {
    await store.ingest({ nodeId: 1, digest: 'old', lines: [line({ siteId: 1, bytesSent: 100, daysAgo: RAW_RETENTION_DAYS + 1 })] });
    expect(await store.rawCount({ siteId: 1 })).toBe(1);
    await store.close();
    store = createAnalyticsStore({ dataDir: dir });
    await store.ingest({ nodeId: 1, digest: 'new', lines: [line({ siteId: 1, bytesSent: 1 })] });
    expect(await store.rawCount({ siteId: 1 })).toBe(1);
    expect((await store.totalsBySite(month()))[0]).toMatchObject({ bytesSent: 101, requests: 2 });
  });
});
