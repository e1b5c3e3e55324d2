import { edge } from '@edgekeep/contract';
import { describe, expect, it } from 'vitest';
import { fullState, TEST_CERT } from '../test/fixtures';
import { render } from './index';
import { renderedReasons, splitLive } from './live';

const options = { dir: '/var/lib/edgekeep/releases/r42-test', release: 'r42-test', controlPort: 9145 };

/** The full fixture with a third site of plain domains, served from data. */
const withPlainSite = () => {
  const state = fullState();
  state.structure.sites.push(
    edge.siteStructure.parse({
      id: 3,
      name: 'Plain',
      options: { hsts: { enabled: true, maxAge: 600, includeSubDomains: true }, httpPorts: [8080] },
      domains: [
        {
          id: 31,
          name: 'plain.example.org',
          certificateId: 7,
          forceSSL: true,
          originProtocol: 'https',
          origins: [{ host: '192.0.2.1', weight: 3 }, { host: '192.0.2.2', backup: true }],
          portMap: { enabled: true, rules: [{ listen: 8080, originPort: 9000 }] },
        },
        { id: 32, name: 'x.static.example.com', origins: [{ host: '192.0.2.3', port: 81 }], balance: 'ip_hash', hashKey: '$uri' },
        { id: 33, name: 'named.example.org', origins: [{ host: 'origin.example.net' }] },
      ],
    }),
  );
  return state;
};

