import { edge } from '@edgekeep/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { stopNginx } from './apply/process';
import { pushData } from './control/client';
import { asnDbFile, ensureAsnDb } from './geo/asn-db';
import { GEO_COUNTRY_DB } from './geo/databases';
import { writeMmdb } from './geo/mmdb-writer';
import { luaData } from './render';
import { createApplier, type Applier } from './sync/applier';
import { loggedLine } from './test/access-log';
import { range } from './test/mmdb';
import { nginxForTests, startEdge } from './test/nginx-harness';
import { send } from './test/requests';
import { freePort, startOrigin } from './test/servers';

const nginx = await nginxForTests('edge tests need nginx with Lua');

// Addresses the requests claim in X-Test-Geo-Ip, and the autonomous systems a database written for the test gives them.
const CLOUDFLARE = '104.16.1.1';
const CLOUDFLARE_V6 = '2606:4700::1111';
const GOOGLE = '8.8.8.8';
const PRIVATE_AS = '192.0.2.9';
const NOWHERE = '198.51.100.1';

const shopState = ({ port, originPort, revision = 1, sites = [] }: { port: number; originPort: number; revision?: number; sites?: object[] }) =>
  edge.desiredState.parse({
    revision,
    structure: {
      zone: { httpPorts: [port], httpsPorts: [port + 1], nginx: { workerProcesses: 1 } },
      sites: [{ id: 1, name: 'shop', domains: [{ id: 11, name: 'shop.example.com', origins: [{ host: '127.0.0.1', port: originPort }] }] }],
    },
    data: { sites },
  });

describe.skipIf(!nginx.ok)('ASN conditions and the asn, isp, region and city log fields at the edge', () => {
  let dir: string;
  let shop: Awaited<ReturnType<typeof startOrigin>>;
  let node: Awaited<ReturnType<typeof startEdge>>;
  let port: number;
  let nextId = 1;

  const state = (sites: object[] = []) => shopState({ port, originPort: shop.port, sites });
  const onShop = (conditions: object[]) =>
    pushData({
      control: node.control,
      data: luaData({ state: state([{ siteId: 1, waf: { acl: [{ domains: ['shop.example.com'], rules: [{ id: nextId++, logic: 'and', conditions, action: 'deny' }] }] } }]) }),
    });
  const from = (ip: string, path = '/') => send({ port, host: 'shop.example.com', path, headers: { 'x-test-geo-ip': ip } });
  const statuses = async (path = '/') =>
    Object.fromEntries(
      await Promise.all(Object.entries({ CLOUDFLARE, CLOUDFLARE_V6, GOOGLE, PRIVATE_AS, NOWHERE }).map(async ([name, ip]) => [name, (await from(ip, path)).status])),
    );

  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), 'ek-asn-'));
    const asnDb = join(dir, 'asn.mmdb');
    await writeMmdb({
      path: asnDb,
      databaseType: 'EdgeKeep-Test-ASN',
      ranges: [
        range({ from: '8.8.8.0', to: '8.8.8.255', data: { autonomous_system_number: 15169, autonomous_system_organization: 'Google LLC' } }),
        range({ from: '104.16.0.0', to: '104.31.255.255', data: { autonomous_system_number: 13335, autonomous_system_organization: 'Cloudflare, Inc.' } }),
        range({ from: '192.0.2.0', to: '192.0.2.127', data: { autonomous_system_number: 4_200_000_001, autonomous_system_organization: 'Private use' } }),
        range({ from: '2606:4700::', to: '2606:4700:ffff:ffff:ffff:ffff:ffff:ffff', data: { autonomous_system_number: 13335, autonomous_system_organization: 'Cloudflare, Inc.' } }),
      ],
    });
    // A city database as DB-IP's is published: one file per IP family, region in state1.
    const cityDb = { ipv4: join(dir, 'city4.mmdb'), ipv6: join(dir, 'city6.mmdb') };
    await writeMmdb({
      path: cityDb.ipv4,
      databaseType: 'EdgeKeep-Test-City-IPv4',
      ranges: [
        range({ from: '8.8.8.0', to: '8.8.8.255', data: { country_code: 'US', state1: 'California', city: 'Mountain View' } }),
        range({ from: '104.16.0.0', to: '104.31.255.255', data: { country_code: 'BR', state1: 'São Paulo', city: 'São Paulo' } }),
      ],
    });
    await writeMmdb({
      path: cityDb.ipv6,
      databaseType: 'EdgeKeep-Test-City-IPv6',
      ranges: [range({ from: '2606:4700::', to: '2606:4700:ffff:ffff:ffff:ffff:ffff:ffff', data: { country_code: 'CA', state1: 'Quebec', city: 'Montreal' } })],
    });
    shop = await startOrigin({ name: 'shop' });
    port = await freePort();
    // Only this harness looks up a header's address instead of the client's.
    node = await startEdge({ state: state(), controlPort: await freePort(), geo: { countryDb: GEO_COUNTRY_DB, asnDb, cityDb, source: '$http_x_test_geo_ip' } });
  });
  afterAll(async () => {
    await node?.stop();
    await shop?.close();
    await rm(dir, { recursive: true, force: true });
  });

  it('denies the autonomous systems of an in list with page 929, over IPv4 and IPv6', async () => {
    await onShop([{ field: 'asn', operator: 'in', value: ['13335'] }]);
    expect(await statuses()).toEqual({ CLOUDFLARE: 929, CLOUDFLARE_V6: 929, GOOGLE: 200, PRIVATE_AS: 200, NOWHERE: 200 });
  });

  it('compares AS numbers with gt, up to 32-bit ones; an unknown AS is never greater', async () => {
    await onShop([{ field: 'asn', operator: 'gt', value: '15000' }]);
    expect(await statuses()).toEqual({ CLOUDFLARE: 200, CLOUDFLARE_V6: 200, GOOGLE: 929, PRIVATE_AS: 929, NOWHERE: 200 });
  });

  it('denies with notIn every known AS outside the list, never an address without one', async () => {
    await onShop([{ field: 'asn', operator: 'notIn', value: ['13335', '4200000001'] }]);
    expect(await statuses()).toEqual({ CLOUDFLARE: 200, CLOUDFLARE_V6: 200, GOOGLE: 929, PRIVATE_AS: 200, NOWHERE: 200 });
  });

  it('writes the AS number and its organisation, the region and the city into the access log, empty where the databases know none', async () => {
    await onShop([{ field: 'asn', operator: 'eq', value: '13335' }]);
    await from(CLOUDFLARE_V6, '/asn-cloudflare-v6');
    await from(CLOUDFLARE, '/asn-cloudflare');
    await from(GOOGLE, '/asn-google');
    await from(PRIVATE_AS, '/asn-private');
    await from(NOWHERE, '/asn-nowhere');
    const line = (uri: string) => loggedLine({ prefix: node.prefix, uri });
    expect(await line('/asn-cloudflare-v6')).toMatchObject({ asn: '13335', isp: 'Cloudflare, Inc.', region: 'Quebec', city: 'Montreal', status: '929' });
    expect(await line('/asn-cloudflare')).toMatchObject({ asn: '13335', isp: 'Cloudflare, Inc.', region: 'São Paulo', city: 'São Paulo' });
    expect(await line('/asn-google')).toMatchObject({ asn: '15169', isp: 'Google LLC', country: 'US', region: 'California', city: 'Mountain View', status: '200' });
    expect(await line('/asn-private')).toMatchObject({ asn: '4200000001', isp: 'Private use', region: '', city: '' });
    expect(await line('/asn-nowhere')).toMatchObject({ asn: '', isp: '', region: '', city: '', status: '200' });
    // An address looked for in the file of the other IP family is simply not found there.
    expect(await readFile(join(node.prefix, 'logs', 'error.log'), 'utf8')).not.toMatch(/geoip2|mmdb/i);
  });
});

