const UNITS = ['byte', 'kb', 'mb', 'gb', 'tb', 'pb', 'eb', 'zb', 'yb'] as const;

/** Decimal units (base 1000) from byte to yb with two decimals; zero is '0 byte'. */
export function formatBytes(bytes: number): string {
  if (!Number.isFinite(bytes) || bytes === 0) return '0 byte';
  const sign = bytes < 0 ? '-' : '';
  let value = Math.abs(bytes);
  let unit = 0;
  while (value >= 1000 && unit < UNITS.length - 1) {
    value /= 1000;
    unit += 1;
  }
  return `${sign}${value.toFixed(2)} ${UNITS[unit]}`;
}

/** Bandwidth and layer-4 traffic arrive in bits: divided by 8 before formatting. */
export const formatBits = (bits: number) => formatBytes(bits / 8);

/** A share as a whole-number percentage; nothing out of nothing is 0%. */
export function formatPercent(part: number, total: number): string {
  if (!total) return '0%';
  return `${Math.round((part / total) * 100)}%`;
}
