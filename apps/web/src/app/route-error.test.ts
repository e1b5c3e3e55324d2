import { describe, expect, it } from 'vitest';
import { isChunkFailure } from './route-error';

describe('isChunkFailure', () => {
  it("knows the browsers' words for a screen file that could not be loaded", () => {
    expect(isChunkFailure(new TypeError('Failed to fetch dynamically imported module: http://x/assets/a-1.js'))).toBe(true);
    expect(isChunkFailure(new TypeError('error loading dynamically imported module: http://x/assets/a-1.js'))).toBe(true);
    expect(isChunkFailure(new TypeError('Importing a module script failed.'))).toBe(true);
  });
  it('leaves other failures to the error page', () => {
    expect(isChunkFailure(new Error('Cannot read properties of undefined'))).toBe(false);
    expect(isChunkFailure('Failed to fetch dynamically imported module')).toBe(false);
  });
});
