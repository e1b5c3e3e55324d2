import { expect, it } from 'vitest';
import { resolveWindow, windowOf } from './window';

const at = (iso: string) => Date.parse(iso);
const win = (f: Partial<Parameters<typeof resolveWindow>[0]>, now: string) =>
  windowOf(resolveWindow({ timeInterval: 'oneHour', reportInterval: 5, ...f }, at(now)));

it('ends a relative window now, widened to 5-minute boundaries', () => {
  expect(win({}, '2026-03-10T10:02:30Z')).toEqual({ startTime: '2026-03-10T09:00:00.000Z', endTime: '2026-03-10T10:05:00.000Z', reportInterval: 5, timeZone: 'UTC' });
  expect(win({ timeInterval: 'sevenDays', reportInterval: 15 }, '2026-03-10T10:00:00Z')).toMatchObject({ startTime: '2026-03-03T10:00:00.000Z', endTime: '2026-03-10T10:00:00.000Z', reportInterval: 15 });
});

it('takes today, yesterday and the months in the time zone', () => {
  const now = '2026-03-10T20:07:00Z'; // 04:07 on 11 March in Taipei
  expect(win({ timeInterval: 'today', timeZone: 'Asia/Taipei' }, now)).toMatchObject({ startTime: '2026-03-10T16:00:00.000Z', endTime: '2026-03-10T20:10:00.000Z', timeZone: 'Asia/Taipei' });
  expect(win({ timeInterval: 'yesterday', timeZone: 'Asia/Taipei' }, now)).toMatchObject({ startTime: '2026-03-09T16:00:00.000Z', endTime: '2026-03-10T16:00:00.000Z' });
  expect(win({ timeInterval: 'yesterday' }, now)).toMatchObject({ startTime: '2026-03-09T00:00:00.000Z', endTime: '2026-03-10T00:00:00.000Z' });
  expect(win({ timeInterval: 'thisMonth', timeZone: 'America/New_York' }, now)).toMatchObject({ startTime: '2026-03-01T05:00:00.000Z', endTime: '2026-03-10T20:10:00.000Z' });
  // Last month reaches past the 5-minute rollups: hourly.
  expect(win({ timeInterval: 'lastMonth', timeZone: 'America/New_York' }, '2026-01-15T12:00:00Z')).toEqual({
    startTime: '2025-12-01T05:00:00.000Z', endTime: '2026-01-01T05:00:00.000Z', reportInterval: 60, timeZone: 'America/New_York',
  });
});

it('takes a custom window, to now without an end, and keeps day buckets on local midnights', () => {
  expect(win({ timeInterval: 'custom', startTime: '2026-03-10T08:03:00.000Z', endTime: '2026-03-10T09:01:00.000Z' }, '2026-03-10T10:00:00Z')).toMatchObject({
    startTime: '2026-03-10T08:00:00.000Z', endTime: '2026-03-10T09:05:00.000Z', reportInterval: 5,
  });
  expect(win({ timeInterval: 'custom', startTime: '2026-03-10T08:00:00.000Z' }, '2026-03-10T09:58:00Z')).toMatchObject({ endTime: '2026-03-10T10:00:00.000Z' });
  expect(win({ timeInterval: 'custom', startTime: '2026-03-08T08:00:00.000Z', reportInterval: 1440, timeZone: 'Asia/Taipei' }, '2026-03-10T09:00:00Z')).toEqual({
    startTime: '2026-03-07T16:00:00.000Z', endTime: '2026-03-10T16:00:00.000Z', reportInterval: 1440, timeZone: 'Asia/Taipei',
  });
  expect(win({ timeInterval: 'custom', startTime: '2025-12-20T00:00:00.000Z', endTime: '2025-12-21T00:00:00.000Z' }, '2026-03-10T09:00:00Z')).toMatchObject({ reportInterval: 60 });
});
