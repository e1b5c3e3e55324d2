import { describe, expect, it } from 'vitest';
import { rateRule, siteOptions, urlPrefix } from './site-options';

describe('site options of the desired state', () => {
  it('defaults to no HSTS, the zone body size, no WebP, the full cache key and every zone port', () => {
    expect(siteOptions.parse({})).toEqual({
      hsts: { enabled: false, maxAge: 31_536_000, includeSubDomains: false, preload: false },
      clientMaxBodySize: null,
      webp: false,
      rateRules: [],
      cache: { ignoreQuery: false },
      httpPorts: null,
      httpsPorts: null,
    });
  });

  it('takes URL prefixes that begin with http(s):// and end with /, and nothing that would break out of nginx strings', () => {
    for (const ok of ['https://a.example.com/', 'http://a.example.com/x/y/', 'https://a.example.com/~u/%20/']) expect(urlPrefix.safeParse(ok).success, ok).toBe(true);
    for (const bad of ['a.example.com/', 'https://a.example.com/x', 'https://a.example.com/*/', 'https://a.example.com/a"/', 'https://a.example.com/$x/', 'https://a.example.com/a;b/', 'ftp://a.example.com/']) {
      expect(urlPrefix.safeParse(bad).success, bad).toBe(false);
    }
  });

  it('takes a rate of at least 1 K/s, in whole numbers', () => {
    expect(rateRule.safeParse({ url: 'https://a.example.com/', rate: 1 }).success).toBe(true);
    for (const rate of [0, -1, 1.5, '5']) expect(rateRule.safeParse({ url: 'https://a.example.com/', rate }).success).toBe(false);
  });
});
