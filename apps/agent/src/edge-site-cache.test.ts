import { createServer, request } from 'node:http';
import type { AddressInfo } from 'node:net';
import { chmod, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { edge } from '@edgekeep/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { applyState } from './apply/apply';
import { emptyCache } from './commands/node-files';
import { purgeCache } from './control/client';
import { siteCacheDirectories } from './render';
import { cachedKeys } from './test/cache-files';
import { nginxForTests, startEdge } from './test/nginx-harness';
import { freePort } from './test/servers';

const nginx = await nginxForTests('edge tests need nginx with the Lua and stream modules');

const startOrigin = async () => {
  const server = createServer((req, res) => res.end(`file ${req.url}`));
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  return { port: (server.address() as AddressInfo).port, close: () => new Promise<void>((r) => server.close(() => r())) };
};

const ask = ({ port, host, path }: { port: number; host: string; path: string }) =>
  new Promise<{ body: string; cache: string }>((resolve, reject) => {
    const req = request({ host: '127.0.0.1', port, path, headers: { host }, agent: false }, (res) => {
      let body = '';
      res.setEncoding('utf8');
      res.on('data', (c) => (body += c));
      res.on('end', () => resolve({ body, cache: String(res.headers['x-cache']) }));
    });
    req.once('error', reject);
    req.end();
  });

describe.skipIf(!nginx.ok)('a site cache directory of its own on a real edge', () => {
  let origin: Awaited<ReturnType<typeof startOrigin>>;
  let node: Awaited<ReturnType<typeof startEdge>>;
  let base = '';
  let ownDir = '';
  let httpPort = 0;
  let state: edge.DesiredState;
  const get = (host: string, path: string) => ask({ port: httpPort, host, path });

  beforeAll(async () => {
    origin = await startOrigin();
    httpPort = await freePort();
    base = await mkdtemp(join(tmpdir(), 'ek-site-cache-'));
    // The unprivileged workers must reach the directory, as they reach /var/cache/nginx.
    await chmod(base, 0o755);
    ownDir = join(base, 'edgekeep', 'shop');
    const origins = [{ host: '127.0.0.1', port: origin.port }];
    const cacheRules = [{ type: 'fileTypes', values: ['png'], seconds: 600, mode: 'force' }];
    state = edge.desiredState.parse({
      revision: 1,
      structure: {
        zone: { httpPorts: [httpPort], httpsPorts: [await freePort()], nginx: { workerProcesses: 1 } },
        sites: [
          { id: 1, name: 'shop', domains: [{ id: 11, name: 'shop.example.com', origins }], cacheRules, options: { cache: { directory: ownDir } } },
          { id: 2, name: 'blog', domains: [{ id: 21, name: 'blog.example.com', origins }], cacheRules },
        ],
      },
    });
    node = await startEdge({ state, controlPort: await freePort() });
  });

  afterAll(async () => {
    await node?.stop();
    await origin?.close();
    await rm(base, { recursive: true, force: true });
  });

  it("keeps the site's answers in its own directory (made by the agent) and other sites' in the shared cache", async () => {
    expect(await get('shop.example.com', '/a.png')).toEqual({ body: 'file /a.png', cache: 'MISS' });
    expect(await get('shop.example.com', '/a.png')).toEqual({ body: 'file /a.png', cache: 'HIT' });
    expect(await get('blog.example.com', '/b.png')).toEqual({ body: 'file /b.png', cache: 'MISS' });
    expect(await cachedKeys(ownDir)).toEqual(['http://shop.example.com/a.png']);
    expect(await cachedKeys(join(node.prefix, 'cache'))).toEqual(['http://blog.example.com/b.png']);
  });

  it('purges a URL from the own directory', async () => {
    expect(await purgeCache({ control: node.control, urls: ['http://shop.example.com/a.png'] })).toEqual({ removed: 1 });
    expect(await cachedKeys(ownDir)).toEqual([]);
    expect((await get('shop.example.com', '/a.png')).cache).toBe('MISS');
  });

  it("clears a site's hosts and URL prefixes in its own directory, and everything on clear-all", async () => {
    await get('shop.example.com', '/img/c.png');
    expect(await purgeCache({ control: node.control, urls: [], prefixes: ['http://shop.example.com/img/'] })).toEqual({ removed: 1 });
    expect(await cachedKeys(ownDir)).toEqual(['http://shop.example.com/a.png']);
    expect(await purgeCache({ control: node.control, hosts: ['shop.example.com'] })).toEqual({ removed: 1 });
    expect(await cachedKeys(ownDir)).toEqual([]);
    await get('shop.example.com', '/a.png');
    expect(await purgeCache({ control: node.control, all: true })).toEqual({ removed: 2 });
    expect([...(await cachedKeys(ownDir)), ...(await cachedKeys(join(node.prefix, 'cache')))]).toEqual([]);
  });

  it('formats the own directory with the shared cache', async () => {
    await get('shop.example.com', '/d.png');
    await get('blog.example.com', '/e.png');
    expect(await emptyCache({ prefix: node.prefix, dirs: siteCacheDirectories({ state }) })).toBeGreaterThanOrEqual(2);
    expect([...(await cachedKeys(ownDir)), ...(await cachedKeys(join(node.prefix, 'cache')))]).toEqual([]);
    expect((await get('shop.example.com', '/d.png')).cache).toBe('MISS');
  });

  it('refuses a state whose cache directory cannot be made, and keeps serving the last good one', async () => {
    await writeFile(join(base, 'plain-file'), '');
    const site = { ...state.structure.sites[0], options: { ...state.structure.sites[0].options, cache: { ignoreQuery: false, directory: join(base, 'plain-file', 'shop') } } };
    const next = { ...state, revision: 2, structure: { ...state.structure, sites: [site, state.structure.sites[1]] } };
    const result = await applyState({ state: next, prefix: node.prefix, controlPort: node.control.port });
    expect(result).toMatchObject({ ok: false, stage: 'test', error: expect.stringContaining('cannot make the cache directory') });
    await get('shop.example.com', '/f.png');
    expect(await cachedKeys(ownDir)).toContain('http://shop.example.com/f.png');
  });
});
