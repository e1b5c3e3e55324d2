import { describe, expect, it } from 'vitest';
import { covers } from './certificate-covers';

describe('covers', () => {
  it('matches a name exactly', () => {
    expect(covers(['shop.example.com'], 'shop.example.com')).toBe(true);
    expect(covers(['shop.example.com'], 'www.shop.example.com')).toBe(false);
  });
  it('lets a wildcard cover exactly one more label', () => {
    expect(covers(['*.example.com'], 'www.example.com')).toBe(true);
    expect(covers(['*.example.com'], 'a.b.example.com')).toBe(false);
    expect(covers(['*.example.com'], 'example.com')).toBe(false);
    expect(covers(['*.example.com'], 'badexample.com')).toBe(false);
  });
});
