import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { detectNginx } from '../apps/agent/src/test/nginx-harness';
import { get } from '../apps/agent/src/test/servers';
import { api } from './harness';
import { startEdgeStack, type EdgeStack } from './edge-stack';
import { until } from './tenants';

const nginx = await detectNginx();
if (!nginx.ok && process.env.CI === 'true') throw new Error(`edge end-to-end needs nginx with the Lua module: ${nginx.reason}`);
const PASSWORD = 'edge system settings e2e password';

describe.skipIf(!nginx.ok)("a client's system settings and error pages take effect on a real node", () => {
  let stack: EdgeStack;
  let server: EdgeStack['server'];
  let httpPort: number;
  let client: string;
  let ids: EdgeStack['ids'];
  const HOST = 'shop.settings.test';
  const served = (host = HOST) => get({ port: httpPort, host, path: '/' });
  /** The node's answer once `done` says it took the change. */
  const once = (what: string, done: (a: Awaited<ReturnType<typeof served>>) => boolean, host = HOST) =>
    until(what, async () => {
      const a = await served(host);
      return done(a) ? a : undefined;
    });

  beforeAll(async () => {
    stack = await startEdgeStack({ password: PASSWORD, originName: 'settings-origin' });
    ({ server, httpPort, client, ids } = stack);
    await api(server, 'POST', `user/site/${ids.site}/domains`, { token: stack.user, body: { domains: HOST, upstreams: [{ host: '127.0.0.1', port: stack.origin.port }] } });
    await once('the domain to be served', (a) => a.status === 200);
  }, 180_000);

  afterAll(() => stack?.stop());

  it('puts the ray id of the parts the client chose on every answer', async () => {
    expect(String((await served()).headers['x-ray-id'])).toMatch(new RegExp(`^[0-9a-f]{32}-n${ids.node}$`));
    expect((await api(server, 'PUT', 'setting/system/CDNRayLog', { token: client, body: { logParts: ['site', 'node'] } })).status).toBe(200);
    const answer = await once('the new ray parts', (a) => String(a.headers['x-ray-id']).endsWith(`-s${ids.site}`));
    expect(answer.headers['x-ray-id']).toMatch(new RegExp(`^[0-9a-f]{32}-n${ids.node}-s${ids.site}$`));
  });

  it("refuses the client's restricted subnets with its own 929 page, and serves them again once lifted", async () => {
    const page = await api(server, 'POST', 'client/setting/errorPage', { token: client, body: { status: 929, type: 'content', body: '<h1>Refused by ops</h1>' } });
    expect(page.status).toBe(200);
    expect((await api(server, 'PUT', 'setting/system/restrictGroupCIDRs', { token: client, body: { cidrs: ['127.0.0.0/8'] } })).status).toBe(200);
    const refused = await once('the restriction', (a) => a.status === 929);
    expect(refused.body).toBe('<h1>Refused by ops</h1>');
    expect((await api(server, 'PUT', 'setting/system/restrictGroupCIDRs', { token: client, body: { cidrs: ['192.0.2.0/24'] } })).status).toBe(200);
    await once('the restriction to be lifted', (a) => a.status === 200);
  });

  it("answers the node's bare address with 903: the product's page, then the client's", async () => {
    const bare = await served('127.0.0.1');
    expect([bare.status, bare.body.includes('No site here')]).toEqual([903, true]);
    expect((await api(server, 'POST', 'client/setting/errorPage', { token: client, body: { status: 903, type: 'content', body: '<p>An ops edge node</p>' } })).status).toBe(200);
    const own = await once("the client's 903 page", (a) => a.body === '<p>An ops edge node</p>', '127.0.0.1');
    expect(own.status).toBe(903);
  });
});
