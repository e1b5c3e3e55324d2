import { createServer, request, type IncomingHttpHeaders } from 'node:http';
import type { AddressInfo } from 'node:net';
import { chmod, mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { edge } from '@edgekeep/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { stopNginx } from './apply/process';
import { controlStatus, purgeCache, pushData } from './control/client';
import { luaData, splitLive } from './render';
import { createApplier, type Applier } from './sync/applier';
import { cachedKeys } from './test/cache-files';
import { nginxForTests } from './test/nginx-harness';
import { freePort } from './test/servers';

const nginx = await nginxForTests('edge tests need nginx with the Lua and stream modules');

const BIG = 300 * 1024;
const MB = 1024 * 1024;

/** An origin with a large file, cacheable pages (naming the URL it got and a count), images with a WebP variant and an upload sink. */
const startOrigin = async () => {
  let hits = 0;
  const server = createServer((req, res) => {
    hits++;
    if (req.url?.startsWith('/upload')) {
      let n = 0;
      req.on('data', (c: Buffer) => (n += c.length));
      req.on('end', () => res.end(`received ${n}`));
      return;
    }
    if (req.url?.endsWith('.bin')) return res.end(Buffer.alloc(BIG, 97));
    res.setHeader('cache-control', 'max-age=600');
    if (req.url?.startsWith('/img/')) return res.end(String(req.headers.accept ?? '').includes('image/webp') ? 'webp-variant' : 'png-original');
    res.end(`page ${req.url} ${hits}`);
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  return { port: (server.address() as AddressInfo).port, close: () => new Promise<void>((r) => server.close(() => r())) };
};

type Answer = { status: number; headers: IncomingHttpHeaders; body: string; ms: number };
/**
 * One request; `upload` bytes go as the body, with a Content-Length or, `chunked`, in 64 KiB chunks. An answer
 * that comes before the whole body was sent (nginx refusing it) is the answer.
 */
type Ask = { port: number; host: string; path: string; upload?: number; chunked?: boolean; accept?: string };
const ask = ({ port, host, path, upload, chunked, accept }: Ask) =>
  new Promise<Answer>((resolve, reject) => {
    const started = Date.now();
    const headers: Record<string, string> = { host, ...(accept ? { accept } : {}) };
    if (upload !== undefined) headers[chunked ? 'transfer-encoding' : 'content-length'] = chunked ? 'chunked' : String(upload);
    const req = request({ host: '127.0.0.1', port, path, method: upload === undefined ? 'GET' : 'POST', headers, agent: false }, (res) => {
      let text = '';
      res.setEncoding('utf8');
      res.on('data', (c) => (text += c));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers, body: text, ms: Date.now() - started }));
      res.on('error', () => resolve({ status: res.statusCode ?? 0, headers: res.headers, body: text, ms: Date.now() - started }));
    });
    req.setTimeout(20_000, () => req.destroy(new Error('timeout')));
    req.once('error', reject);
    if (upload === undefined) return void req.end();
    const chunk = Buffer.alloc(64 * 1024, 1);
    let left = upload;
    const more = () => {
      while (left > 0) {
        const piece = chunk.subarray(0, Math.min(left, chunk.length));
        left -= piece.length;
        if (!req.write(piece)) return void req.once('drain', more);
      }
      req.end();
    };
    more();
  });

