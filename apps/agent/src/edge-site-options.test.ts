import { createServer, request, type IncomingHttpHeaders } from 'node:http';
import { request as httpsRequest } from 'node:https';
import type { AddressInfo } from 'node:net';
import { edge } from '@edgekeep/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { warmUrls } from './commands/warm-cache';
import { purgeCache } from './control/client';
import { selfSignedCertificate } from './test/certificates';
import { nginxForTests, startEdge } from './test/nginx-harness';
import { freePort } from './test/servers';

const nginx = await nginxForTests('edge tests need nginx with the Lua and stream modules');

const BIG = 300 * 1024;

/** An origin with a large file, a PNG that has a WebP variant for clients that accept it, and an upload sink. */
const startOrigin = async () => {
  const hits: string[] = [];
  const server = createServer((req, res) => {
    hits.push(req.url ?? '');
    if (req.url?.startsWith('/upload')) {
      let n = 0;
      req.on('data', (c: Buffer) => (n += c.length));
      req.on('end', () => res.end(`received ${n}`));
      return;
    }
    if (req.url?.includes('.bin')) return res.end(Buffer.alloc(BIG, 97));
    if (req.url?.startsWith('/img/')) {
      const webp = String(req.headers.accept ?? '').includes('image/webp');
      res.setHeader('content-type', webp ? 'image/webp' : 'image/png');
      return res.end(webp ? 'webp-variant' : 'png-original');
    }
    res.end(`page ${req.url}`);
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  return { port: (server.address() as AddressInfo).port, hits, close: () => new Promise<void>((r) => server.close(() => r())) };
};

type Answer = { status: number; headers: IncomingHttpHeaders; body: string; ms: number };
type Ask = { port: number; host: string; path?: string; method?: string; headers?: Record<string, string>; body?: Buffer; ca?: string };
const ask = ({ port, host, path = '/', method = 'GET', headers = {}, body, ca }: Ask) =>
  new Promise<Answer>((resolve, reject) => {
    const started = Date.now();
    const options = { host: '127.0.0.1', port, path, method, headers: { host, ...headers }, agent: false as const };
    const req = (ca ? httpsRequest : request)({ ...options, ...(ca ? { servername: host, ca } : {}) }, (res) => {
      let text = '';
      res.setEncoding('utf8');
      res.on('data', (c) => (text += c));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers, body: text, ms: Date.now() - started }));
    });
    req.setTimeout(20_000, () => req.destroy(new Error('timeout')));
    req.once('error', reject);
    req.end(body);
  });

