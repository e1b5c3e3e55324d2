import { mkdir, readFile, readdir, rm, writeFile } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { fullState } from '../test/fixtures';
import { render, type GeoOptions } from './index';

const GOLDEN = fileURLToPath(new URL('./__golden__/full', import.meta.url));
const options = { dir: '/var/lib/edgekeep/releases/r42-test', release: 'r42-test', controlPort: 9145 };

/** Golden files: UPDATE_GOLDEN=1 rewrites them from the renderer's current output. */
const listGolden = async (dir: string, base = ''): Promise<string[]> => {
  const entries = await readdir(join(dir, base), { withFileTypes: true }).catch(() => []);
  const nested = await Promise.all(
    entries.map((e) => (e.isDirectory() ? listGolden(dir, join(base, e.name)) : Promise.resolve([join(base, e.name)]))),
  );
  return nested.flat().sort();
};

describe('render', () => {
  it('turns a desired state into the files of the golden release', async () => {
    const files = render({ state: fullState(), ...options });
    if (process.env.UPDATE_GOLDEN === '1') {
      await rm(GOLDEN, { recursive: true, force: true });
      for (const [path, content] of Object.entries(files)) {
        await mkdir(dirname(join(GOLDEN, path)), { recursive: true });
        await writeFile(join(GOLDEN, path), content);
      }
    }
    expect(Object.keys(files).sort()).toEqual(await listGolden(GOLDEN));
    for (const [path, content] of Object.entries(files)) {
      expect(content, path).toBe(await readFile(join(GOLDEN, path), 'utf8'));
    }
  });

  it('is pure: the same state renders the same files', () => {
    expect(render({ state: fullState(), ...options })).toEqual(render({ state: fullState(), ...options }));
  });

  it('hands the Lua runtime only the certificates that domains use, with their names, and no site file for a site without domains', () => {
    const files = render({ state: fullState(), ...options });
    const sni = JSON.parse(files['certs/sni.json']) as { id: number; names: string[]; key: string }[];
    expect(sni.map((c) => [c.id, c.names])).toEqual([[7, ['shop.example.com']]]);
    expect(sni[0].key).toContain('PRIVATE KEY');
    expect(Object.keys(files).filter((f) => f.endsWith('.key') || f.endsWith('.crt'))).toEqual([]);
    expect(files['sites/site-2.conf']).toBeUndefined();
    expect(files['stream/site-2.conf']).toContain('listen 2222;');
  });

  it('loads no module for an nginx that has Lua and stream built in (OpenResty)', () => {
    const conf = render({ state: fullState(), ...options, builtinModules: true })['nginx.conf'];
    expect(conf).not.toContain('load_module');
    expect(conf.split('\n').filter((l) => !l.startsWith('load_module ')).join('\n')).toBe(
      render({ state: fullState(), ...options })['nginx.conf'].split('\n').filter((l) => !l.startsWith('load_module ')).join('\n'),
    );
  });

  it("gives a site with its own cache directory a cache zone there, and hands the directory and zone to the Lua runtime", () => {
    const state = fullState();
    state.structure.sites[0].options.cache.directory = '/var/cache/nginx/edgekeep/shop';
    const files = render({ state, ...options });
    const site = files['sites/site-1.conf'];
    expect(files['nginx.conf']).toContain('proxy_cache_path /var/cache/nginx/edgekeep/shop levels=1:2 keys_zone=ek_s1:8m max_size=2048m inactive=7d use_temp_path=off;');
    expect(site).toContain('proxy_cache ek_s1;');
    expect(site).not.toContain('proxy_cache ek_cache;');
    expect(files['nginx.conf']).toContain('cache = { "cache", "/var/cache/nginx/edgekeep/shop" }, zones = { "ek_s1" }');
  });

  it('defines $ek_asn and $ek_isp from the ASN database once the node has one, by the address the country is looked up by', () => {
    const conf = (geo?: GeoOptions) => render({ state: fullState(), ...options, geo })['nginx.conf'];
    expect(conf()).toContain('map $remote_addr $ek_asn { default ""; }');
    expect(conf()).not.toContain('$ek_isp');
    const countryOnly = conf({ countryDb: '/geo/country.mmdb' });
    expect(countryOnly).toContain('geoip2 /geo/country.mmdb { $ek_country source=$remote_addr country_code; }');
    expect(countryOnly).toContain('map $remote_addr $ek_asn { default ""; }');
    const both = conf({ countryDb: '/geo/country.mmdb', asnDb: '/var/lib/edgekeep/geo/asn.mmdb', source: '$http_x_test' });
    expect(both).toContain(
      'geoip2 /var/lib/edgekeep/geo/asn.mmdb { $ek_asn source=$http_x_test autonomous_system_number; $ek_isp source=$http_x_test autonomous_system_organization; }',
    );
    expect(both).not.toContain('$ek_asn { default');
    expect(both).toContain('"isp":"$ek_isp"');
  });

  it('defines and logs $ek_region and $ek_city from the city file of each IP family, the IPv6 one where the IPv4 one has nothing', () => {
    const conf = (geo?: GeoOptions) => render({ state: fullState(), ...options, geo })['nginx.conf'];
    expect(conf({ countryDb: '/geo/country.mmdb' })).not.toContain('$ek_region');
    expect(conf()).not.toContain('$ek_city');
    const city = conf({ countryDb: '/geo/country.mmdb', cityDb: { ipv4: '/geo/city4.mmdb', ipv6: '/geo/city6.mmdb' } });
    expect(city).toContain('geoip2 /geo/city4.mmdb { $ek_region4 source=$remote_addr state1; $ek_city4 source=$remote_addr city; }');
    expect(city).toContain('geoip2 /geo/city6.mmdb { $ek_region6 source=$remote_addr state1; $ek_city6 source=$remote_addr city; }');
    expect(city).toContain('map $ek_city4 $ek_city { "" $ek_city6; default $ek_city4; }');
    expect(city).toContain('"region":"$ek_region","city":"$ek_city"');
  });

  it('keeps private keys out of the Lua data file', () => {
    const files = render({ state: fullState(), ...options });
    expect(files['data.json']).not.toContain('PRIVATE KEY');
    expect(JSON.parse(files['data.json'])).toMatchObject({
      revision: 42,
      sites: [{ siteId: 1, blacklist: ['192.0.2.0/24', '198.51.100.7'], whitelist: ['192.0.2.10'] }],
      domains: [],
      zone: fullState().data.zone,
      served: [1, 2],
      pages: { 1: { status: 929, type: 'content', body: '<h1>Blocked</h1>' } },
    });
  });

  it('renders the zone switches: HTTP/2 off leaves the HTTPS listens plain, defaults redirect with 301', () => {
    const state = fullState();
    const plain = { ...state, structure: { ...state.structure, zone: { ...state.structure.zone, http2: false, forceSSLRedirectCode: 301 as const } } };
    const site = render({ state: plain, ...options })['sites/site-1.conf'];
    expect(site).toContain('listen 443 ssl;');
    expect(site).not.toContain('http2');
    expect(site).toContain('return 301 https://$host$request_uri;');
    expect(render({ state, ...options })['sites/site-1.conf']).toContain('listen 443 ssl http2;');
  });
});