describe.skipIf(!nginx.ok)("a site's rate rules, body size, cache settings and webp on a live domain, changed without a reload", () => {
  let origin: Awaited<ReturnType<typeof startOrigin>>;
  let prefix: string;
  let stateDir: string;
  let applier: Applier;
  let httpPort: number;
  let cacheBase: string;
  let revision = 1;

  /** The zone holds every body to 4 MB; the site `files` has the options given, its domains (files.example.com and `more`) served from data. */
  const stateWith = (options: object = {}, more: string[] = []) =>
    edge.desiredState.parse({
      revision: revision++,
      structure: {
        zone: { httpPorts: [httpPort], httpsPorts: [httpPort + 1], nginx: { workerProcesses: 1, clientMaxBodySize: 4 } },
        sites: [
          {
            id: 1,
            name: 'files',
            domains: ['files.example.com', ...more].map((name, i) => ({ id: 11 + i, name, origins: [{ host: '127.0.0.1', port: origin.port }] })),
            options,
          },
          { id: 2, name: 'open', domains: [{ id: 21, name: 'open.example.com', origins: [{ host: '127.0.0.1', port: origin.port }] }] },
        ],
      },
    });
  /** Applies the state: every domain stays live, and nginx is not reloaded (unless `reloaded`). */
  const applyLive = async (state: edge.DesiredState, { reloaded = false } = {}) => {
    expect(splitLive({ state }).structure.sites).toEqual([]);
    expect(await applier.apply(state)).toMatchObject({ ok: true, reloaded });
  };
  const loads = async () => (await controlStatus({ control: await applier.control() })).loads;
  const files = (o: Omit<Ask, 'port' | 'host'>) => ask({ port: httpPort, host: 'files.example.com', ...o });

  beforeAll(async () => {
    origin = await startOrigin();
    httpPort = await freePort();
    prefix = await mkdtemp(join(tmpdir(), 'ek-live-settings-prefix-'));
    stateDir = await mkdtemp(join(tmpdir(), 'ek-live-settings-state-'));
    cacheBase = await mkdtemp(join(tmpdir(), 'ek-live-settings-cache-'));
    // the unprivileged workers must reach the directory, as they reach /var/cache/nginx
    await chmod(cacheBase, 0o755);
    applier = createApplier({ prefix, stateDir, controlPort: await freePort() });
    expect(await applier.apply(stateWith())).toMatchObject({ ok: true });
  });

  afterAll(async () => {
    if (prefix) await stopNginx({ prefix });
    await origin?.close();
    await Promise.all([prefix, stateDir, cacheBase].map((d) => d && rm(d, { recursive: true, force: true })));
  });

  it('sends answers under a rate rule no faster than its K/s, others at full speed, and all at full speed once it is gone', async () => {
    const before = await loads();
    expect((await files({ path: '/dl/a.bin' })).ms).toBeLessThan(1000);
    await applyLive(stateWith({ rateRules: [{ url: 'http://files.example.com/dl/', rate: 100 }, { url: 'https://files.example.com/dl/fast/', rate: 10_000 }] }));
    const [limited, longer, free] = [await files({ path: '/dl/a.bin' }), await files({ path: '/dl/fast/a.bin' }), await files({ path: '/other/a.bin' })];
    expect([limited.body.length, longer.body.length, free.body.length]).toEqual([BIG, BIG, BIG]);
    // 300 KB at 100 KB/s: about three seconds; the longer prefix's rule wins over the shorter one
    expect(limited.ms).toBeGreaterThan(2000);
    expect(longer.ms).toBeLessThan(1000);
    expect(free.ms).toBeLessThan(1000);
    await applyLive(stateWith());
    expect((await files({ path: '/dl/a.bin' })).ms).toBeLessThan(1000);
    expect(await loads()).toBe(before);
  });

  it("refuses a body over the site's limit with 413, by its length or once a chunked one is read, and one over the zone's anywhere", async () => {
    const before = await loads();
    expect(await files({ path: '/upload', upload: 2 * MB })).toMatchObject({ status: 200, body: `received ${2 * MB}` });
    await applyLive(stateWith({ clientMaxBodySize: 1 }));
    expect((await files({ path: '/upload', upload: 2 * MB })).status).toBe(413);
    expect((await files({ path: '/upload', upload: 2 * MB, chunked: true })).status).toBe(413);
    expect(await files({ path: '/upload', upload: 500 * 1024 })).toMatchObject({ status: 200, body: `received ${500 * 1024}` });
    expect(await files({ path: '/upload', upload: 500 * 1024, chunked: true })).toMatchObject({ status: 200, body: `received ${500 * 1024}` });
    // the other site keeps the zone's 4 MB, which nginx holds a chunked body to while it reads it
    const open = (o: { upload: number; chunked?: boolean }) => ask({ port: httpPort, host: 'open.example.com', path: '/upload', ...o });
    expect(await open({ upload: 2 * MB, chunked: true })).toMatchObject({ status: 200, body: `received ${2 * MB}` });
    expect((await open({ upload: 5 * MB })).status).toBe(413);
    expect((await open({ upload: 5 * MB, chunked: true })).status).toBe(413);
    await applyLive(stateWith());
    expect(await files({ path: '/upload', upload: 2 * MB, chunked: true })).toMatchObject({ status: 200, body: `received ${2 * MB}` });
    expect(await loads()).toBe(before);
  });

  it('caches on the path alone for a site that leaves the query out of the key, and on the whole URL again without it', async () => {
    const before = await loads();
    await applyLive(stateWith({ cache: { ignoreQuery: true } }));
    const first = await files({ path: '/c.css?v=1' });
    expect(first.headers['x-cache']).toBe('MISS');
    expect(await files({ path: '/c.css?v=2' })).toMatchObject({ body: first.body, headers: { 'x-cache': 'HIT' } });
    await applyLive(stateWith());
    expect((await files({ path: '/c.css?v=2' })).headers['x-cache']).toBe('MISS');
    expect((await files({ path: '/c.css?v=2' })).headers['x-cache']).toBe('HIT');
    expect((await files({ path: '/c.css?v=3' })).headers['x-cache']).toBe('MISS');
    expect(await loads()).toBe(before);
  });

  it("caches an image's WebP variant apart for clients that accept WebP, varying on Accept, and one copy again without webp", async () => {
    const before = await loads();
    const webp = 'image/avif,image/webp,*/*';
    await applyLive(stateWith({ webp: true }));
    expect(await files({ path: '/img/a.png?v=1', accept: webp })).toMatchObject({ body: 'webp-variant', headers: { 'x-cache': 'MISS', vary: 'Accept' } });
    expect(await files({ path: '/img/a.png?v=1', accept: webp })).toMatchObject({ body: 'webp-variant', headers: { 'x-cache': 'HIT' } });
    expect(await files({ path: '/img/a.png?v=1' })).toMatchObject({ body: 'png-original', headers: { 'x-cache': 'MISS', vary: 'Accept' } });
    expect(await files({ path: '/img/a.png?v=1' })).toMatchObject({ body: 'png-original', headers: { 'x-cache': 'HIT' } });
    expect((await files({ path: '/img/a.css' })).headers.vary).toBeUndefined();
    await applyLive(stateWith());
    const plain = await files({ path: '/img/a.png?v=1', accept: webp });
    expect(plain).toMatchObject({ body: 'png-original', headers: { 'x-cache': 'HIT' } });
    expect(plain.headers.vary).toBeUndefined();
    expect(await loads()).toBe(before);
  });

  it("keeps a site's answers in its own directory: the reload declares its cache zone, its domains stay live, and one added there caches there with no reload", async () => {
    const own = join(cacheBase, 'files');
    const sharedKeys = () => cachedKeys(join(prefix, 'cache'));
    const before = (await loads()) ?? 0;
    await applyLive(stateWith({ cache: { directory: own } }), { reloaded: true });
    expect(await loads()).toBe(before + 1);
    expect((await files({ path: '/own/a.css' })).headers['x-cache']).toBe('MISS');
    expect((await files({ path: '/own/a.css' })).headers['x-cache']).toBe('HIT');
    expect((await ask({ port: httpPort, host: 'open.example.com', path: '/own/b.css' })).headers['x-cache']).toBe('MISS');
    await applyLive(stateWith({ cache: { directory: own } }, ['more.example.com']));
    expect((await ask({ port: httpPort, host: 'more.example.com', path: '/own/c.css' })).headers['x-cache']).toBe('MISS');
    expect(await loads()).toBe(before + 1);
    expect(await cachedKeys(own)).toEqual(['http://files.example.com/own/a.css', 'http://more.example.com/own/c.css']);
    expect((await sharedKeys()).filter((k) => k?.includes('/own/'))).toEqual(['http://open.example.com/own/b.css']);
    // the purge runtime knows the directory of a site whose domains are all live
    expect(await purgeCache({ control: await applier.control(), urls: ['http://files.example.com/own/a.css'] })).toEqual({ removed: 1 });
    expect(await cachedKeys(own)).toEqual(['http://more.example.com/own/c.css']);
    // back to the shared cache: the zone goes with a reload
    await applyLive(stateWith(), { reloaded: true });
    expect((await files({ path: '/own/d.css' })).headers['x-cache']).toBe('MISS');
    expect(await sharedKeys()).toContain('http://files.example.com/own/d.css');
  });

  it('refuses a bad rate rule, body limit or cache key or zone before it reaches nginx, keeps serving the last good data, and caches nothing in a zone nginx does not declare', async () => {
    const good = luaData({ state: stateWith({ rateRules: [{ url: 'http://files.example.com/dl/', rate: 100 }] }) });
    const control = await applier.control();
    await pushData({ control, data: good });
    const [entry, ...rest] = good.live ?? [];
    const bad = (change: object, digest: string) => ({ ...good, liveDigest: digest, live: [{ ...entry, ...change }, ...rest] });
    await expect(pushData({ control, data: bad({ rates: [{ prefix: 'files.example.com/', rate: 0 }] }, 'bad-rate') })).rejects.toThrow(/400.*files\.example\.com: a rate rule/);
    await expect(pushData({ control, data: bad({ bodyLimit: -1 }, 'bad-body') })).rejects.toThrow(/400.*files\.example\.com: body limit/);
    await expect(pushData({ control, data: bad({ cacheIgnoreQuery: 'yes' }, 'bad-key') })).rejects.toThrow(/400.*files\.example\.com: body limit or cache key/);
    await expect(pushData({ control, data: bad({ cacheZone: 'ek_cache; x' }, 'bad-zone') })).rejects.toThrow(/400.*files\.example\.com: cache zone/);
    // a zone this configuration does not declare (data pushed before the reload that declares it): served, not cached
    await pushData({ control, data: bad({ cacheZone: 'ek_s99' }, 'undeclared-zone') });
    expect(await files({ path: '/undeclared.css' })).toMatchObject({ status: 200, headers: { 'x-cache': 'MISS' } });
    expect(await files({ path: '/undeclared.css' })).toMatchObject({ status: 200, headers: { 'x-cache': 'MISS' } });
    await pushData({ control, data: good });
    const limited = await files({ path: '/dl/b.bin' });
    expect(limited.body.length).toBe(BIG);
    expect(limited.ms).toBeGreaterThan(2000);
  });
});
