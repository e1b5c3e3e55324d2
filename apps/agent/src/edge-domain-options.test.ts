import { edge } from '@edgekeep/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { nginxForTests, startEdge } from './test/nginx-harness';
import { freePort, get, startOrigin, startTcpEcho, tcpRoundTrip } from './test/servers';

const nginx = await nginxForTests('edge tests need nginx with the Lua and stream modules');

/** Load balancing, port mapping and layer-4 failover, served by real nginx. */
describe.skipIf(!nginx.ok)('domain options and layer-4 ports on a real edge', () => {
  let a: Awaited<ReturnType<typeof startOrigin>>;
  let b: Awaited<ReturnType<typeof startOrigin>>;
  let echo: Awaited<ReturnType<typeof startTcpEcho>>;
  let node: Awaited<ReturnType<typeof startEdge>>;
  let web: number;
  let web2: number;
  let l4: number;
  let dead: number;

  beforeAll(async () => {
    [a, b, echo] = await Promise.all([startOrigin({ name: 'a' }), startOrigin({ name: 'b' }), startTcpEcho()]);
    [web, web2, l4, dead] = [await freePort(), await freePort(), await freePort(), await freePort()];
    const both = [{ host: '127.0.0.1', port: a.port }, { host: '127.0.0.1', port: b.port }];
    const state = edge.desiredState.parse({
      revision: 1,
      structure: {
        zone: { httpPorts: [web, web2], httpsPorts: [await freePort()], nginx: { workerProcesses: 1 } },
        sites: [
          {
            id: 1,
            name: 'options',
            domains: [
              { id: 1, name: 'rr.example.com', origins: both },
              { id: 2, name: 'hash.example.com', origins: both, balance: 'ip_hash' },
              { id: 3, name: 'least.example.com', origins: both, balance: 'least_conn', keepalive: 0 },
              {
                id: 4,
                name: 'mapped.example.com',
                origins: [{ host: '127.0.0.1', port: dead }],
                portMap: { enabled: true, rules: [{ listen: web, originPort: a.port }, { listen: web2, originPort: b.port }] },
              },
            ],
          },
          { id: 2, name: 'tcp', domains: [], l4Ports: [{ port: l4, origins: [{ host: '127.0.0.1', port: dead }, { host: '127.0.0.1', port: echo.port, backup: true }] }] },
        ],
      },
    });
    node = await startEdge({ state, controlPort: await freePort() });
  });

  afterAll(async () => {
    await node?.stop();
    await Promise.all([a?.close(), b?.close(), echo?.close()]);
  });

  const originsSeen = async (host: string, n = 6) => {
    const seen: string[] = [];
    for (let i = 0; i < n; i++) seen.push(JSON.parse((await get({ port: web, host })).body).origin);
    return seen;
  };

  it('round robin spreads requests over both origins', async () => {
    expect(new Set(await originsSeen('rr.example.com'))).toEqual(new Set(['a', 'b']));
  });

  it('IP hash sends one client to one origin every time', async () => {
    expect(new Set(await originsSeen('hash.example.com')).size).toBe(1);
  });

  it('least connections serves from both origins', async () => {
    expect(new Set(await originsSeen('least.example.com', 8))).toEqual(new Set(['a', 'b']));
  });

  it('port mapping picks the origin port by the edge port the client used', async () => {
    expect(JSON.parse((await get({ port: web, host: 'mapped.example.com' })).body).origin).toBe('a');
    expect(JSON.parse((await get({ port: web2, host: 'mapped.example.com' })).body).origin).toBe('b');
  });

  it('a layer-4 port forwards TCP, falling back to its backup origin when the primary is down', async () => {
    expect(await tcpRoundTrip({ port: l4, message: 'ping' })).toBe('echo:ping');
  });
});
