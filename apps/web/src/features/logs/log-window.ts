import { LOG_QUERY_MAX_SPAN_MS } from '@edgekeep/contract/schemas/logs';

const FIVE_MINUTES = 5 * 60_000;

/** A time on a 5-minute boundary (spec §5: time-range inputs align to five minutes), rounded down. */
export const alignToFive = (time: number) => Math.floor(time / FIVE_MINUTES) * FIVE_MINUTES;

/** The window a log query opens on: the last hour, aligned to five minutes (its end rounded up to include now). */
export function defaultLogWindow(now: number) {
  const end = alignToFive(now) + FIVE_MINUTES;
  return { startTime: new Date(end - 3600_000).toISOString(), endTime: new Date(end).toISOString() };
}

/** Whether a window is one a log query takes: after its start, and at most one day long. */
export const isLogWindow = ({ startTime, endTime }: { startTime: string; endTime: string }) => {
  const span = Date.parse(endTime) - Date.parse(startTime);
  return span > 0 && span <= LOG_QUERY_MAX_SPAN_MS;
};
