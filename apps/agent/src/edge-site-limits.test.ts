import { edge } from '@edgekeep/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { pushData } from './control/client';
import { luaData } from './render';
import { nginxForTests, startEdge } from './test/nginx-harness';
import { send } from './test/requests';
import { connect } from 'node:net';
import { applyState } from './apply/apply';
import { freePort, startTcpEcho, tcpAnswer } from './test/servers';

const nginx = await nginxForTests('edge tests need nginx with Lua');

const BIG = 250_000;

/** An origin with a response that takes a while (/slow) and a large one (/big), neither of them cached. */
const startOrigin = async () => {
  const server: Server = createServer((req, res) => {
    res.setHeader('cache-control', 'no-store');
    if (req.url === '/big') return res.end(Buffer.alloc(BIG, 'x'));
    if (req.url === '/slow') return void setTimeout(() => res.end('slow'), 1500);
    res.end('ok');
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  return { port: (server.address() as AddressInfo).port, close: () => new Promise<void>((r) => server.close(() => r())) };
};

describe.skipIf(!nginx.ok)("a site's limitations at the edge", () => {
  let origin: Awaited<ReturnType<typeof startOrigin>>;
  let node: Awaited<ReturnType<typeof startEdge>>;
  let httpPort: number;
  let deadPort: number;

  const state = (limits?: object) =>
    edge.desiredState.parse({
      revision: 1,
      structure: {
        zone: { httpPorts: [httpPort], httpsPorts: [httpPort + 1], nginx: { workerProcesses: 1 } },
        sites: [
          {
            id: 1,
            name: 'shop',
            domains: [
              { id: 11, name: 'shop.example.com', origins: [{ host: '127.0.0.1', port: origin.port }] },
              { id: 12, name: 'down.example.com', origins: [{ host: '127.0.0.1', port: deadPort }] },
            ],
            errorPages: [{ status: 502, type: 'content', body: 'origin down' }],
          },
          // no error pages: its requests go to the fixed servers' location of the log phase only while it has limitations
          { id: 2, name: 'blog', domains: [{ id: 21, name: 'blog.example.com', origins: [{ host: '127.0.0.1', port: origin.port }] }] },
        ],
      },
      data: { sites: limits ? [{ siteId: 1, limits }, { siteId: 2, limits }] : [] },
    });
  const push = (limits?: object) => pushData({ control: node.control, data: luaData({ state: state(limits) }) });
  const shop = (path: string, headers: Record<string, string> = {}) => send({ port: httpPort, host: 'shop.example.com', path, headers });
  const timed = async (path: string) => {
    const start = Date.now();
    const answer = await shop(path);
    return { status: answer.status, length: answer.body.length, ms: Date.now() - start };
  };

  beforeAll(async () => {
    origin = await startOrigin();
    httpPort = await freePort();
    deadPort = await freePort();
    node = await startEdge({ state: state(), controlPort: await freePort() });
  });
  afterAll(async () => {
    await node?.stop();
    await origin?.close();
  });

  it('answers 503 to a request over the connection limit, and serves again once the others are done', async () => {
    await push({ connections: 2 });
    const held = [shop('/slow'), shop('/slow')];
    await new Promise((r) => setTimeout(r, 300));
    const over = await shop('/', { 'accept-language': 'zh-TW' });
    expect(over.status).toBe(503);
    expect(over.body).toContain('網站忙碌中');
    expect((await Promise.all(held)).map((a) => a.status)).toEqual([200, 200]);
    expect((await shop('/')).status).toBe(200);
    // a request answered by the site's own error page (an internal redirect) gives its place back too
    for (let i = 0; i < 3; i++) expect(await send({ port: httpPort, host: 'down.example.com' })).toMatchObject({ status: 502, body: 'origin down' });
    expect((await Promise.all([shop('/slow'), shop('/slow')])).map((a) => a.status)).toEqual([200, 200]);
    await push(undefined);
    const free = await Promise.all([shop('/slow'), shop('/slow'), shop('/')]);
    expect(free.map((a) => a.status)).toEqual([200, 200, 200]);
  });

  it('holds a site without error pages to its connection limit too, and lets each request go once done', async () => {
    const blog = (path: string) => send({ port: httpPort, host: 'blog.example.com', path });
    await push({ connections: 2 });
    for (let round = 0; round < 2; round++) {
      const held = [blog('/slow'), blog('/slow')];
      await new Promise((r) => setTimeout(r, 300));
      expect((await blog('/')).status).toBe(503);
      expect((await Promise.all(held)).map((a) => a.status)).toEqual([200, 200]);
      expect((await blog('/')).status).toBe(200);
    }
    await push(undefined);
    expect((await Promise.all([blog('/slow'), blog('/slow'), blog('/')])).map((a) => a.status)).toEqual([200, 200, 200]);
  });

  it('sends the site no faster than its bandwidth, and at full speed without it', async () => {
    await push({ bandwidth: 1 });
    const capped = await timed('/big');
    expect(capped).toMatchObject({ status: 200, length: BIG });
    // 1 Mbps is 125 000 bytes a second: 250 000 bytes take about two seconds
    expect(capped.ms).toBeGreaterThan(1500);
    await push(undefined);
    const full = await timed('/big');
    expect(full).toMatchObject({ status: 200, length: BIG });
    expect(full.ms).toBeLessThan(1000);
  });

  it("holds the site's layer-4 connections at once to its limitation, across its ports, after a reload", async () => {
    const echo = await startTcpEcho();
    const ports = [await freePort(), await freePort()];
    const base = state();
    const withL4 = edge.desiredState.parse({
      ...base,
      revision: 2,
      structure: {
        ...base.structure,
        sites: [...base.structure.sites, { id: 3, name: 'game', domains: [], l4Ports: ports.map((port) => ({ port, origins: [{ host: '127.0.0.1', port: echo.port }] })), l4Firewall: { connections: 1 } }],
      },
    });
    expect(await applyState({ state: withL4, prefix: node.prefix, controlPort: node.control.port })).toMatchObject({ ok: true });
    const held = connect({ port: ports[0], host: '127.0.0.1' }, () => held.write('hold'));
    try {
      await new Promise((r) => held.once('data', r));
      expect(await tcpAnswer({ port: ports[1] })).toBe('');
      held.destroy();
      await new Promise((r) => setTimeout(r, 200));
      expect(await tcpAnswer({ port: ports[1] })).toBe('echo:hi');
    } finally {
      held.destroy();
      await echo.close();
    }
  });
});
