import { describe, expect, it } from 'vitest';
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
});
