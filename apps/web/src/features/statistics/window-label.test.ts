import { describe, expect, it } from 'vitest';
import { csvFileName, windowLabel } from './window-label';

const t = (key: string) => ({ 'statistics.interval.m5': '5 minutes', 'statistics.interval.m1440': '1 day' })[key] ?? key;
const window = { startTime: '2025-03-01T10:00:00.000Z', endTime: '2025-03-01T13:00:00.000Z', reportInterval: 5, timeZone: 'UTC' };

describe('window labels', () => {
  it('say the window in minutes and the interval in words', () => {
    expect(windowLabel({ window, t })).toBe('2025/03/01 10:00 – 13:00 · 5 minutes');
    expect(windowLabel({ window: { ...window, reportInterval: 1440 }, t })).toBe('2025/03/01 10:00 – 13:00 · 1 day');
  });

  it('say an interval without words in minutes, and nothing yet while loading', () => {
    expect(windowLabel({ window: { ...window, reportInterval: 30 }, t })).toBe('2025/03/01 10:00 – 13:00 · 30 min');
    expect(windowLabel({ window: undefined, t })).toBe('---');
  });
});

describe('the CSV file name', () => {
  it('names the grouping and the window', () => {
    expect(csvFileName({ groupBy: 'domain', window })).toBe('statistics-domain-20250301-1000-20250301-1300.csv');
    expect(csvFileName({ groupBy: 'url' })).toBe('statistics-url.csv');
  });
});