describe.skipIf(!nginx.ok)('site options on a real edge', () => {
  let origin: Awaited<ReturnType<typeof startOrigin>>;
  let node: Awaited<ReturnType<typeof startEdge>>;
  let cert: { chain: string; key: string };
  let [httpPort, otherHttpPort, httpsPort] = [0, 0, 0];
  const shop = (o: Omit<Ask, 'port' | 'host'> & { port?: number } = {}) => ask({ port: httpPort, host: 'shop.example.com', ...o });

  beforeAll(async () => {
    origin = await startOrigin();
    cert = await selfSignedCertificate({ host: 'shop.example.com' });
    [httpPort, otherHttpPort, httpsPort] = [await freePort(), await freePort(), await freePort()];
    const state = edge.desiredState.parse({
      revision: 1,
      structure: {
        zone: { httpPorts: [httpPort, otherHttpPort], httpsPorts: [httpsPort], nginx: { workerProcesses: 1 } },
        sites: [
          {
            id: 1,
            name: 'shop',
            // served from pushed data, as the options of edge-live-settings.test.ts are; the open site's body size (none,
            // where the zone has one) keeps it on a server block of its own
            domains: [{ id: 11, name: 'shop.example.com', certificateId: 5, origins: [{ host: '127.0.0.1', port: origin.port }] }],
            cacheRules: [{ type: 'fileTypes', values: ['png'], seconds: 600, mode: 'force' }],
            options: {
              hsts: { enabled: true, maxAge: 600, includeSubDomains: true },
              clientMaxBodySize: 1,
              webp: true,
              rateRules: [{ url: 'http://shop.example.com/downloads/', rate: 100 }],
              cache: { ignoreQuery: true },
              httpPorts: [httpPort],
            },
          },
          { id: 2, name: 'open', domains: [{ id: 21, name: 'open.example.com', origins: [{ host: '127.0.0.1', port: origin.port }] }], options: { clientMaxBodySize: 0 } },
        ],
      },
      data: { certificates: [{ id: 5, ...cert }] },
    });
    node = await startEdge({ state, controlPort: await freePort() });
  });

  afterAll(async () => {
    await node?.stop();
    await origin?.close();
  });

  it('sends answers under a rate rule no faster than its K/s, and others at full speed', async () => {
    const limited = await shop({ path: '/downloads/big.bin' });
    const free = await shop({ path: '/files/big.bin' });
    expect(limited.body.length).toBe(BIG);
    expect(free.body.length).toBe(BIG);
    // 300 KB at 100 KB/s: about three seconds.
    expect(limited.ms).toBeGreaterThan(2000);
    expect(free.ms).toBeLessThan(1000);
  });

  it('sends HSTS with its parameters on HTTPS answers only', async () => {
    const secure = await shop({ port: httpsPort, path: '/cart', ca: cert.chain });
    expect(secure.status).toBe(200);
    expect(secure.headers['strict-transport-security']).toBe('max-age=600; includeSubDomains');
    const plain = await shop({ path: '/cart' });
    expect(plain.status).toBe(200);
    expect(plain.headers['strict-transport-security']).toBeUndefined();
  });

  it('answers 413 to a body over the site limit, and lets any size through where the check is off', async () => {
    const big = Buffer.alloc(2 * 1024 * 1024, 1);
    expect((await shop({ method: 'POST', path: '/upload', body: big })).status).toBe(413);
    const small = await shop({ method: 'POST', path: '/upload', body: Buffer.alloc(500 * 1024, 1) });
    expect(small.body).toBe(`received ${500 * 1024}`);
    const open = await ask({ port: httpPort, host: 'open.example.com', method: 'POST', path: '/upload', body: big });
    expect(open.body).toBe(`received ${big.length}`);
  });

  it("listens only on the zone's ports the site chose", async () => {
    expect((await shop({ path: '/cart' })).status).toBe(200);
    expect((await shop({ port: otherHttpPort, path: '/cart' })).status).toBe(903);
    expect((await ask({ port: otherHttpPort, host: 'open.example.com', path: '/cart' })).status).toBe(200);
  });

  it("caches an image's WebP variant apart for clients that accept WebP, keyed on the path only", async () => {
    const webp = { accept: 'image/avif,image/webp,*/*' };
    const first = await shop({ path: '/img/a.png?v=1', headers: webp });
    expect(first).toMatchObject({ body: 'webp-variant', headers: { 'x-cache': 'MISS', vary: 'Accept' } });
    expect(await shop({ path: '/img/a.png?v=2', headers: webp })).toMatchObject({ body: 'webp-variant', headers: { 'x-cache': 'HIT' } });
    expect(await shop({ path: '/img/a.png?v=1' })).toMatchObject({ body: 'png-original', headers: { 'x-cache': 'MISS' } });
    expect(await shop({ path: '/img/a.png' })).toMatchObject({ body: 'png-original', headers: { 'x-cache': 'HIT' } });
  });

  it('purges every cached variant under a URL prefix, and leaves other paths cached', async () => {
    await shop({ path: '/img/b.png', headers: { accept: 'image/webp' } });
    await shop({ path: '/img/b.png' });
    await shop({ path: '/other/c.png' });
    expect((await shop({ path: '/other/c.png' })).headers['x-cache']).toBe('HIT');
    const { removed } = await purgeCache({ control: node.control, urls: [], prefixes: ['https://shop.example.com/img/'] });
    expect(removed).toBe(4);
    expect((await shop({ path: '/img/a.png', headers: { accept: 'image/webp' } })).headers['x-cache']).toBe('MISS');
    expect((await shop({ path: '/img/b.png' })).headers['x-cache']).toBe('MISS');
    expect((await shop({ path: '/other/c.png' })).headers['x-cache']).toBe('HIT');
  });

  it('purges the files of some extensions of some hosts', async () => {
    await shop({ path: '/other/page.html' });
    const { removed } = await purgeCache({ control: node.control, hosts: ['shop.example.com'], extensions: ['png'] });
    expect(removed).toBeGreaterThan(0);
    expect((await shop({ path: '/other/c.png' })).headers['x-cache']).toBe('MISS');
  });

  it('warms the cache: URLs fetched through the node are HITs for the next client', async () => {
    const urls = ['http://shop.example.com/warm/x.png', 'https://shop.example.com/warm/y.png'];
    const before = origin.hits.length;
    const results = await warmUrls({ urls, httpPort, httpsPort });
    expect(results.map((r) => r.ok)).toEqual([true, true]);
    expect(origin.hits.length).toBe(before + 2);
    expect((await shop({ path: '/warm/x.png' })).headers['x-cache']).toBe('HIT');
    expect((await shop({ port: httpsPort, path: '/warm/y.png', ca: cert.chain })).headers['x-cache']).toBe('HIT');
    expect(origin.hits.length).toBe(before + 2);
  });
});
