import { describe, expect, it } from 'vitest';
import { mergePoints, type QpsPoint } from './use-qps';

const at = (minute: number, reqCount: number): QpsPoint => ({
  time: new Date(Date.UTC(2026, 0, 1, 0, minute)).toISOString(),
  reqCount, respCount: reqCount, traffic: 0, cacheHits: 0, cacheTraffic: 0, upstreamCount: 0, blocked: 0, bandwidth: 0, qps: reqCount / 300,
  status2xx: 0, status3xx: 0, status4xx: 0, status5xx: 0,
});

describe('QPS polling', () => {
  it('replaces the buckets a poll answers again, appends the new ones and moves the window on', () => {
    const first = [at(0, 1), at(5, 2), at(10, 3)];
    const merged = mergePoints(first, [at(10, 4), at(15, 5)]);
    expect(merged.map((p) => [p.time.slice(11, 16), p.reqCount])).toEqual([['00:05', 2], ['00:10', 4], ['00:15', 5]]);
  });

  it('keeps the first answer whole when nothing came before it', () => {
    expect(mergePoints([], [at(0, 1)])).toEqual([at(0, 1)]);
  });
});