describe('live domains', () => {
  it('sends a plain domain to the Lua runtime with what the fixed servers need, and keeps it out of nginx', () => {
    const state = withPlainSite();
    const { live, structure } = splitLive({ state });
    const [plain, named] = live;
    expect(plain).toEqual({
      name: 'plain.example.org',
      site: 3,
      domain: 31,
      scheme: 'https',
      origins: [
        { host: '192.0.2.1', port: 80, weight: 3, backup: false, maxFails: 1, failTimeout: 10 },
        { host: '192.0.2.2', port: 80, weight: 1, backup: true, maxFails: 1, failTimeout: 10 },
      ],
      hash: null,
      leastConn: false,
      portMap: { 8080: 9000 },
      https: true,
      redirect: { code: 308, port: 443 },
      hsts: 'max-age=600; includeSubDomains',
      httpPorts: [8080],
      httpsPorts: [443],
      rates: [],
      bodyLimit: null,
      cacheIgnoreQuery: false,
      cacheZone: null,
      webp: false,
      gzip: false,
      errorPages: false,
      keepalive: true,
      cache: null,
    });
    // an origin named by host name goes live too; the agent gives it its addresses (render/live-origins.ts)
    expect(named).toMatchObject({ name: 'named.example.org', origins: [{ host: 'origin.example.net' }] });
    expect(structure.sites.find((s) => s.id === 3)?.domains.map((d) => d.name)).toEqual(['x.static.example.com']);
    const files = render({ state, ...options });
    expect(files['sites/site-3.conf']).not.toContain('plain.example.org');
    expect(JSON.parse(files['data.json']).live.map((d: { name: string }) => d.name)).toEqual(['plain.example.org', 'named.example.org']);
    expect(JSON.parse(files['certs/sni.json']).map((c: { names: string[] }) => c.names)).toEqual([['shop.example.com', 'plain.example.org']]);
  });

  it("compresses a live domain of a site without gzip when the zone's own directives turn gzip on", () => {
    const state = withPlainSite();
    expect(splitLive({ state }).live.map((d) => d.gzip)).toEqual([false, false]);
    const zone = { ...state.structure.zone, directives: { ...state.structure.zone.directives, http: 'gzip  on;\ngzip_comp_level 5;' } };
    expect(splitLive({ state: { ...state, structure: { ...state.structure, zone } } }).live.map((d) => d.gzip)).toEqual([true, true]);
    const off = { ...zone, directives: { ...zone.directives, http: 'gzip off;', server: 'gzip_vary on;' } };
    expect(splitLive({ state: { ...state, structure: { ...state.structure, zone: off } } }).live.map((d) => d.gzip)).toEqual([false, false]);
  });

  it('names what keeps a domain on a server block of its own', () => {
    const state = withPlainSite();
    const { zone } = state.structure;
    const [shop, plain] = [state.structure.sites[0], state.structure.sites[2]];
    expect(renderedReasons({ site: shop, domain: shop.domains[0], zone })).toEqual(['body size above the zone']);
    // a domain whose keepalive is 0 goes live, on the upstream that keeps no connection
    expect(renderedReasons({ site: plain, domain: shop.domains[1], zone })).toEqual([]);
    expect(renderedReasons({ site: plain, domain: plain.domains[2], zone })).toEqual([]);
    expect(renderedReasons({ site: plain, domain: { ...plain.domains[0], waf: { mode: 'block', paranoia: 1, excludedRules: [] } }, zone })).toEqual(['managed WAF']);
    expect(renderedReasons({ site: plain, domain: plain.domains[0], zone })).toEqual([]);
  });

  it('sends rate rules, a body limit under the zone and a cache key without the query with the live domain', () => {
    const state = withPlainSite();
    const plain = state.structure.sites[2];
    plain.options.rateRules = [
      { url: 'http://plain.example.org/dl/', rate: 100 },
      { url: 'https://plain.example.org/dl/big/', rate: 10 },
    ];
    plain.options.cache.ignoreQuery = true;
    // a state is never changed in place: each one gets sites and a zone of its own
    const withBody = (site: number | null, zoneLimit: number) => {
      const zone = { ...state.structure.zone, nginx: { ...state.structure.zone.nginx, clientMaxBodySize: zoneLimit } };
      const sites = [...state.structure.sites.slice(0, 2), { ...plain, options: { ...plain.options, clientMaxBodySize: site } }];
      return splitLive({ state: { ...state, structure: { zone, sites } } }).live.find((d) => d.name === 'plain.example.org');
    };
    expect(withBody(5, 100)).toMatchObject({
      rates: [
        { prefix: 'plain.example.org/dl/big/', rate: 10 * 1024 },
        { prefix: 'plain.example.org/dl/', rate: 100 * 1024 },
      ],
      bodyLimit: 5 * 1024 * 1024,
      cacheIgnoreQuery: true,
    });
    // the zone's limit is the fixed servers': a site on it needs no check of its own, one above it or off a server block
    expect(withBody(100, 100)).toMatchObject({ bodyLimit: null });
    expect(withBody(5, 0)).toMatchObject({ bodyLimit: 5 * 1024 * 1024 });
    expect(withBody(0, 0)).toMatchObject({ bodyLimit: null });
    expect(withBody(200, 100)).toBeUndefined();
    expect(withBody(0, 100)).toBeUndefined();
  });

  it("sends a site's cache rules for the host with its live domain, and renders one location per policy they use", () => {
    const state = withPlainSite();
    const plain = state.structure.sites[2];
    plain.cacheRules = [
      { type: 'url', values: ['http://plain.example.org/a/', 'https://other.example.org/x/', 'http://plain.example.org/a/b/', 'http://plain.example.org/'], seconds: 600, mode: 'force' },
      { type: 'url', values: ['http://plain.example.org/a/b/'], seconds: 5, mode: 'follow' },
      { type: 'fileTypes', values: ['png', 'jpg'], seconds: 0, mode: 'force' },
      { type: 'fileTypes', values: ['css'], seconds: 60, mode: 'follow' },
    ];
    const { live, policies } = splitLive({ state });
    // the longest prefix first, the first rule of a path wins; the other host's prefix and the 5 s rule are not used
    expect(live.find((d) => d.name === 'plain.example.org')?.cache).toEqual({
      prefixes: [
        { path: '/a/b/', policy: '600_force' },
        { path: '/a/', policy: '600_force' },
      ],
      fileTypes: [
        { extensions: ['png', 'jpg'], policy: 'off' },
        { extensions: ['css'], policy: '60' },
      ],
      root: '600_force',
    });
    expect([...policies.keys()]).toEqual(['60', '600_force', 'off']);
    const conf = render({ state, ...options })['nginx.conf'];
    expect(conf).toContain('policies = { "60", "600_force", "off" }');
    const location = (name: string) => conf.slice(conf.indexOf(`location @ek_cache_${name} {`)).split('\n    }')[0];
    expect(location('600_force')).toContain('proxy_cache_valid 200 206 301 302 600s;\n      proxy_ignore_headers Cache-Control Expires X-Accel-Expires;');
    expect(location('60')).toContain('proxy_cache_valid 200 206 301 302 60s;');
    expect(location('60')).not.toContain('proxy_ignore_headers');
    expect(location('off')).toContain('proxy_cache off;');
    expect(location('off')).toContain('ek_live.resume()');
  });

  it('leaves nginx untouched when a live domain is added, changed or removed, and leaves out sites with nothing to render', () => {
    const nginxOf = (state: edge.DesiredState) => {
      const files = render({ state, ...options });
      return Object.fromEntries(Object.entries(files).filter(([path]) => path !== 'data.json' && path !== 'certs/sni.json'));
    };
    const base = withPlainSite();
    const changed = withPlainSite();
    changed.structure.sites[2].domains[0].origins[0].host = '192.0.2.9';
    changed.structure.sites.push(edge.siteStructure.parse({ id: 4, name: 'New', domains: [{ id: 41, name: 'new.example.org', origins: [{ host: '192.0.2.4' }] }] }));
    expect(nginxOf(changed)).toEqual(nginxOf(base));
    expect(splitLive({ state: changed }).structure.sites.map((s) => s.id)).toEqual([1, 2, 3]);
    expect(render({ state: changed, ...options })['data.json']).not.toBe(render({ state: base, ...options })['data.json']);
  });

  it('keeps a name that a rendered wildcard covers on the rendered path', () => {
    const state = withPlainSite();
    state.structure.sites[2].domains[0] = { ...state.structure.sites[2].domains[0], name: 'a.b.static.example.com', certificateId: TEST_CERT.id };
    expect(splitLive({ state }).live.map((d) => d.name)).toEqual(['named.example.org']);
  });
});
