import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { edge } from '@edgekeep/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { stopNginx } from './apply/process';
import { controlStatus, pushData } from './control/client';
import { luaData, splitLive } from './render';
import { createApplier, type Applier } from './sync/applier';
import { nginxForTests } from './test/nginx-harness';
import { send } from './test/requests';
import { freePort } from './test/servers';

const nginx = await nginxForTests('edge tests need nginx with the Lua and stream modules');

/** An origin answering /broken and /broken.png with 502, /forbidden with 403, /boom and /big-boom with 500 (each with a body and validators of its own), else 200. */
const startOrigin = async () => {
  const statuses: Record<string, number> = { '/broken': 502, '/broken.png': 502, '/forbidden': 403, '/boom': 500, '/big-boom': 500 };
  const server = createServer((req, res) => {
    res.statusCode = statuses[req.url ?? ''] ?? 200;
    res.setHeader('etag', '"origin"');
    res.setHeader('content-type', 'text/plain');
    // a body nginx passes on in many chunks
    if (req.url === '/big-boom') return res.end('x'.repeat(512 * 1024));
    res.end(`origin says ${res.statusCode}`);
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  return { port: (server.address() as AddressInfo).port, close: () => new Promise<void>((r) => server.close(() => r())) };
};

describe.skipIf(!nginx.ok)("a site's error pages on its live domains, changed without a reload", () => {
  let origin: Awaited<ReturnType<typeof startOrigin>>;
  let prefix: string;
  let stateDir: string;
  let applier: Applier;
  let httpPort: number;
  let deadPort: number;
  let revision = 1;

  const PAGES = [
    { status: 502, type: 'content', body: '<h1>Back soon</h1>' },
    { status: 403, type: 'redirect', body: 'https://status.example.com/denied' },
    { status: 500, type: 'js', body: 'location.reload()' },
  ];
  /**
   * The site `shop` (its domain and one whose origin is down) with the error pages given, served from data; `more`
   * gives shop cache rules and adds other sites.
   */
  const stateWith = (errorPages: object[] = [], data: object = {}, more: { cacheRules?: object[]; sites?: object[] } = {}) =>
    edge.desiredState.parse({
      data,
      revision: revision++,
      structure: {
        zone: { httpPorts: [httpPort], httpsPorts: [httpPort + 1], nginx: { workerProcesses: 1 } },
        sites: [
          {
            id: 1,
            name: 'shop',
            errorPages,
            cacheRules: more.cacheRules ?? [],
            domains: [
              { id: 11, name: 'shop.example.com', origins: [{ host: '127.0.0.1', port: origin.port }] },
              { id: 12, name: 'down.example.com', origins: [{ host: '127.0.0.1', port: deadPort }] },
            ],
          },
          ...(more.sites ?? []),
        ],
      },
    });
  const applyLive = async (state: edge.DesiredState) => {
    expect(splitLive({ state }).structure.sites).toEqual([]);
    expect(await applier.apply(state)).toMatchObject({ ok: true, reloaded: false });
  };
  const loads = async () => (await controlStatus({ control: await applier.control() })).loads;
  const shop = (path: string, method?: string) => send({ port: httpPort, host: 'shop.example.com', path, method });

  beforeAll(async () => {
    origin = await startOrigin();
    [httpPort, deadPort] = [await freePort(), await freePort()];
    prefix = await mkdtemp(join(tmpdir(), 'ek-live-pages-prefix-'));
    stateDir = await mkdtemp(join(tmpdir(), 'ek-live-pages-state-'));
    applier = createApplier({ prefix, stateDir, controlPort: await freePort() });
    expect(await applier.apply(stateWith())).toMatchObject({ ok: true });
  });

  afterAll(async () => {
    if (prefix) await stopNginx({ prefix });
    await origin?.close();
    await Promise.all([prefix, stateDir].map((d) => d && rm(d, { recursive: true, force: true })));
  });

  it("answers an origin's error and nginx's own with the site's page of that status, and the origin's own again once it is gone", async () => {
    const before = await loads();
    expect(await shop('/broken')).toMatchObject({ status: 502, body: 'origin says 502' });
    await applyLive(stateWith(PAGES));
    const broken = await shop('/broken');
    expect(broken).toMatchObject({ status: 502, body: '<h1>Back soon</h1>', headers: { 'content-type': 'text/html; charset=utf-8' } });
    expect(broken.headers.etag).toBeUndefined();
    // one ray id, as on every answer
    expect(broken.headers['x-ray-id']).toMatch(/^[0-9a-f]{32}-n0$/);
    expect(await send({ port: httpPort, host: 'down.example.com', path: '/' })).toMatchObject({ status: 502, body: '<h1>Back soon</h1>' });
    expect(await shop('/forbidden')).toMatchObject({ status: 302, body: expect.stringContaining('302 Found'), headers: { location: 'https://status.example.com/denied' } });
    const script = '<!doctype html><html><body><script>location.reload()</script></body></html>\n';
    expect(await shop('/boom')).toMatchObject({ status: 500, body: script });
    expect(await shop('/big-boom')).toMatchObject({ status: 500, body: script });
    expect(await shop('/broken', 'HEAD')).toMatchObject({ status: 502, body: '' });
    expect(await shop('/fine')).toMatchObject({ status: 200, body: 'origin says 200' });
    await applyLive(stateWith());
    expect(await shop('/broken')).toMatchObject({ status: 502, body: 'origin says 502' });
    expect(await shop('/forbidden')).toMatchObject({ status: 403, body: 'origin says 403' });
    expect(await loads()).toBe(before);
  });

  it("leaves a page the runtime answers with itself as it is, as nginx's error_page does", async () => {
    const signed = { domainModules: [{ domainId: 11, tokenAuth: { key: 'k'.repeat(16), scope: 'paths', paths: ['/signed/'] } }] };
    await applyLive(stateWith(PAGES, signed));
    const refused = await shop('/signed/file');
    expect(refused.status).toBe(403);
    expect(refused.headers.location).toBeUndefined();
    expect(refused.body).toContain('Link not valid');
    expect(await shop('/forbidden')).toMatchObject({ status: 302, headers: { location: 'https://status.example.com/denied' } });
  });

  it("puts the pages in place on a path a cache rule sends to its policy's location, and leaves a site without pages as its origin answers", async () => {
    const blogSite = { id: 2, name: 'blog', domains: [{ id: 21, name: 'blog.example.com', origins: [{ host: '127.0.0.1', port: origin.port }] }] };
    const state = stateWith(PAGES, {}, { cacheRules: [{ type: 'fileTypes', values: ['png'], seconds: 600, mode: 'force' }], sites: [blogSite] });
    // the domains stay live; the cache rule's policy location is rendered
    expect(splitLive({ state }).structure.sites).toEqual([]);
    expect(await applier.apply(state)).toMatchObject({ ok: true });
    expect(await shop('/broken.png')).toMatchObject({ status: 502, body: '<h1>Back soon</h1>' });
    expect(await shop('/broken')).toMatchObject({ status: 502, body: '<h1>Back soon</h1>' });
    const blog = (path: string) => send({ port: httpPort, host: 'blog.example.com', path });
    expect(await blog('/broken')).toMatchObject({ status: 502, body: 'origin says 502', headers: { etag: '"origin"', 'content-type': 'text/plain' } });
    expect(await blog('/forbidden')).toMatchObject({ status: 403, body: 'origin says 403', headers: { 'x-ray-id': expect.stringMatching(/^[0-9a-f]{32}-n0$/) } });
    expect(await blog('/fine')).toMatchObject({ status: 200, body: 'origin says 200' });
  });

  it('refuses a bad page before it reaches nginx, and keeps serving the last good ones', async () => {
    const good = luaData({ state: stateWith(PAGES) });
    const control = await applier.control();
    await pushData({ control, data: good });
    // what the agent would never send: the runtime checks it itself
    const bad = (pages: object) => pushData({ control, data: { ...good, errorPages: { 1: pages as Record<string, { type: 'content'; body: string }> } } });
    await expect(bad({ 502: { type: 'page', body: 'x' } })).rejects.toThrow(/400.*errorPages: site 1: the page of 502/);
    await expect(bad({ 200: { type: 'content', body: 'x' } })).rejects.toThrow(/400.*errorPages: site 1: status 200/);
    await expect(bad({ 403: { type: 'redirect', body: 'https://x.example.com/"; evil' } })).rejects.toThrow(/400.*errorPages: site 1: the URL of 403/);
    expect(await shop('/broken')).toMatchObject({ status: 502, body: '<h1>Back soon</h1>' });
  });
});
