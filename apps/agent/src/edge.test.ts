import { readdir, readFile, readlink, rm, writeFile } from 'node:fs/promises';
import { createServer, type Server } from 'node:net';
import { join } from 'node:path';
import { edge } from '@edgekeep/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { applyState } from './apply/apply';
import { defaultCertFiles } from './apply/default-cert';
import { writeRelease } from './apply/layout';
import { preflight, testConfig } from './apply/nginx';
import { controlStatus, purgeCache, pushData } from './control/client';
import { ACCESS_LOG, luaData, render } from './render';
import { nginxForTests, startEdge } from './test/nginx-harness';
import { freePort, get, startOrigin, startTcpEcho, tcpRoundTrip } from './test/servers';

// The edge lane needs Debian nginx with the Lua and stream modules; CI installs them and must not skip.
const nginx = await nginxForTests('edge tests need nginx with the Lua and stream modules (scripts/debian-packages.txt)');

describe.skipIf(!nginx.ok)('edge node with real nginx', () => {
  let shop: Awaited<ReturnType<typeof startOrigin>>;
  let blog: Awaited<ReturnType<typeof startOrigin>>;
  let echo: Awaited<ReturnType<typeof startTcpEcho>>;
  let node: Awaited<ReturnType<typeof startEdge>>;
  let httpPort: number;
  let l4Port: number;
  let deadPort: number;

  const stateAt = ({ revision, shopOrigin }: { revision: number; shopOrigin?: string }) =>
    edge.desiredState.parse({
      revision,
      structure: {
        zone: { httpPorts: [httpPort], httpsPorts: [httpPort + 1], nginx: { workerProcesses: 1 } },
        sites: [
          {
            id: 1,
            name: 'shop',
            domains: [{ id: 11, name: 'shop.example.com', origins: [{ host: shopOrigin ?? '127.0.0.1', port: shop.port }] }],
            cacheRules: [{ type: 'fileTypes', values: ['png'], seconds: 60, mode: 'force' }],
          },
          { id: 2, name: 'blog', domains: [{ id: 21, name: 'blog.example.com', origins: [{ host: '127.0.0.1', port: blog.port }] }] },
          { id: 3, name: 'ssh', domains: [], l4Ports: [{ port: l4Port, origins: [{ host: '127.0.0.1', port: echo.port }] }] },
          {
            id: 4,
            name: 'down',
            domains: [{ id: 41, name: 'down.example.com', origins: [{ host: '127.0.0.1', port: deadPort }] }],
            errorPages: [{ status: 502, type: 'content', body: '<h1>We will be right back</h1>' }],
          },
        ],
      },
    });

  const pushLists = (sites: edge.SiteData[]) =>
    pushData({ control: node.control, data: luaData({ state: edge.desiredState.parse({ ...stateAt({ revision: 2 }), data: { sites } }) }) });

  beforeAll(async () => {
    [shop, blog, echo] = await Promise.all([startOrigin({ name: 'shop' }), startOrigin({ name: 'blog' }), startTcpEcho()]);
    httpPort = await freePort();
    l4Port = await freePort();
    deadPort = await freePort();
    node = await startEdge({ state: stateAt({ revision: 1 }), controlPort: await freePort() });
  });

  afterAll(async () => {
    await node?.stop();
    await Promise.all([shop?.close(), blog?.close(), echo?.close()]);
  });

  it('routes a request by its Host header to that domain origin', async () => {
    const a = await get({ port: httpPort, host: 'shop.example.com', path: '/cart' });
    expect(a.status).toBe(200);
    expect(JSON.parse(a.body)).toMatchObject({ origin: 'shop', url: '/cart', host: 'shop.example.com' });
    const b = await get({ port: httpPort, host: 'blog.example.com', path: '/post/1' });
    expect(JSON.parse(b.body)).toMatchObject({ origin: 'blog', url: '/post/1' });
    expect((await get({ port: httpPort, host: 'unknown.example.com' })).status).toBe(903);
  });

  it('takes control calls only with the node\'s control token', async () => {
    const bad = { ...node.control, token: 'not-the-token' };
    await expect(pushData({ control: bad, data: { revision: 99, sites: [] } })).rejects.toThrow(/401/);
    await expect(purgeCache({ control: bad, all: true })).rejects.toThrow(/401/);
    expect((await controlStatus({ control: node.control })).revision).toBe(1);
  });

  it('blocks a blacklisted address within the same second, without a reload', async () => {
    const before = await controlStatus({ control: node.control });
    const started = Date.now();
    await pushLists([{ siteId: 1, blacklist: ['127.0.0.0/8'], whitelist: [] }]);
    const blocked = await get({ port: httpPort, host: 'shop.example.com', path: '/cart' });
    expect(Date.now() - started).toBeLessThan(1000);
    expect(blocked.status).toBe(929);
    expect(blocked.body).toContain('blacklist');
    expect(blocked.body).toContain('127.0.0.1');
    expect((await get({ port: httpPort, host: 'blog.example.com' })).status).toBe(200);

    const after = await controlStatus({ control: node.control });
    expect(after).toMatchObject({ revision: 2, loads: before.loads, workerPid: before.workerPid, release: before.release });
    expect(node.masterPid).toBeGreaterThan(0);
    process.kill(node.masterPid, 0);
  });

  it('blocks ranges and single addresses, and lets a whitelisted address through', async () => {
    await pushLists([{ siteId: 1, blacklist: ['127.0.0.1-127.0.0.9'], whitelist: [] }]);
    expect((await get({ port: httpPort, host: 'shop.example.com' })).status).toBe(929);
    await pushLists([{ siteId: 1, blacklist: ['10.9.9.9', '127.0.0.1'], whitelist: [] }]);
    expect((await get({ port: httpPort, host: 'shop.example.com' })).status).toBe(929);
    await pushLists([{ siteId: 1, blacklist: ['127.0.0.0/8'], whitelist: ['127.0.0.1'] }]);
    expect((await get({ port: httpPort, host: 'shop.example.com' })).status).toBe(200);
    await pushLists([]);
    expect((await get({ port: httpPort, host: 'shop.example.com' })).status).toBe(200);
  });

  it('answers a cached file from the cache the second time, and from the origin after a purge', async () => {
    const url = { port: httpPort, host: 'shop.example.com', path: '/logo.png?v=1' };
    const hitsBefore = shop.hits.length;
    expect((await get(url)).headers['x-cache']).toBe('MISS');
    const second = await get(url);
    expect(second.headers['x-cache']).toBe('HIT');
    expect(shop.hits.length).toBe(hitsBefore + 1);

    expect(await purgeCache({ control: node.control, urls: ['http://shop.example.com/logo.png?v=1'] })).toEqual({ removed: 1 });
    expect((await get(url)).headers['x-cache']).toBe('MISS');
    expect((await get(url)).headers['x-cache']).toBe('HIT');

    expect(await purgeCache({ control: node.control, hosts: ['blog.example.com'] })).toEqual({ removed: 0 });
    expect((await get(url)).headers['x-cache']).toBe('HIT');
    expect(await purgeCache({ control: node.control, hosts: ['shop.example.com'] })).toEqual({ removed: 1 });
    expect((await get(url)).headers['x-cache']).toBe('MISS');

    await get({ ...url, path: '/banner.png' });
    expect((await purgeCache({ control: node.control, all: true })).removed).toBe(2);
    expect((await get(url)).headers['x-cache']).toBe('MISS');

    const uncached = shop.hits.length;
    expect((await get({ ...url, path: '/cart' })).headers['x-cache']).toBe('MISS');
    expect((await get({ ...url, path: '/cart' })).headers['x-cache']).toBe('MISS');
    expect(shop.hits.length).toBe(uncached + 2);
  });

  it("answers the site's own error page when its origin is down", async () => {
    const down = await get({ port: httpPort, host: 'down.example.com' });
    expect(down.status).toBe(502);
    expect(down.body).toBe('<h1>We will be right back</h1>');
  });

  it('forwards TCP on an L4 port to its origin', async () => {
    expect(await tcpRoundTrip({ port: l4Port, message: 'ping' })).toBe('echo:ping');
  });

  it('refuses a configuration nginx -t rejects and keeps the old one serving', async () => {
    const serving = await readlink(join(node.prefix, 'conf'));
    const state = stateAt({ revision: 3, shopOrigin: 'origin.invalid' });
    // a body size above the zone's is a directive: the domain gets a server block of its own, whose upstream nginx resolves
    state.structure.sites[0].options.clientMaxBodySize = state.structure.zone.nginx.clientMaxBodySize + 1;
    const result = await applyState({ state, prefix: node.prefix, controlPort: node.control.port });
    expect(result).toMatchObject({ ok: false, stage: 'test' });
    expect(!result.ok && result.error).toMatch(/host not found in upstream/);
    expect(await readlink(join(node.prefix, 'conf'))).toBe(serving);
    expect(JSON.parse((await get({ port: httpPort, host: 'shop.example.com' })).body)).toMatchObject({ origin: 'shop' });
  });

  it('preflights a release: one whose Lua data does not load is refused before it is swapped in', async () => {
    const dir = join(node.prefix, 'releases', 'r9-broken');
    const files = render({ state: stateAt({ revision: 9 }), dir, release: 'r9-broken', controlPort: node.control.port });
    await writeRelease({ dir, files: { ...files, ...(await defaultCertFiles({ prefix: node.prefix })) } });
    const confFile = join(dir, 'nginx.conf');
    expect(await preflight({ prefix: node.prefix, nginxBin: 'nginx', confFile })).toBeUndefined();
    await writeFile(join(dir, 'data.json'), '{"revision":');
    expect(await testConfig({ prefix: node.prefix, nginxBin: 'nginx', confFile })).toBeUndefined();
    expect(await preflight({ prefix: node.prefix, nginxBin: 'nginx', confFile })).toMatch(/data file is not JSON/);
    await rm(dir, { recursive: true });
    expect((await get({ port: httpPort, host: 'blog.example.com' })).status).toBe(200);
  });

  it('rolls back when nginx cannot take a tested configuration on reload', async () => {
    const serving = await readlink(join(node.prefix, 'conf'));
    const taken = await freePort();
    const blocker: Server = createServer();
    await new Promise<void>((r) => blocker.listen(taken, '0.0.0.0', r));
    try {
      const state = stateAt({ revision: 4 });
      state.structure.sites[2].l4Ports[0].port = taken;
      const result = await applyState({ state, prefix: node.prefix, controlPort: node.control.port });
      expect(result).toMatchObject({ ok: false, stage: 'reload' });
      expect(!result.ok && result.error).toMatch(/Address already in use/);
      expect(await readlink(join(node.prefix, 'conf'))).toBe(serving);
      expect((await get({ port: httpPort, host: 'blog.example.com' })).status).toBe(200);
    } finally {
      await new Promise<void>((r) => blocker.close(() => r()));
    }
  });

  it('applies a good configuration with a reload and serves it', async () => {
    const before = await controlStatus({ control: node.control });
    const state = stateAt({ revision: 5 });
    state.structure.sites[1].domains[0].name = 'news.example.com';
    const result = await applyState({ state, prefix: node.prefix, controlPort: node.control.port });
    expect(result).toMatchObject({ ok: true, reloaded: true });
    const after = await controlStatus({ control: node.control });
    expect(after.loads).toBe((before.loads ?? 0) + 1);
    expect(after.release).toBe(result.release);
    expect(JSON.parse((await get({ port: httpPort, host: 'news.example.com' })).body)).toMatchObject({ origin: 'blog' });
    expect((await get({ port: httpPort, host: 'blog.example.com' })).status).toBe(903);
    expect((await readdir(join(node.prefix, 'releases'))).length).toBeLessThanOrEqual(3);
  });

  it('writes one JSON line per request to the access log', async () => {
    await pushLists([{ siteId: 1, blacklist: ['127.0.0.1'], whitelist: [] }]);
    await get({ port: httpPort, host: 'shop.example.com', path: '/x?y=1' });
    await pushLists([]);
    await new Promise((r) => setTimeout(r, 200));
    const entries = (await readFile(join(node.prefix, ACCESS_LOG), 'utf8')).trim().split('\n').map((l) => JSON.parse(l));
    const blocked = entries.findLast((e) => e.uri === '/x?y=1');
    expect(blocked).toMatchObject({
      site: '1',
      domain: 'shop.example.com',
      clientIp: '127.0.0.1',
      method: 'GET',
      status: '929',
      httpVersion: 'HTTP/1.1',
      blockCause: 'blacklist',
      blockRule: '',
      blockAction: 'deny',
      scheme: 'http',
      country: '',
      asn: '',
    });
    expect(blocked.requestId).toMatch(/^[0-9a-f]{32}$/);
    for (const key of ['time', 'bytesSent', 'bytesReceived', 'requestTime', 'upstreamTime', 'cacheStatus', 'referer', 'userAgent']) {
      expect(blocked).toHaveProperty(key);
    }
    expect(entries.some((e) => e.cacheStatus === 'HIT')).toBe(true);
  });
});
