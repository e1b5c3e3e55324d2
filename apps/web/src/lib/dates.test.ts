import { describe, expect, it } from 'vitest';
import { formatDate, formatRange, formatTaipei, guessTimezone } from './dates';

// The test process runs with TZ=UTC (see the web project in vitest.config.ts), so the browser timezone is UTC.
describe('dates', () => {
  const at = '2026-03-04T05:06:07Z';
  it('formats in each of the spec formats', () => {
    expect(formatDate(at)).toBe('2026/03/04 05:06:07');
    expect(formatDate(at, 'minute')).toBe('2026/03/04 05:06');
    expect(formatDate(at, 'date')).toBe('2026/03/04');
    expect(formatDate(at, 'month')).toBe('2026/03');
    expect(formatDate(at, 'monthDay')).toBe('03/04');
  });
  it('treats year 0001 and missing dates as empty', () => {
    expect(formatDate('0001-01-01T00:00:00Z')).toBe('');
    expect(formatDate(null)).toBe('');
    expect(formatDate('')).toBe('');
    expect(formatDate('not a date')).toBe('');
  });
  it('guesses the timezone from the browser', () => {
    expect(guessTimezone()).toBe('UTC');
  });
  it('shows Asia/Taipei time, eight hours ahead of UTC', () => {
    expect(formatTaipei(at)).toBe('2026/03/04 13:06:07');
    expect(formatTaipei('2026-12-31T20:00:00Z', 'date')).toBe('2027/01/01');
    expect(formatTaipei('0001-01-01T00:00:00Z')).toBe('');
  });
  it('shows a window to the minute, leaving out the end date on the same day', () => {
    expect(formatRange({ start: '2026-03-04T05:00:00Z', end: '2026-03-04T08:05:00Z' })).toBe('2026/03/04 05:00 – 08:05');
    expect(formatRange({ start: '2026-03-04T05:00:00Z', end: '2026-03-05T00:00:00Z' })).toBe('2026/03/04 05:00 – 2026/03/05 00:00');
  });
});
