import { describe, expect, it } from 'vitest';
import { formatBits, formatBytes, formatPercent } from './units';

describe('units', () => {
  it("shows zero as '0 byte'", () => {
    expect(formatBytes(0)).toBe('0 byte');
  });
  it('uses base 1000, two decimals and lower-case units', () => {
    expect(formatBytes(999)).toBe('999.00 byte');
    expect(formatBytes(1000)).toBe('1.00 kb');
    expect(formatBytes(1536)).toBe('1.54 kb');
    expect(formatBytes(2_500_000)).toBe('2.50 mb');
    expect(formatBytes(7.25e9)).toBe('7.25 gb');
    expect(formatBytes(1e12)).toBe('1.00 tb');
    expect(formatBytes(1e15)).toBe('1.00 pb');
    expect(formatBytes(1e18)).toBe('1.00 eb');
    expect(formatBytes(1e21)).toBe('1.00 zb');
    expect(formatBytes(1e24)).toBe('1.00 yb');
  });
  it('stops at yb', () => {
    expect(formatBytes(5e27)).toBe('5000.00 yb');
  });
  it('divides bits by 8 for bandwidth', () => {
    expect(formatBits(8000)).toBe('1.00 kb');
    expect(formatBits(0)).toBe('0 byte');
  });
  it('rounds percentages to whole numbers', () => {
    expect(formatPercent(1, 3)).toBe('33%');
    expect(formatPercent(2, 3)).toBe('67%');
    expect(formatPercent(5, 0)).toBe('0%');
    expect(formatPercent(10, 10)).toBe('100%');
  });
});
