import { describe, expect, it } from 'vitest';
import { cacheDirectory, rateRule, siteOptions, urlPrefix } from './site-options';

describe('site options of the desired state', () => {
  it('defaults to no HSTS, the zone body size, no WebP, the full cache key and every zone port', () => {
    expect(siteOptions.parse({})).toEqual({
      hsts: { enabled: false, maxAge: 31_536_000, includeSubDomains: false, preload: false },
      clientMaxBodySize: null,
      webp: false,
      rateRules: [],
      cache: { ignoreQuery: false, directory: null },
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

  it('takes an absolute cache directory nginx can read unquoted, without its trailing slash', () => {
    expect(cacheDirectory.parse('/var/cache/nginx/edgekeep/shop_1.v2/')).toBe('/var/cache/nginx/edgekeep/shop_1.v2');
    const bad = ['var/cache', '/var/cache/../etc', '/var/./cache', '/var/cache nginx', '/var/"cache"', '/var/cache;x', "/var/'c'", '/var//cache', '/', `/${'a'.repeat(200)}`];
    for (const path of bad) expect(cacheDirectory.safeParse(path).success, path).toBe(false);
  });
});
