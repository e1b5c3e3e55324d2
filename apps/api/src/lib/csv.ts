/** One CSV line (RFC 4180): a value with a comma, quote or line break is quoted, quotes doubled. */
export function csvLine(values: readonly unknown[]) {
  return `${values.map((v) => {
    const text = v === null || v === undefined ? '' : String(v);
    return /[",\r\n]/.test(text) ? `"${text.replaceAll('"', '""')}"` : text;
  }).join(',')}\n`;
}

/** A time as file names carry it: `20260102T0305Z` (UTC, to the minute). */
export const fileStamp = (at: Date) => `${at.toISOString().slice(0, 16).replace(/[-:]/g, '')}Z`;
