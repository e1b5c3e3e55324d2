import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { nginxForTests } from '../apps/agent/src/test/nginx-harness';
import { get } from '../apps/agent/src/test/servers';
import { api, freePort, startServer, type Server } from './harness';
import { until } from './tenants';

const nginx = await nginxForTests('the DEMO=1 local edge needs nginx with the Lua module');

describe.skipIf(!nginx.ok)('npm start with DEMO=1 and nginx present', () => {
  let server: Server;
  let httpPort: number;

  beforeAll(async () => {
    // Other ports than the default 8081/8443, which may be taken on a developer's machine.
    httpPort = await freePort();
    server = await startServer({
      DEMO: '1',
      DEMO_EDGE_HTTP_PORT: String(httpPort),
      DEMO_EDGE_HTTPS_PORT: String(await freePort()),
      DEMO_EDGE_L4_PORT: String(await freePort()),
      DEMO_EDGE_CONTROL_PORT: String(await freePort()),
    });
  });
  afterAll(async () => {
    await server?.stop();
  });

  it('serves demo.localhost through the local edge node, from the console as its origin', async () => {
    let last = '';
    const page = await until('demo.localhost to be served on the edge port', async () => {
      const res = await get({ port: httpPort, host: 'demo.localhost' }).catch((e: Error) => {
        last = e.message;
        throw e;
      });
      last = `${res.status} ${res.body.slice(0, 200)}`;
      return res.status === 200 ? res : undefined;
    }, 60_000).catch((e: Error) => {
      throw new Error(`${e.message}; last answer: ${last}\n${server.output().slice(-3000)}`);
    });
    expect(page.body).toContain('<div id="root"');
    // Through nginx (its cache status header), not straight from the console.
    expect(page.headers.server).toBe('nginx');
    expect(page.headers['x-cache']).toBeDefined();
  });

  it('answers other names with the edge default page, not the console', async () => {
    const res = await get({ port: httpPort, host: 'nothing.example.test' });
    expect(res.status).toBe(903);
    expect(res.body).toContain('No site here');
  });

  it('sends a steady stream of real requests through the edge, which the demo user sees in statistics and logs', async () => {
    const account = 'demo-user@edgekeep.local';
    const step1 = (await api(server, 'POST', 'user/login', { body: { account, password: 'edgekeep-demo' } })).body.data;
    const code = await until('the sign-in code in the log', async () => [...server.output().matchAll(/sign-in code for demo-user@edgekeep\.local: (\d{6})/g)].pop()?.[1]);
    const token = (await api(server, 'POST', 'user/code', { body: { account, onePassKey: step1.onePassKey, code } })).body.data.accessToken as string;
    const filter = { timeInterval: 'oneHour', dimensions: ['cacheStatus', 'blockCause'] };
    // About one request a second, one of each kind first: pages and scripts (cached after the first), a scanner, a probe
    // and a blacklisted sender.
    const tops = await until('cache hits and both kinds of refusal in the demo statistics', async () => {
      const res = await api(server, 'POST', 'user/statistics/top', { token, body: filter });
      const [cache, causes] = res.body.data.tops as { items: { key: string; reqCount: number }[] }[];
      const has = (items: { key: string }[], key: string) => items.some((i) => i.key === key);
      return has(cache.items, 'HIT') && has(causes.items, 'acl') && has(causes.items, 'blacklist') ? { cache, causes } : undefined;
    }, 150_000);
    expect(tops.cache.items.find((i) => i.key === 'HIT')!.reqCount).toBeGreaterThan(0);
    const window = { startTime: new Date(Date.now() - 3600_000).toISOString(), endTime: new Date(Date.now() + 60_000).toISOString() };
    const waf = (await api(server, 'POST', 'user/logs/waf', { token, body: window })).body;
    expect(waf.total).toBeGreaterThan(0);
    expect(waf.data[0]).toMatchObject({ domain: 'demo.localhost', status: 929 });
    // Connections through the demo site's layer-4 port: passed from the visitors, dropped from the blacklisted address.
    type Item = { key: string; connections: number };
    const l4 = (outcomes: string) => api(server, 'POST', 'user/statistics/network/outcomes/ips/tops', { token, body: { timeInterval: 'oneHour', top: 20, outcomes } });
    // The first round holds one of each; later ones arrive at random (about 2 drops to 6 passes in 88 visits).
    const seen = await until('layer-4 drops of the blacklisted address and passes of the visitors', async () => {
      const dropped = (await l4('drop')).body.data.items as Item[];
      const passed = (await l4('pass')).body.data.items as Item[];
      const visitor = passed.some((i) => i.key.startsWith('127.0.0.') && i.key !== '127.0.0.66' && i.connections > 0);
      return dropped.some((i) => i.key === '127.0.0.66') && visitor ? { dropped, passed } : undefined;
    }, 240_000);
    expect(seen.dropped.every((i) => i.key === '127.0.0.66')).toBe(true);
    expect(seen.passed.some((i) => i.key === '127.0.0.66')).toBe(false);
  }, 420_000);

  it('stops nginx with the server', async () => {
    const dataDir = server.dataDir;
    const pidFile = path.join(dataDir, 'edge/nginx/logs/nginx.pid');
    expect(fs.existsSync(pidFile)).toBe(true);
    await server.stop();
    await expect(get({ port: httpPort, host: 'demo.localhost' })).rejects.toThrow();
  });
});
