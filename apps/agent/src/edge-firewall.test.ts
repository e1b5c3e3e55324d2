import { edge } from '@edgekeep/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { pushData } from './control/client';
import { luaData } from './render';
import { detectNginx, startEdge } from './test/nginx-harness';
import { send } from './test/requests';
import { freePort, startOrigin } from './test/servers';

const nginx = await detectNginx();
if (!nginx.ok && process.env.CI === 'true') throw new Error(`edge tests need nginx with Lua: ${nginx.reason}`);

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
    node = await startEdge({ state: state(), controlPort: await freePort() });
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

  it('blocks an address held in ek_blocked until it is lifted, without a reload', async () => {
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
    await push([{ siteId: 1, whitelist: ['127.0.0.1'] }]);
    await control('POST', '/blocked', { siteId: 1, ips: ['127.0.0.1'], cause: 'waf', seconds: 60 });
    expect((await shop()).status).toBe(200);
    await control('DELETE', '/blocked', { siteId: 1, all: true });
  });
});
