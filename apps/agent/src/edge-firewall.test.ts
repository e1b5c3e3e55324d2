import { edge } from '@edgekeep/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { pushData } from './control/client';
import { GEO_COUNTRY_DB } from './geo/databases';
import { ACCESS_LOG, luaData } from './render';
import { nginxForTests, startEdge } from './test/nginx-harness';
import { send } from './test/requests';
import { freePort, startOrigin, startTcpEcho, tcpAnswer, tcpRoundTrip } from './test/servers';
import { applyState } from './apply/apply';

const nginx = await nginxForTests('edge tests need nginx with Lua');

describe.skipIf(!nginx.ok)('firewall lists at the edge', () => {
  let origin: Awaited<ReturnType<typeof startOrigin>>;
  let node: Awaited<ReturnType<typeof startEdge>>;
  let httpPort: number;
  let otherPort: number;

  const state = (sites: object[] = []) =>
    edge.desiredState.parse({
      revision: 1,
      structure: {
        zone: { httpPorts: [httpPort, otherPort], httpsPorts: [httpPort + 1], nginx: { workerProcesses: 1 } },
        sites: [{ id: 1, name: 'shop', domains: [{ id: 11, name: 'shop.example.com', origins: [{ host: '127.0.0.1', port: origin.port }] }] }],
      },
      data: { sites },
    });
  const push = (sites: object[]) => pushData({ control: node.control, data: luaData({ state: state(sites) }) });
  const shop = (o: { path?: string; method?: string; port?: number; headers?: Record<string, string> } = {}) =>
    send({ port: o.port ?? httpPort, host: 'shop.example.com', ...o });
  const control = async (method: string, path: string, body?: unknown) => {
    const res = await fetch(`http://127.0.0.1:${node.control.port}${path}`, {
      method,
      headers: { authorization: `Bearer ${node.control.token}`, 'content-type': 'application/json' },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    return (await res.json()) as Record<string, unknown>;
  };

  beforeAll(async () => {
    origin = await startOrigin({ name: 'shop' });
    httpPort = await freePort();
    otherPort = await freePort();
    // Only this harness looks up a header's address instead of the client's: 127.0.0.1 is in no country.
    node = await startEdge({ state: state(), controlPort: await freePort(), geo: { countryDb: GEO_COUNTRY_DB, source: '$http_x_test_geo_ip' } });
  });
  afterAll(async () => {
    await node?.stop();
    await origin?.close();
  });

  it('enforces the url, method and port conditions of a blacklist entry', async () => {
    await push([{ siteId: 1, blacklist: [{ ip: '127.0.0.1', url: '/admin', methods: ['POST'], port: httpPort }] }]);
    expect((await shop({ path: '/admin/login', method: 'POST' })).status).toBe(929);
    expect((await shop({ path: '/admin/login', method: 'GET' })).status).toBe(200);
    expect((await shop({ path: '/shop', method: 'POST' })).status).toBe(200);
    expect((await shop({ path: '/admin/login', method: 'POST', port: otherPort })).status).toBe(200);
    await push([{ siteId: 1, blacklist: ['127.0.0.0/8'], whitelist: [{ ip: '127.0.0.1', url: '/public' }] }]);
    expect((await shop({ path: '/public/a' })).status).toBe(200);
    expect((await shop({ path: '/private' })).status).toBe(929);
    await push([]);
  });

  it('answers the 929 page in the visitor language, and 903 at the node address without a domain', async () => {
    await push([{ siteId: 1, blacklist: ['127.0.0.1'] }]);
    const en = await shop({ headers: { 'accept-language': 'en-US,en;q=0.8' } });
    expect(en.status).toBe(929);
    expect(en.body).toContain('Access denied');
    expect(en.body).toContain('blacklist');
    expect((await shop({ headers: { 'accept-language': 'zh-TW,zh;q=0.9' } })).body).toContain('拒絕存取');
    expect((await shop({ headers: { 'accept-language': 'zh-CN' } })).body).toContain('拒绝访问');
    await push([]);
    const direct = await send({ port: httpPort, host: '127.0.0.1', headers: { 'accept-language': 'zh-Hant' } });
    expect(direct.status).toBe(903);
    expect(direct.body).toContain('此位址沒有網站');
  });

  it('blocks an address held in ek_blocked until it is lifted (control call or a lift in the data), without a reload', async () => {
    await push([]);
    await control('POST', '/blocked', { siteId: 1, ips: ['127.0.0.1'], cause: 'waf', seconds: 60 });
    const blocked = await shop();
    expect(blocked.status).toBe(929);
    expect(blocked.body).toContain('blocked:waf');
    const list = (await control('GET', '/blocked')).blocked as { siteId: number; ip: string; cause: string; expiresAt: number }[];
    expect(list).toEqual([{ siteId: 1, ip: '127.0.0.1', cause: 'waf', expiresAt: expect.any(Number) }]);
    expect(list[0].expiresAt * 1000).toBeGreaterThan(Date.now() + 50_000);
    expect(await control('DELETE', '/blocked', { siteId: 1, ips: ['127.0.0.1'] })).toEqual({ removed: 1 });
    expect((await shop()).status).toBe(200);
    await control('POST', '/blocked', { siteId: 1, ips: ['127.0.0.1', '10.0.0.1'], cause: 'anticc', seconds: 60 });
    expect(await control('DELETE', '/blocked', { siteId: 1, all: true })).toEqual({ removed: 2 });
    expect((await shop()).status).toBe(200);
    await control('POST', '/blocked', { siteId: 1, ips: ['127.0.0.1'], cause: 'anticc', seconds: 60 });
    const lift = [{ ip: '127.0.0.1', at: Math.ceil(Date.now() / 1000) + 1 }];
    await push([{ siteId: 1, unblocks: lift }]);
    expect((await shop()).status).toBe(200);
    await new Promise((r) => setTimeout(r, 2100));
    await control('POST', '/blocked', { siteId: 1, ips: ['127.0.0.1'], cause: 'frequency', seconds: 60 });
    await push([{ siteId: 1, unblocks: lift }]);
    expect((await shop()).status).toBe(929);
    await push([{ siteId: 1, unblocks: [{ at: Math.ceil(Date.now() / 1000) + 1 }] }]);
    expect((await shop()).status).toBe(200);
    await push([{ siteId: 1, whitelist: ['127.0.0.1'] }]);
    await control('POST', '/blocked', { siteId: 1, ips: ['127.0.0.1'], cause: 'waf', seconds: 60 });
    expect((await shop()).status).toBe(200);
    await control('DELETE', '/blocked', { siteId: 1, all: true });
  });

  const from = (ip: string, o: { path?: string; headers?: Record<string, string> } = {}) => shop({ ...o, headers: { 'x-test-geo-ip': ip, ...o.headers } });

  it('blocks by country from the mmdb, black and white, and logs the country', async () => {
    await push([{ siteId: 1, geo: [{ countries: ['US'], isBlack: true }] }]);
    expect((await from('8.8.8.8', { path: '/geo-us' })).status).toBe(929);
    expect((await from('202.12.27.33')).status).toBe(200);
    await push([{ siteId: 1, geo: [{ countries: ['JP'], isBlack: false, urlRegex: '^/members', blockType: 'drop' }] }]);
    expect((await from('202.12.27.33', { path: '/members' })).status).toBe(200);
    await expect(from('8.8.8.8', { path: '/members' })).rejects.toThrow();
    expect((await from('8.8.8.8', { path: '/public' })).status).toBe(200);
    await push([]);
    await new Promise((r) => setTimeout(r, 200));
    const log = (await readFile(join(node.prefix, ACCESS_LOG), 'utf8')).trim().split('\n').map((l) => JSON.parse(l));
    expect(log.find((e) => e.uri === '/geo-us')).toMatchObject({ country: 'US', status: '929', blockCause: 'geo:US', blockRule: 'US', blockAction: 'deny' });
  });

  it('blocks by user agent and by header', async () => {
    await push([{ siteId: 1, userAgents: [{ userAgentRegex: '(?i)curl|python' }], antiHeaders: [{ header: 'X-Scanner', valueRegex: '' }] }]);
    expect((await shop({ headers: { 'user-agent': 'curl/8.0' } })).status).toBe(929);
    expect((await shop({ headers: { 'user-agent': 'Mozilla/5.0' } })).status).toBe(200);
    expect((await shop({ headers: { 'user-agent': 'Mozilla/5.0', 'x-scanner': 'yes' } })).status).toBe(929);
    await push([]);
  });

  it('limits the request rate per address with a token bucket, and blocks by access frequency', async () => {
    await push([{ siteId: 1, limitReqs: [{ id: 1, urlRegex: '^/api', rate: 1, burst: 2 }] }]);
    const statuses = [];
    for (let i = 0; i < 5; i++) statuses.push((await shop({ path: '/api/x' })).status);
    expect(statuses).toEqual([200, 200, 200, 929, 929]);
    expect((await shop({ path: '/home' })).status).toBe(200);
    await new Promise((r) => setTimeout(r, 1100));
    expect((await shop({ path: '/api/x' })).status).toBe(200);
    await push([{ siteId: 1, frequencies: [{ id: 2, urlRegex: '', seconds: 10, times: 3, blockSeconds: 30 }] }]);
    const seen = [];
    for (let i = 0; i < 4; i++) seen.push((await shop({ path: `/f${i}` })).status);
    expect(seen).toEqual([200, 200, 200, 929]);
    const list = (await control('GET', '/blocked')).blocked as { cause: string }[];
    expect(list).toEqual([expect.objectContaining({ siteId: 1, ip: '127.0.0.1', cause: 'frequency' })]);
    await push([]);
    expect((await shop()).status).toBe(929);
    await control('DELETE', '/blocked', { siteId: 1, all: true });
    expect((await shop()).status).toBe(200);
  });

  it('refuses an address this node blocked or limited often once its risk score reaches the setting', async () => {
    // The tests above blocked and limited 127.0.0.1 more than five times today: its score is 100.
    await push([{ siteId: 1, abuseIP: { score: 100 } }]);
    const answer = await shop();
    expect(answer.status).toBe(929);
    expect(answer.body).toContain('abuse');
    await push([{ siteId: 1 }]);
    expect((await shop()).status).toBe(200);
  });

  it('refuses blacklisted addresses on an L4 port unless whitelisted, after a reload', async () => {
    const echo = await startTcpEcho();
    const l4Port = await freePort();
    const withL4 = (l4Firewall: object) => {
      const base = state();
      return edge.desiredState.parse({
        ...base,
        revision: base.revision + 1,
        structure: { ...base.structure, sites: [...base.structure.sites, { id: 5, name: 'tcp', domains: [], l4Ports: [{ port: l4Port, origins: [{ host: '127.0.0.1', port: echo.port }] }], l4Firewall }] },
      });
    };
    const apply = async (l4Firewall: object) => {
      const r = await applyState({ state: withL4(l4Firewall), prefix: node.prefix, controlPort: node.control.port, geo: { countryDb: GEO_COUNTRY_DB, source: '$http_x_test_geo_ip' } });
      expect(r).toMatchObject({ ok: true });
    };
    try {
      await apply({ blacklist: [{ ip: '127.0.0.0/8', port: l4Port }] });
      expect(await tcpAnswer({ port: l4Port })).toBe('');
      await apply({ blacklist: [{ ip: '127.0.0.0/8' }], whitelist: [{ ip: '127.0.0.1' }], limitConns: [{ port: l4Port, max: 5 }] });
      expect(await tcpRoundTrip({ port: l4Port, message: 'hi' })).toBe('echo:hi');
    } finally {
      await echo.close();
    }
  });
});
