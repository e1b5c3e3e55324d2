import { edge } from '@edgekeep/contract';
import { request as httpsRequest } from 'node:https';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { controlStatus, pushData } from './control/client';
import { luaData } from './render';
import { loggedLine } from './test/access-log';
import { detectNginx, startEdge } from './test/nginx-harness';
import { send } from './test/requests';
import { freePort, get as tlsGet, startOrigin } from './test/servers';
import { selfSignedCertificate } from './test/certificates';

const nginx = await detectNginx();
if (!nginx.ok && process.env.CI === 'true') throw new Error(`edge tests need nginx with Lua: ${nginx.reason}`);

/** The client's system settings the edge enforces (ray ids, restricted subnets) and its 903 and 929 pages. */
describe.skipIf(!nginx.ok)('system settings and error pages at the edge', () => {
  let origin: Awaited<ReturnType<typeof startOrigin>>;
  let node: Awaited<ReturnType<typeof startEdge>>;
  let httpPort: number;
  let httpsPort: number;
  let cert: { chain: string; key: string };

  const state = (zone: object = {}) =>
    edge.desiredState.parse({
      revision: 1,
      structure: {
        zone: { httpPorts: [httpPort], httpsPorts: [httpsPort], nginx: { workerProcesses: 1 } },
        sites: [
          { id: 1, name: 'shop', domains: [{ id: 11, name: 'shop.example.com', certificateId: 5, origins: [{ host: '127.0.0.1', port: origin.port }] }] },
          {
            id: 2,
            name: 'blog',
            domains: [{ id: 21, name: 'blog.example.com', origins: [{ host: '127.0.0.1', port: origin.port }] }],
            errorPages: [{ status: 929, type: 'content', body: '<h1>The blog says no</h1>' }],
          },
        ],
      },
      data: { zone, certificates: [{ id: 5, ...cert }] },
    });
  const push = (zone: object, sites: object[] = []) => pushData({ control: node.control, data: { ...luaData({ state: state(zone) }), sites: sites as edge.SiteData[] } });
  const get = (host: string, path = '/') => send({ port: httpPort, host, path });
  /** HTTPS to the node's address: no SNI name, the Host an address; the node's default certificate is not checked. */
  const bareHttps = () =>
    new Promise<{ status: number; body: string }>((resolve, reject) => {
      const req = httpsRequest({ host: '127.0.0.1', port: httpsPort, path: '/bare-tls', rejectUnauthorized: false, agent: false }, (res) => {
        let body = '';
        res.setEncoding('utf8');
        res.on('data', (c) => (body += c));
        res.on('end', () => resolve({ status: res.statusCode ?? 0, body }));
      });
      req.once('error', reject);
      req.end();
    });
  const loads = async () => (await controlStatus({ control: node.control })).loads;

  beforeAll(async () => {
    origin = await startOrigin({ name: 'origin' });
    cert = await selfSignedCertificate({ host: 'shop.example.com' });
    [httpPort, httpsPort] = [await freePort(), await freePort()];
    node = await startEdge({ state: state(), controlPort: await freePort() });
  });
  afterAll(async () => {
    await node?.stop();
    await origin?.close();
  });

  it('sends the ray id of the chosen parts on every response and writes it to the access line, without a reload', async () => {
    const before = await loads();
    await push({ ray: { parts: ['node', 'site', 'time'], node: 7 } });
    const res = await get('shop.example.com', '/ray-full');
    expect(res.status).toBe(200);
    const ray = String(res.headers['x-ray-id']);
    expect(ray).toMatch(/^[0-9a-f]{32}-n7-s1-\d{10}$/);
    expect(Math.abs(Number(ray.split('-')[3]) - Date.now() / 1000)).toBeLessThan(60);
    const line = await loggedLine({ prefix: node.prefix, uri: '/ray-full' });
    expect(line.ray).toBe(ray);
    expect(ray.startsWith(line.requestId)).toBe(true);

    await push({ ray: { parts: [], node: 7 } });
    expect(String((await get('shop.example.com')).headers['x-ray-id'])).toMatch(/^[0-9a-f]{32}$/);
    expect(await loads()).toBe(before);
  });

  it('shows the ray id on the block pages, and the node part on a request no site serves', async () => {
    await push({ ray: { parts: ['node'], node: 3 } }, [{ siteId: 1, blacklist: ['127.0.0.1'], whitelist: [] }]);
    const denied = await get('shop.example.com');
    expect(denied.status).toBe(929);
    expect(denied.headers['x-ray-id']).toMatch(/^[0-9a-f]{32}-n3$/);
    expect(denied.body).toContain(`<dd>${denied.headers['x-ray-id']}</dd>`);
    expect(denied.body).toContain('Ray ID');
    expect((await get('nobody.example.net')).headers['x-ray-id']).toMatch(/-n3$/);
    await push({});
  });

  it("refuses the zone owner's restricted subnets with 929 on every site, whitelist or not, and lifts them without a reload", async () => {
    const before = await loads();
    const whitelisted = [{ siteId: 1, blacklist: [], whitelist: ['127.0.0.1'] }];
    await push({ restricted: ['10.0.0.0/8', '127.0.0.0/8'] }, whitelisted);
    const shop = await get('shop.example.com', '/restricted');
    expect(shop.status).toBe(929);
    expect(shop.body).toContain('Access denied');
    expect(await loggedLine({ prefix: node.prefix, uri: '/restricted' })).toMatchObject({ status: '929', blockCause: 'restricted', blockAction: 'deny' });
    // The firewall switch leaves the restriction on.
    await push({ restricted: ['127.0.0.0/8'], firewall: false });
    expect((await get('shop.example.com')).status).toBe(929);

    await push({ restricted: ['10.0.0.0/8', '2001:db8::/32'] }, whitelisted);
    expect((await get('shop.example.com')).status).toBe(200);
    expect((await get('blog.example.com')).status).toBe(200);
    expect(await loads()).toBe(before);
  });

  it("answers a site's own 929 page of the error settings for any deny, the product's page elsewhere", async () => {
    await push({ restricted: ['127.0.0.1/32'] });
    const blog = await get('blog.example.com');
    expect(blog.status).toBe(929);
    expect(blog.body).toBe('<h1>The blog says no</h1>');
    expect(blog.headers['x-ray-id']).toMatch(/^[0-9a-f]{32}/);
    await push({}, [{ siteId: 2, blacklist: ['127.0.0.1'], whitelist: [] }]);
    expect((await get('blog.example.com')).body).toBe('<h1>The blog says no</h1>');
    expect((await get('shop.example.com')).status).toBe(200);
    await push({});
  });

  it("answers the node reached by its bare address with 903: the product's page, else the owner's page or redirect", async () => {
    const before = await loads();
    const bare = () => get('127.0.0.1', '/bare');
    const product = await bare();
    expect(product.status).toBe(903);
    expect(product.body).toContain('No site here');
    expect(await loggedLine({ prefix: node.prefix, uri: '/bare' })).toMatchObject({ status: '903', blockCause: 'no-domain', blockAction: 'page' });

    await push({ noDomainPage: { status: 903, type: 'content', body: '<p>Edge node of Example CDN</p>' } });
    const own = await bare();
    expect([own.status, own.body]).toEqual([903, '<p>Edge node of Example CDN</p>']);
    await push({ noDomainPage: { status: 903, type: 'redirect', body: 'https://www.example.com/cdn' } });
    const moved = await bare();
    expect([moved.status, moved.headers.location]).toEqual([302, 'https://www.example.com/cdn']);
    await push({ noDomainPage: { status: 903, type: 'js', body: 'location.href="/"' } });
    expect((await bare()).body).toContain('<script>location.href="/"</script>');
    expect(await loads()).toBe(before);
  });

  it('answers 903 over HTTPS too when the node is reached by its address, never a site of its HTTPS port', async () => {
    await push({});
    const bareTls = await bareHttps();
    expect(bareTls.status).toBe(903);
    expect(bareTls.body).toContain('No site here');
    const shop = await tlsGet({ port: httpsPort, host: 'shop.example.com', ca: cert.chain });
    expect([shop.status, JSON.parse(shop.body).origin]).toEqual([200, 'origin']);
  });
});
