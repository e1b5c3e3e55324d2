import { describe, expect, it } from 'vitest';
import { pageOf } from './page-of';

describe('pageOf', () => {
  const all = Array.from({ length: 23 }, (_, i) => i + 1);
  it('answers the asked page and the whole count', () => {
    expect(pageOf(all, { page: 1, pageSize: 10 })).toEqual({ data: [1, 2, 3, 4, 5, 6, 7, 8, 9, 10], total: 23 });
    expect(pageOf(all, { page: 3, pageSize: 10 })).toEqual({ data: [21, 22, 23], total: 23 });
    expect(pageOf(all, { page: 4, pageSize: 10 }).data).toEqual([]);
  });
});