describe.skipIf(!nginx.ok)('a node before and after it has built its ASN database', () => {
  let dir: string;
  let prefix: string;
  let stateDir: string;
  let shop: Awaited<ReturnType<typeof startOrigin>>;
  let applier: Applier;
  let port: number;

  beforeAll(async () => {
    // Apart, as on a node: nginx's workers must reach the prefix, not the agent's state.
    [dir, prefix] = [await mkdtemp(join(tmpdir(), 'ek-asn-state-')), await mkdtemp(join(tmpdir(), 'ek-asn-prefix-'))];
    stateDir = join(dir, 'state');
    shop = await startOrigin({ name: 'shop' });
    port = await freePort();
    applier = createApplier({ prefix, stateDir, controlPort: await freePort(), asnDb: asnDbFile({ stateDir }) });
  });
  afterAll(async () => {
    if (prefix) await stopNginx({ prefix });
    await shop?.close();
    await Promise.all([dir, prefix].map((d) => d && rm(d, { recursive: true, force: true })));
  });

  it('serves with an empty asn until the database is built, then looks the client address up in it', async () => {
    expect(await applier.apply(shopState({ port, originPort: shop.port }))).toMatchObject({ ok: true });
    expect((await send({ port, host: 'shop.example.com', path: '/before' })).status).toBe(200);
    expect(await loggedLine({ prefix, uri: '/before' })).toMatchObject({ asn: '', clientIp: '127.0.0.1' });

    // The requests come from 127.0.0.1: a source whose data gives loopback an AS of its own.
    const source = { version: 'test', ipv4: join(dir, 'v4.csv'), ipv6: join(dir, 'v6.csv') };
    await writeFile(source.ipv4, '2130706432,2147483647,64512,Loopback Test\n');
    await writeFile(source.ipv6, '');
    expect(await ensureAsnDb({ file: asnDbFile({ stateDir }), source })).toBeDefined();
    await applier.rerender();
    expect(applier.status()).toEqual({ appliedRevision: 1, applyError: null });
    expect((await send({ port, host: 'shop.example.com', path: '/after' })).status).toBe(200);
    expect(await loggedLine({ prefix, uri: '/after' })).toMatchObject({ asn: '64512', clientIp: '127.0.0.1' });
  });
});
