import dayjs from 'dayjs';
import timezone from 'dayjs/plugin/timezone';
import utc from 'dayjs/plugin/utc';

dayjs.extend(utc);
dayjs.extend(timezone);

export const DATE_FORMATS = {
  dateTime: 'YYYY/MM/DD HH:mm:ss',
  minute: 'YYYY/MM/DD HH:mm',
  date: 'YYYY/MM/DD',
  month: 'YYYY/MM',
  monthDay: 'MM/DD',
} as const;
export type DateFormat = keyof typeof DATE_FORMATS;
type DateInput = string | number | Date | null | undefined;

const TAIPEI = 'Asia/Taipei';

/** Servers write "no date" as year 0001; it shows as empty like a missing date. */
function parse(value: DateInput) {
  if (value === null || value === undefined || value === '') return undefined;
  const d = dayjs(value);
  if (!d.isValid() || d.year() <= 1) return undefined;
  return d;
}

let browserZone: string | undefined;
/** The browser's own timezone, which every date of the console is shown in (asked once: asking builds a formatter). */
export const guessTimezone = () => (browserZone ??= dayjs.tz.guess());

/**
 * A date in the browser's timezone. dayjs reads dates in local time, which is that zone: no conversion per date (a
 * conversion builds an Intl formatter each time, which made a chart's axis of a few hundred dates cost a third of a
 * second).
 */
export function formatDate(value: DateInput, format: DateFormat = 'dateTime'): string {
  return parse(value)?.format(DATE_FORMATS[format]) ?? '';
}

/** The same date as seen in Taipei, for the calls and texts that are fixed to that timezone. */
export function formatTaipei(value: DateInput, format: DateFormat = 'dateTime'): string {
  return parse(value)?.tz(TAIPEI).format(DATE_FORMATS[format]) ?? '';
}

/** A window to the minute; its end without the date when it ends on the day it starts. */
export function formatRange({ start, end }: { start: DateInput; end: DateInput }): string {
  const from = formatDate(start, 'minute');
  const to = formatDate(end, 'minute');
  return from.slice(0, 10) === to.slice(0, 10) ? `${from} – ${to.slice(11)}` : `${from} – ${to}`;
}
