import { describe, expect, it, vi } from 'vitest';
import { createLatestWriter } from './latest-writer';

describe('the latest-wins writer', () => {
  it('writes the first value at once and only the newest of those handed in meanwhile', async () => {
    const written: number[] = [];
    let release!: () => void;
    const gate = new Promise<void>((r) => (release = r));
    const writer = createLatestWriter<number>({
      write: async (v) => {
        if (v === 1) await gate;
        written.push(v);
      },
      onError: () => undefined,
    });
    writer.schedule(1);
    writer.schedule(2);
    writer.schedule(3);
    release();
    await writer.flush();
    expect(written).toEqual([1, 3]);
  });

  it('hands a failed write to onError and goes on with the next value', async () => {
    const errors: string[] = [];
    const written: number[] = [];
    const writer = createLatestWriter<number>({
      write: async (v) => {
        if (v === 1) throw new Error('disk full');
        written.push(v);
      },
      onError: (err) => errors.push(err.message),
    });
    writer.schedule(1);
    await writer.flush();
    writer.schedule(2);
    await writer.flush();
    expect(errors).toEqual(['disk full']);
    expect(written).toEqual([2]);
  });

  it('writes at once after a quiet spell, then at most once an interval, and at once on flush', async () => {
    vi.useFakeTimers();
    try {
      const written: number[] = [];
      const writer = createLatestWriter<number>({ write: async (v) => void written.push(v), onError: () => undefined, intervalMs: 1000 });
      writer.schedule(1);
      await vi.advanceTimersByTimeAsync(0);
      expect(written).toEqual([1]);
      // a steady stream: the newest value once an interval
      for (let v = 2; v <= 7; v++) {
        writer.schedule(v);
        await vi.advanceTimersByTimeAsync(300);
      }
      expect(written).toEqual([1, 5]);
      writer.schedule(8);
      await writer.flush();
      expect(written).toEqual([1, 5, 8]);
      await vi.advanceTimersByTimeAsync(5000);
      writer.schedule(9);
      await vi.advanceTimersByTimeAsync(0);
      expect(written).toEqual([1, 5, 8, 9]);
    } finally {
      vi.useRealTimers();
    }
  });
});
