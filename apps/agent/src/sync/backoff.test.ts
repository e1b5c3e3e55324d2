import { describe, expect, it } from 'vitest';
import { backoffDelay, sleep } from './backoff';

describe('backoffDelay', () => {
  it('doubles from the base, between half and all of the ceiling', () => {
    expect([0, 1, 2, 3].map((attempt) => backoffDelay({ attempt, baseMs: 100, random: () => 0 }))).toEqual([50, 100, 200, 400]);
    expect([0, 1, 2, 3].map((attempt) => backoffDelay({ attempt, baseMs: 100, random: () => 1 }))).toEqual([100, 200, 400, 800]);
  });

  it('stops growing at the cap, also for very many attempts', () => {
    for (const attempt of [7, 20, 1000]) {
      const delay = backoffDelay({ attempt, baseMs: 500, capMs: 30_000, random: () => 0.5 });
      expect(delay).toBe(22_500);
    }
  });

  it('spreads retries with its random source', () => {
    const delays = new Set(Array.from({ length: 50 }, () => backoffDelay({ attempt: 6 })));
    expect(delays.size).toBeGreaterThan(40);
    for (const d of delays) expect(d >= 15_000 && d <= 30_000).toBe(true);
  });
});

describe('sleep', () => {
  it('ends early when aborted', async () => {
    const controller = new AbortController();
    const started = Date.now();
    const slept = sleep({ ms: 10_000, signal: controller.signal });
    controller.abort();
    await slept;
    expect(Date.now() - started).toBeLessThan(1000);
  });
});
