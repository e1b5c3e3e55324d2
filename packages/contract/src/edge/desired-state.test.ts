import { describe, expect, it } from 'vitest';
import { edge } from '../index';

const site = (over: Record<string, unknown> = {}) => ({
  id: 1,
  name: 'shop',
  domains: [{ id: 10, name: 'shop.example.com', origins: [{ host: '10.0.0.5' }] }],
  ...over,
});
const state = (over: { sites?: unknown[]; data?: unknown; zone?: unknown } = {}) => ({
  revision: 3,
  structure: { zone: over.zone ?? { httpPorts: [80], httpsPorts: [443] }, sites: over.sites ?? [site()] },
  data: over.data,
});
const issues = (input: unknown) => {
  const r = edge.desiredState.safeParse(input);
  return r.success ? [] : r.error.issues.map((i) => `${i.path.join('.')}: ${i.message}`);
};

describe('edge desired state', () => {
  it('fills defaults of origins, domains, zone and data', () => {
    const s = edge.desiredState.parse(state());
    expect(s.structure.sites[0].domains[0]).toMatchObject({
      originProtocol: 'http',
      forceSSL: false,
      hsts: false,
      certificateId: null,
      origins: [{ host: '10.0.0.5', port: 80, weight: 1, backup: false, maxFails: 1, failTimeout: 10 }],
    });
    expect(s.structure.zone.nginx.workerProcesses).toBe('auto');
    expect(s.structure.zone).toMatchObject({ http2: true, forceSSLRedirectCode: 301, proxy: { readTimeout: 60, buffering: true } });
    expect(s.data).toEqual({
      sites: [],
      certificates: [],
      domainModules: [],
      zone: { firewall: true, ipset: [], anticc: [], invalidDomainLimit: 0, tlsLimit: 0, restricted: [], ray: { parts: ['node'], node: 0 }, noDomainPage: null },
      acmeChallenges: [],
    });
  });

  it('bounds origin weights to 1–100 and wants one origin that is not a backup', () => {
    const withOrigins = (origins: unknown[]) => state({ sites: [site({ domains: [{ id: 10, name: 'a.example.com', origins }] })] });
    expect(issues(withOrigins([{ host: 'o.example.com', weight: 100 }]))).toEqual([]);
    expect(issues(withOrigins([{ host: 'o.example.com', weight: 101 }]))).toHaveLength(1);
    expect(issues(withOrigins([{ host: 'o.example.com', weight: 0 }]))).toHaveLength(1);
    expect(issues(withOrigins([{ host: 'o.example.com', backup: true }]))[0]).toMatch(/not be a backup/);
    expect(issues(withOrigins([]))).toHaveLength(1);
  });

  it('takes lowercase ASCII domains, a leading wildcard and punycode, and refuses the rest', () => {
    for (const ok of ['a.example.com', '*.example.com', 'xn--fiqs8s.xn--fiqz9s', 'under_score.example.com', '192.0.2.1']) {
      expect(edge.domain.safeParse({ id: 1, name: ok, origins: [{ host: 'o.example.com' }] }).success, ok).toBe(true);
    }
    expect(edge.domain.parse({ id: 1, name: 'Shop.Example.COM', origins: [{ host: 'o.example.com' }] }).name).toBe(
      'shop.example.com',
    );
    for (const bad of ['localhost', 'a.*.example.com', 'a.example.c0m', 'ex ample.com', 'a.b.c1', '-a.example.com']) {
      expect(edge.domain.safeParse({ id: 1, name: bad, origins: [{ host: 'o.example.com' }] }).success, bad).toBe(false);
    }
  });

  it('refuses duplicate domains across sites and unknown certificates', () => {
    const two = [site(), site({ id: 2, domains: [{ id: 11, name: 'shop.example.com', origins: [{ host: '10.0.0.6' }] }] })];
    expect(issues(state({ sites: two }))).toEqual(['structure.sites.1.domains.0.name: duplicate domain']);
    const withCert = site({ domains: [{ id: 10, name: 'a.example.com', certificateId: 5, origins: [{ host: '10.0.0.5' }] }] });
    expect(issues(state({ sites: [withCert] }))).toEqual(['structure.sites.0.domains.0.certificateId: unknown certificate']);
    const cert = { id: 5, chain: '-----BEGIN CERTIFICATE-----\nx', key: '-----BEGIN PRIVATE KEY-----\ny' };
    expect(issues(state({ sites: [withCert], data: { certificates: [cert] } }))).toEqual([]);
  });

  it('gives each own cache directory to one site, never inside another', () => {
    const cached = (id: number, directory: string) =>
      site({ id, domains: [{ id: id * 10, name: `s${id}.example.com`, origins: [{ host: '10.0.0.5' }] }], options: { cache: { directory } } });
    expect(issues(state({ sites: [cached(1, '/srv/cache/a'), cached(2, '/srv/cache/ab')] }))).toEqual([]);
    expect(issues(state({ sites: [cached(1, '/srv/cache/a'), cached(2, '/srv/cache/a/')] }))).toEqual(['structure.sites.1.options.cache.directory: a cache directory of another site, or inside one']);
    expect(issues(state({ sites: [cached(1, '/srv/cache/a/b'), cached(2, '/srv/cache/a')] }))).toHaveLength(1);
  });

  it('needs HTTP and HTTPS ports, distinct from each other', () => {
    expect(issues(state({ zone: { httpPorts: [], httpsPorts: [443] } }))).toHaveLength(1);
    expect(issues(state({ zone: { httpPorts: [80, 80], httpsPorts: [443] } }))).toEqual([
      'structure.zone.httpPorts: duplicate port',
    ]);
    expect(issues(state({ zone: { httpPorts: [8443], httpsPorts: [8443] } }))).toEqual([
      'structure.zone.httpsPorts: a port is both HTTP and HTTPS',
    ]);
  });

  it('keeps L4 ports within 1000–65000 minus the reserved ones, once per node', () => {
    const l4 = (...ports: number[]) => state({ sites: [site({ l4Ports: ports.map((port) => ({ port, origins: [{ host: '10.0.0.7', port: 22 }] })) })] });
    expect(issues(l4(1000, 2222, 65000, 60999, 61200))).toEqual([]);
    for (const bad of [999, 65001, 3306, 3311, 6379, 9100, 61000, 61100, 61199]) expect(issues(l4(bad)), String(bad)).toHaveLength(1);
    expect(issues(l4(2222, 2222))).toEqual(['structure.sites.0.l4Ports.1.port: port already in use']);
  });

  it('checks cache rules: file types, URL prefixes and a duration where 0 means no caching', () => {
    const rule = (r: unknown) => edge.cacheRule.safeParse(r).success;
    expect(rule({ type: 'fileTypes', values: ['png', 'css'], seconds: 3600 })).toBe(true);
    expect(rule({ type: 'fileTypes', values: ['.png'], seconds: 3600 })).toBe(false);
    expect(rule({ type: 'url', values: ['https://a.example.com/static/'], seconds: 0, mode: 'force' })).toBe(true);
    expect(rule({ type: 'url', values: ['https://a.example.com/'], seconds: 60 })).toBe(true);
    expect(rule({ type: 'url', values: ['https://a.example.com/static'], seconds: 60 })).toBe(false);
    expect(rule({ type: 'url', values: ['/static/'], seconds: 60 })).toBe(false);
    expect(rule({ type: 'url', values: ['https://a.example.com/*/'], seconds: 60 })).toBe(false);
    expect(rule({ type: 'url', values: ['https://a.example.com/'], seconds: -1 })).toBe(false);
    expect(edge.CACHE_FILE_TYPE_GROUPS.image).toContain('png');
  });

  it('offers error pages for the statuses of spec §9 only', () => {
    expect(edge.errorPage.safeParse({ status: 502, type: 'content', body: '<h1>down</h1>' }).success).toBe(true);
    expect(edge.errorPage.safeParse({ status: 929, type: 'js', body: 'location.reload()' }).success).toBe(true);
    expect(edge.errorPage.safeParse({ status: 404, type: 'content', body: 'x' }).success).toBe(false);
    expect(edge.errorPage.safeParse({ status: 502, type: 'page', body: 'x' }).success).toBe(false);
    expect(edge.errorPage.safeParse({ status: 502, type: 'redirect', body: 'https://status.example.com/down' }).success).toBe(true);
    expect(edge.errorPage.safeParse({ status: 502, type: 'redirect', body: 'https://x.example.com/"; evil' }).success).toBe(false);
  });

  it('takes IPs, CIDR blocks and ranges in IP lists, without duplicates', () => {
    const entries = ['192.0.2.1', '2001:db8::1', '198.51.100.0/24', '2001:db8::/32', '192.0.2.10-192.0.2.20', '2001:db8::1-2001:db8::ff'];
    expect(edge.siteData.safeParse({ siteId: 1, blacklist: entries }).success).toBe(true);
    for (const bad of ['192.0.2.256', '192.0.2.0/33', '192.0.2.20-192.0.2.10', '192.0.2.1-2001:db8::1', 'a-b-c', '1.2.3.4-', 'example.com']) {
      expect(edge.ipEntry.safeParse(bad).success, bad).toBe(false);
    }
    expect(edge.siteData.safeParse({ siteId: 1, whitelist: ['192.0.2.1', '192.0.2.1'] }).success).toBe(false);
    expect(edge.siteData.safeParse({ siteId: 1, blacklist: Array.from({ length: 5001 }, (_, i) => `10.0.${i >> 8}.${i & 255}`) }).success).toBe(false);
  });

  it('compares addresses through ipKey in one fixed-width form', () => {
    expect(edge.ipKey('10.0.0.1')).toBe('0a000001');
    expect(edge.ipKey('::1')).toBe('00000000000000000000000000000001');
    expect(edge.ipKey('2001:DB8::ffff:1.2.3.4')).toBe('20010db8000000000000ffff01020304');
    expect(edge.ipKey('nope')).toBeUndefined();
  });
});
