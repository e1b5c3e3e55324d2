import { createServer, request, type IncomingHttpHeaders } from 'node:http';
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
import { freePort } from './test/servers';

const nginx = await nginxForTests('edge tests need nginx with the Lua and stream modules');

const BIG = 300 * 1024;

/** An origin that names the URL and its count of requests, without cache headers, or with `no-store` under /nostore/; a large .bin file. */
const startOrigin = async () => {
  let hits = 0;
  const server = createServer((req, res) => {
    hits++;
    if (req.url?.endsWith('.bin')) return res.end(Buffer.alloc(BIG, 97));
    if (req.url?.startsWith('/nostore/')) res.setHeader('cache-control', 'no-store');
    res.end(`${req.url} ${hits}`);
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  return { port: (server.address() as AddressInfo).port, close: () => new Promise<void>((r) => server.close(() => r())) };
};

const ask = ({ port, host, path }: { port: number; host: string; path: string }) =>
  new Promise<{ status: number; headers: IncomingHttpHeaders; body: string }>((resolve, reject) => {
    const req = request({ host: '127.0.0.1', port, path, headers: { host }, agent: false }, (res) => {
      let body = '';
      res.setEncoding('utf8');
      res.on('data', (c) => (body += c));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers, body }));
    });
    req.once('error', reject);
    req.end();
  });

type Rule = edge.CacheRule;
const types = (values: string[], seconds: number, mode: Rule['mode'] = 'follow'): Rule => ({ type: 'fileTypes', values, seconds, mode });
const urls = (paths: string[], seconds: number, mode: Rule['mode'] = 'follow', host = 'files.example.com'): Rule => ({
  type: 'url',
  values: paths.map((p) => `http://${host}${p}`),
  seconds,
  mode,
});

