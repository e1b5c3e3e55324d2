import { describe, expect, it } from 'vitest';
import { alignToFive, defaultLogWindow, isLogWindow } from './log-window';

describe('log windows', () => {
  it('open on the last hour, on five-minute boundaries, including now', () => {
    expect(defaultLogWindow(Date.parse('2025-03-01T10:07:31Z'))).toEqual({ startTime: '2025-03-01T09:10:00.000Z', endTime: '2025-03-01T10:10:00.000Z' });
    expect(new Date(alignToFive(Date.parse('2025-03-01T10:05:00Z'))).toISOString()).toBe('2025-03-01T10:05:00.000Z');
  });

  it('span at most one day, forwards', () => {
    expect(isLogWindow({ startTime: '2025-03-01T00:00:00Z', endTime: '2025-03-02T00:00:00Z' })).toBe(true);
    expect(isLogWindow({ startTime: '2025-03-01T00:00:00Z', endTime: '2025-03-02T00:05:00Z' })).toBe(false);
    expect(isLogWindow({ startTime: '2025-03-01T01:00:00Z', endTime: '2025-03-01T00:00:00Z' })).toBe(false);
  });
});
