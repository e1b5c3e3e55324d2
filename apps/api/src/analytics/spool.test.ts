import { describe, expect, it } from 'vitest';
import { BatchRefused, lineScanner, scanLines } from './spool';

const NO_LIMITS = { bytes: Infinity, lines: Infinity };

/** The scan of `text` pushed in pieces cut at `cuts` (byte positions). */
const scanCut = (text: string, cuts: number[], limits = NO_LIMITS) => {
  const bytes = Buffer.from(text);
  const scan = lineScanner(limits);
  let from = 0;
  for (const at of [...cuts, bytes.length]) {
    scan.push(bytes.subarray(from, at));
    from = at;
  }
  const { lines, last } = scan.end();
  return { lines, last: last?.toString() };
};

describe('a batch read as it is written', () => {
  const text = '{"a":1}\n\n   \n{"b":22}\r\n  {"c":333}';

  it('counts the lines that hold more than white space and keeps the last, wherever the chunks are cut', () => {
    expect(scanLines(Buffer.from(text))).toMatchObject({ lines: 3 });
    expect(scanLines(Buffer.from(text)).last?.toString()).toBe('  {"c":333}');
    for (let a = 0; a <= text.length; a++) {
      for (let b = a; b <= text.length; b += 3) expect(scanCut(text, [a, b])).toEqual({ lines: 3, last: '  {"c":333}' });
    }
    expect(scanCut('{"a":1}\n{"b":2}\n\n  \n', [9, 10, 17])).toEqual({ lines: 2, last: '{"b":2}' });
    expect(scanCut('\n \n', [1])).toEqual({ lines: 0, last: undefined });
  });

  it('refuses a batch past its limits of lines and of bytes, and takes one at them', () => {
    expect(scanCut(text, [5], { bytes: Infinity, lines: 3 }).lines).toBe(3);
    expect(() => scanCut(text, [5], { bytes: Infinity, lines: 2 })).toThrow(BatchRefused);
    expect(scanCut(text, [5], { bytes: Buffer.byteLength(text), lines: Infinity }).lines).toBe(3);
    expect(() => scanCut(text, [5], { bytes: Buffer.byteLength(text) - 1, lines: Infinity })).toThrow(expect.objectContaining({ reason: 'bytes' }));
  });
});
