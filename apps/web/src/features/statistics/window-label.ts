import type { statisticsWindow } from '@edgekeep/contract/schemas/statistics';
import type { z } from 'zod';
import { formatRange } from '../../lib/dates';

export type StatisticsWindow = z.output<typeof statisticsWindow>;
type IntervalKey = 'statistics.interval.m5' | 'statistics.interval.m15' | 'statistics.interval.m60' | 'statistics.interval.m1440';

export const INTERVAL_KEYS: Record<number, IntervalKey> = {
  5: 'statistics.interval.m5',
  15: 'statistics.interval.m15',
  60: 'statistics.interval.m60',
  1440: 'statistics.interval.m1440',
};

/** What an answer covers, as the screens say it: "2025/01/01 10:00 – 13:00 · 5 minutes". */
export function windowLabel({ window, t }: { window: StatisticsWindow | undefined; t: (key: IntervalKey) => string }): string {
  if (!window) return '---';
  const key = INTERVAL_KEYS[window.reportInterval];
  const interval = key ? t(key) : `${window.reportInterval} min`;
  return `${formatRange({ start: window.startTime, end: window.endTime })} · ${interval}`;
}

const compact = (iso: string) => iso.slice(0, 16).replace(/[-:]/g, '').replace('T', '-');

/** The CSV export's file name: what it groups by and the window it covers (UTC). */
export const csvFileName = ({ groupBy, window }: { groupBy: string; window?: Pick<StatisticsWindow, 'startTime' | 'endTime'> }) =>
  window ? `statistics-${groupBy}-${compact(window.startTime)}-${compact(window.endTime)}.csv` : `statistics-${groupBy}.csv`;
