import { describe, expect, it } from 'vitest';
import { batched } from './batched';

describe('batched', () => {
  it('runs the calls made within the wait together and answers each in its place', async () => {
    const runs: number[][] = [];
    const double = batched(async (items: number[]) => (runs.push(items), items.map((n) => n * 2)), { waitMs: 20, max: 100 });
    expect(await Promise.all([double(1), double(2), double(3)])).toEqual([2, 4, 6]);
    expect(runs).toEqual([[1, 2, 3]]);
    expect(await double(4)).toBe(8);
    expect(runs).toEqual([[1, 2, 3], [4]]);
  });

  it('runs a full batch at once, without waiting', async () => {
    const runs: number[][] = [];
    const same = batched(async (items: number[]) => (runs.push(items), items), { waitMs: 60_000, max: 2 });
    expect(await Promise.all([same(1), same(2)])).toEqual([1, 2]);
    expect(runs).toEqual([[1, 2]]);
  });

  it('fails a call answered with an Error alone, and every call when the run fails', async () => {
    const odd = batched(async (items: number[]) => items.map((n) => (n % 2 ? n : new Error(`even ${n}`))), { waitMs: 5, max: 10 });
    const answers = await Promise.allSettled([odd(1), odd(2)]);
    expect(answers[0]).toEqual({ status: 'fulfilled', value: 1 });
    expect(answers[1]).toMatchObject({ status: 'rejected', reason: new Error('even 2') });
    const broken = batched(async (): Promise<number[]> => Promise.reject(new Error('down')), { waitMs: 5, max: 10 });
    const both = await Promise.allSettled([broken(1), broken(2)]);
    expect(both.map((a) => a.status)).toEqual(['rejected', 'rejected']);
  });
});
