import { describe, expect, it } from 'vitest';
import { isDue, lastDue } from './schedule';

const at = (iso: string) => new Date(iso);

describe('backup schedule', () => {
  it('finds the newest set instant at or before now, per period (UTC)', () => {
    expect(lastDue({ period: 'daily', time: '03:30', at: at('2026-11-25T05:00:00Z') }).toISOString()).toBe('2026-11-25T03:30:00.000Z');
    expect(lastDue({ period: 'daily', time: '03:30', at: at('2026-11-25T03:29:59Z') }).toISOString()).toBe('2026-11-24T03:30:00.000Z');
    // 2026-11-25 is a Wednesday: the week's instant was Monday the 23rd.
    expect(lastDue({ period: 'weekly', time: '01:00', at: at('2026-11-25T05:00:00Z') }).toISOString()).toBe('2026-11-23T01:00:00.000Z');
    expect(lastDue({ period: 'weekly', time: '06:00', at: at('2026-11-23T05:00:00Z') }).toISOString()).toBe('2026-11-16T06:00:00.000Z');
    expect(lastDue({ period: 'monthly', time: '00:00', at: at('2026-11-25T05:00:00Z') }).toISOString()).toBe('2026-11-01T00:00:00.000Z');
    expect(lastDue({ period: 'monthly', time: '04:00', at: at('2026-01-01T03:00:00Z') }).toISOString()).toBe('2025-12-01T04:00:00.000Z');
  });

  it('is due once per instant, and not for an instant before the setting was saved', () => {
    const row = { period: 'daily', time: '03:00', last_backup_at: null, updated_at: '2026-11-24T10:00:00.000Z' };
    expect(isDue(row, at('2026-11-24T23:00:00Z'))).toBe(false);
    expect(isDue(row, at('2026-11-25T03:00:00Z'))).toBe(true);
    expect(isDue({ ...row, last_backup_at: '2026-11-25T03:00:05.000Z' }, at('2026-11-25T09:00:00Z'))).toBe(false);
  });
});
