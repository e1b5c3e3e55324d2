import { afterEach, describe, expect, it } from 'vitest';
import { PAGE_SIZE_KEY, storedPageSize } from './domain-rank-card';

afterEach(() => localStorage.clear());

describe('domain ranking page size', () => {
  it('comes from local storage when it is one of the offered sizes', () => {
    expect(storedPageSize()).toBe(10);
    localStorage.setItem(PAGE_SIZE_KEY, '50');
    expect(storedPageSize()).toBe(50);
  });
  it('falls back to the default page size on anything else', () => {
    localStorage.setItem(PAGE_SIZE_KEY, '7');
    expect(storedPageSize()).toBe(10);
    localStorage.setItem(PAGE_SIZE_KEY, 'many');
    expect(storedPageSize()).toBe(10);
  });
});
