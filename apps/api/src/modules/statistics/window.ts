import { statisticsSchemas } from '@edgekeep/contract';

const { FIVE_MINUTE_ROLLUP_DAYS, RELATIVE_WINDOW_MINUTES, REPORT_INTERVALS, TIME_SERIES_PAGE_SIZE } = statisticsSchemas;
const MINUTE = 60_000;
const DAY = 1440 * MINUTE;
const ALIGN = 5 * MINUTE;

type WindowInput = {
  timeInterval: statisticsSchemas.TimeInterval;
  startTime?: string;
  endTime?: string;
  reportInterval: number;
  timeZone?: string;
};
export type Window = { from: Date; to: Date; intervalMinutes: number; timeZone: string };

/** Milliseconds the zone's wall clock is ahead of UTC at an instant. */
function offsetMs(at: number, timeZone: string) {
  const parts = new Intl.DateTimeFormat('en-US', {
    timeZone, hourCycle: 'h23', year: 'numeric', month: 'numeric', day: 'numeric', hour: 'numeric', minute: 'numeric', second: 'numeric',
  }).formatToParts(new Date(at));
  const p = Object.fromEntries(parts.map((x) => [x.type, Number(x.value)]));
  return Date.UTC(p.year, p.month - 1, p.day, p.hour, p.minute, p.second) - Math.floor(at / 1000) * 1000;
}

/** The zone's calendar date at an instant (month from 0). */
function localDate(at: number, timeZone: string) {
  const d = new Date(at + offsetMs(at, timeZone));
  return { year: d.getUTCFullYear(), month: d.getUTCMonth(), day: d.getUTCDate() };
}

/** The instant the zone's day year-month-day starts (overflowing months and days roll over). */
function zonedMidnight({ year, month, day }: { year: number; month: number; day: number }, timeZone: string) {
  const wall = Date.UTC(year, month, day);
  const guess = wall - offsetMs(wall, timeZone);
  return wall - offsetMs(guess, timeZone);
}

const floorTo = (ms: number, step: number) => Math.floor(ms / step) * step;
const ceilTo = (ms: number, step: number) => Math.ceil(ms / step) * step;

/** [from, to) of a preset or custom window before alignment. */
function span(f: WindowInput, now: number, timeZone: string): [number, number] {
  const relative = RELATIVE_WINDOW_MINUTES[f.timeInterval];
  if (relative) return [now - relative * MINUTE, now];
  const today = localDate(now, timeZone);
  switch (f.timeInterval) {
    case 'today':
      return [zonedMidnight(today, timeZone), now];
    case 'yesterday':
      return [zonedMidnight({ ...today, day: today.day - 1 }, timeZone), zonedMidnight(today, timeZone)];
    case 'thisMonth':
      return [zonedMidnight({ ...today, day: 1 }, timeZone), now];
    case 'lastMonth':
      return [zonedMidnight({ ...today, month: today.month - 1, day: 1 }, timeZone), zonedMidnight({ ...today, day: 1 }, timeZone)];
    default:
      return [Date.parse(f.startTime!), f.endTime ? Date.parse(f.endTime) : now];
  }
}

/**
 * The window a statistics call covers: the preset (relative ones end now; calendar ones in the time zone) or
 * custom span, widened to 5-minute boundaries, then to the bucket size, which is made coarser when the window
 * reaches past the 5-minute rollups or would need more points than a time-series page holds.
 */
export function resolveWindow(f: WindowInput, now = Date.now()): Window {
  const timeZone = f.timeZone ?? 'UTC';
  const [start, end] = span(f, now, timeZone);
  const from = floorTo(start, ALIGN);
  const to = Math.max(ceilTo(end, ALIGN), from + ALIGN);
  const rollupStart = floorTo(now, ALIGN) - FIVE_MINUTE_ROLLUP_DAYS * DAY;
  const intervalMinutes =
    REPORT_INTERVALS.find((n) => n >= f.reportInterval && (n >= 60 || from >= rollupStart) && (to - from) / (n * MINUTE) <= TIME_SERIES_PAGE_SIZE) ?? 1440;
  if (intervalMinutes < 1440) {
    const step = intervalMinutes * MINUTE;
    return { from: new Date(floorTo(from, step)), to: new Date(ceilTo(to, step)), intervalMinutes, timeZone };
  }
  const first = zonedMidnight(localDate(from, timeZone), timeZone);
  const lastDay = localDate(to - 1, timeZone);
  return { from: new Date(first), to: new Date(zonedMidnight({ ...lastDay, day: lastDay.day + 1 }, timeZone)), intervalMinutes, timeZone };
}

/** The answer's `window`. */
export const windowOf = (w: Window) => ({ startTime: w.from.toISOString(), endTime: w.to.toISOString(), reportInterval: w.intervalMinutes, timeZone: w.timeZone });
