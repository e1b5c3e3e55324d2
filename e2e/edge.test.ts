import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { readControlToken } from '../apps/agent/src/apply/layout';
import { controlStatus } from '../apps/agent/src/control/client';
import { nginxForTests } from '../apps/agent/src/test/nginx-harness';
import { freePort, get, startTcpEcho, tcpRoundTrip } from '../apps/agent/src/test/servers';
import { api } from './harness';
import { startEdgeStack, type EdgeStack } from './edge-stack';
import { until } from './tenants';

const nginx = await nginxForTests('edge end-to-end needs nginx with the Lua module');
const PASSWORD = 'edge e2e password';

describe.skipIf(!nginx.ok)('console → API → agent → nginx, for real', () => {
  let stack: EdgeStack;
  let server: EdgeStack['server'];
  let origin: EdgeStack['origin'];
  let httpPort: number;
  let controlPort: number;
  let client: string;
  let user: string;
  let ids: EdgeStack['ids'];

  const served = (host: string, pathName = '/') => get({ port: httpPort, host, path: pathName });
  /** How many times nginx loaded a configuration, from its control endpoint: a reload raises it. */
  const nginxLoads = async () => (await controlStatus({ control: { port: controlPort, token: await readControlToken({ prefix: stack.prefix }) } })).loads;

  beforeAll(async () => {
    stack = await startEdgeStack({ password: PASSWORD, originName: 'shop-origin' });
    ({ server, origin, httpPort, controlPort, client, user, ids } = stack);
    // The domain every test serves, added as a user would through the API.
    const made = await api(server, 'POST', `user/site/${ids.site}/domains`, {
      token: user,
      body: { domains: 'shop.example.test', upstreams: [{ host: '127.0.0.1', port: origin.port }] },
    });
    expect(made.status).toBe(200);
    await until('shop.example.test to be served', async () => ((await served('shop.example.test')).status === 200 ? true : undefined));
  });

  afterAll(() => stack?.stop());

  it('enrols the agent, which reports the node normal at the newest revision', async () => {
    const node = await until('the node to report', async () => {
      const n = (await api(server, 'GET', `client/nodes?zoneID=${ids.zone}`, { token: client })).body.data[0];
      return n.status === 'normal' && n.appliedRevision === n.revision ? n : undefined;
    });
    expect(node).toMatchObject({ initialized: true, version: expect.any(String), applyError: null });
  });

  it('serves a domain added through the API, through nginx, from its origin', async () => {
    const answer = await until('shop.example.test to be served', async () => {
      const r = await served('shop.example.test', '/hello');
      return r.status === 200 ? r : undefined;
    });
    expect(JSON.parse(answer.body)).toMatchObject({ origin: 'shop-origin', url: '/hello', host: 'shop.example.test' });
    expect((await served('unknown.example.test')).status).toBe(903);
  });

  it('caches by a cache rule, and a URL purge queued in the console empties it', async () => {
    await api(server, 'POST', `user/site/${ids.site}/cacheRule`, { token: user, body: { type: 'fileTypes', values: ['png'], seconds: 300, mode: 'force' } });
    const hit = await until('a cache HIT', async () => {
      await served('shop.example.test', '/logo.png');
      const r = await served('shop.example.test', '/logo.png');
      return r.headers['x-cache'] === 'HIT' ? r : undefined;
    });
    expect(hit.status).toBe(200);
    const purge = await api(server, 'POST', `client/node/${ids.node}/command`, { token: client, body: { kind: 'clearUrlCache', urls: ['http://shop.example.test/logo.png'] } });
    await until('the purge to be done', async () => {
      const cmds = (await api(server, 'GET', `client/node/${ids.node}/commands`, { token: client })).body.data;
      return cmds.find((c: { id: number; status: string }) => c.id === purge.body.data.id && c.status === 'done');
    });
    expect((await served('shop.example.test', '/logo.png')).headers['x-cache']).toBe('MISS');
    await until('a HIT again', async () => ((await served('shop.example.test', '/logo.png')).headers['x-cache'] === 'HIT' ? true : undefined));
    const site = await api(server, 'DELETE', `user/site/${ids.site}/setting/currentCache`, { token: user });
    expect(site.body.data).toEqual({ nodes: 1 });
    await until("the site's purge to empty its cache", async () => ((await served('shop.example.test', '/logo.png')).headers['x-cache'] === 'MISS' ? true : undefined));
  });

  it('blocks with a blacklist entry at once, without a reload; a whitelist entry lets the address through', async () => {
    const before = (await api(server, 'GET', `client/nodes?zoneID=${ids.zone}`, { token: client })).body.data[0].appliedRevision;
    const loads = await nginxLoads();
    const black = await api(server, 'POST', `user/site/${ids.site}/firewall/setting/blacklists`, { token: user, body: { ips: '127.0.0.0/8' } });
    expect(black.status).toBe(200);
    const blocked = await until('the blacklist to block', async () => {
      const r = await served('shop.example.test', '/secret');
      return r.status === 929 ? r : undefined;
    });
    expect(blocked.body).toContain('blacklist');
    expect(await nginxLoads()).toBe(loads);
    await api(server, 'POST', `user/site/${ids.site}/firewall/setting/whitelists`, { token: user, body: { ips: '127.0.0.1' } });
    await until('the whitelist to let it through', async () => ((await served('shop.example.test')).status === 200 ? true : undefined));
    const [entry] = (await api(server, 'GET', `user/site/${ids.site}/firewall/setting/blacklists`, { token: user })).body.data;
    await api(server, 'PUT', `user/site/${ids.site}/firewall/setting/blacklists/enable`, { token: user, body: { ids: [entry.id], enabled: false } });
    const after = await until('the node to apply the newest revision', async () => {
      const n = (await api(server, 'GET', `client/nodes?zoneID=${ids.zone}`, { token: client })).body.data[0];
      return n.appliedRevision === n.revision ? n : undefined;
    });
    expect(after.appliedRevision).toBeGreaterThan(before);
    expect(await nginxLoads()).toBe(loads);
  });

  it('turns a domain off when the site is paused, and back on', async () => {
    await api(server, 'PUT', 'client/site/status', { token: client, body: { ids: [ids.site], status: 0 } });
    const status = async (want: number) => {
      const { status } = await served('shop.example.test');
      return status === want ? status : undefined;
    };
    expect(await until('the paused site to stop being served', () => status(903))).toBe(903);
    await api(server, 'PUT', 'client/site/status', { token: client, body: { ids: [ids.site], status: 1 } });
    expect(await until('the site to be served again', () => status(200))).toBe(200);
  });

  it('forwards TCP through a layer-4 port added through the API, and drops it when removed', async () => {
    const echo = await startTcpEcho();
    const tcpSite = (await api(server, 'POST', 'client/site', { token: client, body: { name: 'tcp', productID: ids.product, userID: (await api(server, 'GET', 'client/accounts?auth=user', { token: client })).body.data[0].id } })).body.data.id;
    const l4 = await freePort();
    const made = await api(server, 'POST', `user/site/${tcpSite}/ports`, { token: user, body: { ports: [{ port: l4, upstreams: [{ host: '127.0.0.1', port: echo.port }] }] } });
    expect(made.status).toBe(200);
    expect(await until('the port to forward', () => tcpRoundTrip({ port: l4, message: 'hello' }))).toBe('echo:hello');
    await api(server, 'DELETE', `user/site/${tcpSite}/ports`, { token: user, body: { ids: [made.body.data[0].id] } });
    await until('the port to close', async () => ((await tcpRoundTrip({ port: l4, message: 'x' }).then(() => false, () => true)) ? true : undefined));
    await echo.close();
  });

  it('keeps serving when the control plane stops', async () => {
    await server.stop();
    const r = await served('shop.example.test', '/still-here');
    expect(r.status).toBe(200);
    expect(JSON.parse(r.body).url).toBe('/still-here');
    expect(stack.agentOutput()).not.toContain(PASSWORD);
  });
});