describe.skipIf(!nginx.ok)("a site's cache rules on a live domain, added, changed and removed without a reload", () => {
  let origin: Awaited<ReturnType<typeof startOrigin>>;
  let prefix: string;
  let stateDir: string;
  let applier: Applier;
  let httpPort: number;
  let revision = 1;

  /**
   * The site `files` (files.example.com) has the rules given; the site `other` keeps rules of 600 s (follow and force)
   * and 0 s, so that the fixed servers have those policies' locations from the start.
   */
  type Extra = { blacklist?: string[]; rateRules?: { url: string; rate: number }[] };
  const stateWith = (cacheRules: Rule[], { blacklist = [], rateRules = [] }: Extra = {}) =>
    edge.desiredState.parse({
      revision: revision++,
      data: { sites: [{ siteId: 1, blacklist, whitelist: [] }] },
      structure: {
        zone: { httpPorts: [httpPort], httpsPorts: [httpPort + 1], nginx: { workerProcesses: 1 } },
        sites: [
          { id: 1, name: 'files', domains: [{ id: 11, name: 'files.example.com', origins: [{ host: '127.0.0.1', port: origin.port }] }], cacheRules, options: { rateRules } },
          {
            id: 2,
            name: 'other',
            domains: [{ id: 21, name: 'other.example.com', origins: [{ host: '127.0.0.1', port: origin.port }] }],
            cacheRules: [types(['gif'], 600), types(['bmp'], 600, 'force'), types(['ico'], 0)],
          },
        ],
      },
    });
  const loads = async () => (await controlStatus({ control: await applier.control() })).loads;
  /** Applies the rules: every domain stays live, and nginx is reloaded only when `reloaded`. */
  const applyLive = async (rules: Rule[], { reloaded = false, ...extra }: Extra & { reloaded?: boolean } = {}) => {
    const state = stateWith(rules, extra);
    expect(splitLive({ state }).structure.sites).toEqual([]);
    expect(await applier.apply(state)).toMatchObject({ ok: true, reloaded });
  };
  /** Asks `host` for `path` twice: the statuses and redirects, the cache status of each answer (undefined: not cached at all) and whether the second came from the cache. */
  const askTwice = async (path: string, host = 'files.example.com') => {
    const [a, b] = [await ask({ port: httpPort, host, path }), await ask({ port: httpPort, host, path })];
    const location = (r: typeof a) => r.headers.location?.replace(host, '<host>');
    return { status: [a.status, b.status, location(a), location(b)], cache: [a.headers['x-cache'], b.headers['x-cache']], same: a.body === b.body };
  };
  const twice = async (path: string) => {
    const { status, ...rest } = await askTwice(path);
    expect(status).toEqual([200, 200, undefined, undefined]);
    return rest;
  };
  const MISS_HIT = { cache: ['MISS', 'HIT'], same: true };
  const NOT_STORED = { cache: ['MISS', 'MISS'], same: false };
  const OFF = { cache: [undefined, undefined], same: false };

  beforeAll(async () => {
    origin = await startOrigin();
    httpPort = await freePort();
    prefix = await mkdtemp(join(tmpdir(), 'ek-live-cache-prefix-'));
    stateDir = await mkdtemp(join(tmpdir(), 'ek-live-cache-state-'));
    applier = createApplier({ prefix, stateDir, controlPort: await freePort() });
    expect(await applier.apply(stateWith([]))).toMatchObject({ ok: true });
  });

  afterAll(async () => {
    if (prefix) await stopNginx({ prefix });
    await origin?.close();
    await Promise.all([prefix, stateDir].map((d) => d && rm(d, { recursive: true, force: true })));
  });

  it('caches by a file-type rule added, follows or ignores the origin as its mode changes, and stops once it is removed', async () => {
    const before = await loads();
    // no rule: an answer without cache headers is not stored
    expect(await twice('/a.png')).toEqual(NOT_STORED);
    await applyLive([types(['png'], 600)]);
    expect(await twice('/b.png')).toEqual(MISS_HIT);
    // follow: the origin's no-store wins; the extension is matched without regard to case
    expect(await twice('/nostore/b.png')).toEqual(NOT_STORED);
    expect(await twice('/B2.PNG')).toEqual(MISS_HIT);
    expect(await twice('/b.css')).toEqual(NOT_STORED);
    await applyLive([types(['png'], 600, 'force')]);
    expect(await twice('/nostore/c.png')).toEqual(MISS_HIT);
    await applyLive([types(['png'], 0)]);
    expect(await twice('/d.png')).toEqual(OFF);
    await applyLive([]);
    expect(await twice('/e.png')).toEqual(NOT_STORED);
    expect(await loads()).toBe(before);
  });

  it("takes the host's longest URL prefix over file types, file types over the rule of /, as nginx's locations would", async () => {
    const before = await loads();
    await applyLive([types(['png'], 600, 'force'), urls(['/live/'], 0), urls(['/live/keep/', '/'], 600, 'force'), types(['txt'], 0)]);
    // a URL prefix wins over the file type, the longest prefix over a shorter one
    expect(await twice('/live/f.png')).toEqual(OFF);
    expect(await twice('/live/keep/f.png')).toEqual(MISS_HIT);
    expect(await twice('/nostore/live/f.png')).toEqual(MISS_HIT);
    // the rule of / applies only where no file type matches
    expect(await twice('/nostore/f.html')).toEqual(MISS_HIT);
    expect(await twice('/f.txt')).toEqual(OFF);
    // another host's prefix is not this domain's
    await applyLive([{ type: 'url', values: ['http://other.example.com/g/'], seconds: 0, mode: 'follow' }, types(['png'], 600)]);
    expect(await twice('/g/g.png')).toEqual(MISS_HIT);
    expect(await loads()).toBe(before);
  });

  it("runs the site's access steps and keeps its rate on a request that a rule sends to its policy's location", async () => {
    await applyLive([types(['png'], 600, 'force')], { blacklist: ['127.0.0.0/8'] });
    const blocked = await ask({ port: httpPort, host: 'files.example.com', path: '/nostore/l.png' });
    expect([blocked.status, blocked.body.includes('blacklist')]).toEqual([929, true]);
    expect((await ask({ port: httpPort, host: 'other.example.com', path: '/l.png' })).status).toBe(200);
    await applyLive([types(['png'], 600, 'force'), types(['bin'], 0)], { rateRules: [{ url: 'http://files.example.com/slow/', rate: 100 }] });
    expect(await twice('/nostore/l.png')).toEqual(MISS_HIT);
    // 300 KB at 100 KB/s: about three seconds
    const started = Date.now();
    const slow = await ask({ port: httpPort, host: 'files.example.com', path: '/slow/l.bin' });
    expect([slow.body.length, slow.headers['x-cache'], Date.now() - started > 2000]).toEqual([BIG, undefined, true]);
  });

  it('answers every path as a server block of its own with the same rules does', async () => {
    const rules = (host: string) => [
      urls(['/r/'], 60, 'follow', host),
      types(['png'], 600, 'force'),
      urls(['/live/'], 0, 'follow', host),
      urls(['/live/keep/', '/'], 600, 'force', host),
      types(['txt'], 0),
      types(['css', 'js'], 60),
    ];
    const state = stateWith(rules('files.example.com'));
    // the twin's domain has a server block of its own: a body size above the zone's is a directive
    const twin = { id: 31, name: 'twin.example.com', origins: [{ host: '127.0.0.1', port: origin.port }] };
    state.structure.sites.push(edge.siteStructure.parse({ id: 3, name: 'twin', options: { clientMaxBodySize: 101 }, domains: [twin], cacheRules: rules('twin.example.com') }));
    expect(splitLive({ state }).structure.sites.map((s) => s.id)).toEqual([3]);
    expect(await applier.apply(state)).toMatchObject({ ok: true, reloaded: true });
    const paths = ['/live', '/live?a=1', '/live/', '/live/p.png', '/live/keep', '/live/keep/p.png?x=1', '/live/keepx.png', '/nostore/p.png', '/nostore/p.html'];
    paths.push('/p.txt', '/P.TXT', '/nostore/p.css', '/nostore/p.JS', '/r', '/r/p.png', '/nostore/r/p.html', '/n.png%0A', '/n.png%0A%0A', '/a.b/c', '/.png');
    for (const path of paths) {
      const [live, rendered] = [await askTwice(path), await askTwice(path, 'twin.example.com')];
      expect({ path, ...live }).toEqual({ path, ...rendered });
    }
  });

  it('reloads for a policy no live domain used before, and keeps its location when the rule goes', async () => {
    const before = (await loads()) ?? 0;
    await applyLive([types(['png'], 30, 'force')], { reloaded: true });
    expect(await loads()).toBe(before + 1);
    expect(await twice('/nostore/h.png')).toEqual(MISS_HIT);
    await applyLive([]);
    await applyLive([types(['png'], 30, 'force')]);
    expect(await twice('/nostore/i.png')).toEqual(MISS_HIT);
    expect(await loads()).toBe(before + 1);
  });

  it('refuses bad cache rules before they reach nginx, and stores nothing by a policy nginx has no location for', async () => {
    const good = luaData({ state: stateWith([types(['png'], 600, 'force')]) });
    const control = await applier.control();
    await pushData({ control, data: good });
    const [entry, ...rest] = good.live ?? [];
    const cache = entry.cache ?? { prefixes: [], fileTypes: [], root: null };
    const bad = (change: object, digest: string) => ({ ...good, liveDigest: digest, live: [{ ...entry, cache: { ...cache, ...change } }, ...rest] });
    await expect(pushData({ control, data: bad({ root: '600; x' }, 'bad-root') })).rejects.toThrow(/400.*files\.example\.com: a cache rule of \//);
    await expect(pushData({ control, data: bad({ prefixes: [{ path: 'x/', policy: 'off' }] }, 'bad-prefix') })).rejects.toThrow(/400.*files\.example\.com: a cache rule's prefix/);
    await expect(pushData({ control, data: bad({ fileTypes: [{ extensions: ['P|G'], policy: 'off' }] }, 'bad-type') })).rejects.toThrow(/400.*files\.example\.com: a cache rule's file types/);
    // a policy this configuration has no location for (data pushed before the reload that renders it): served, not stored
    await pushData({ control, data: bad({ fileTypes: [{ extensions: ['png'], policy: '77_force' }] }, 'undeclared') });
    expect(await twice('/nostore/j.png')).toEqual(NOT_STORED);
    await pushData({ control, data: good });
    expect(await twice('/nostore/k.png')).toEqual(MISS_HIT);
  });
});
