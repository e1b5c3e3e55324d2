import { createServer, request, type IncomingHttpHeaders } from 'node:http';
import type { AddressInfo } from 'node:net';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { gunzipSync } from 'node:zlib';
import { edge } from '@edgekeep/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { stopNginx } from './apply/process';
import { controlStatus, pushData } from './control/client';
import { luaData, splitLive } from './render';
import { createApplier, type Applier } from './sync/applier';
import { nginxForTests } from './test/nginx-harness';
import { freePort } from './test/servers';

const nginx = await nginxForTests('edge tests need nginx with the Lua and stream modules');

const TEXT = 'compressible text '.repeat(100);

/** An origin of cacheable text pages that keeps the Accept-Encoding of each request it gets. */
const startOrigin = async () => {
  const encodings: (string | undefined)[] = [];
  const server = createServer((req, res) => {
    encodings.push(req.headers['accept-encoding']);
    res.setHeader('content-type', 'text/plain');
    res.setHeader('cache-control', 'max-age=600');
    res.end(TEXT);
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  return { port: (server.address() as AddressInfo).port, encodings, close: () => new Promise<void>((r) => server.close(() => r())) };
};

type Answer = { status: number; headers: IncomingHttpHeaders; body: string };
/** One GET; a gzip answer's body is given unzipped. */
const ask = ({ port, host, path, encoding }: { port: number; host: string; path: string; encoding?: string }) =>
  new Promise<Answer>((resolve, reject) => {
    const headers = { host, ...(encoding ? { 'accept-encoding': encoding } : {}) };
    const req = request({ host: '127.0.0.1', port, path, headers, agent: false }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (c: Buffer) => chunks.push(c));
      res.on('end', () => {
        const raw = Buffer.concat(chunks);
        const body = (res.headers['content-encoding'] === 'gzip' ? gunzipSync(raw) : raw).toString();
        resolve({ status: res.statusCode ?? 0, headers: res.headers, body });
      });
    });
    req.setTimeout(10_000, () => req.destroy(new Error('timeout')));
    req.once('error', reject);
    req.end();
  });

describe.skipIf(!nginx.ok)('gzip on live domains, changed without a reload', () => {
  let origin: Awaited<ReturnType<typeof startOrigin>>;
  let prefix: string;
  let stateDir: string;
  let applier: Applier;
  let httpPort: number;
  let revision = 1;

  /** The site `text` (gzip as given) and the site `plain` (never gzip), both served from data. */
  const stateWith = ({ gzip = false }: { gzip?: boolean } = {}) =>
    edge.desiredState.parse({
      revision: revision++,
      structure: {
        zone: { httpPorts: [httpPort], httpsPorts: [httpPort + 1], nginx: { workerProcesses: 1 } },
        sites: [
          { id: 1, name: 'text', gzip, domains: [{ id: 11, name: 'text.example.com', origins: [{ host: '127.0.0.1', port: origin.port }] }] },
          { id: 2, name: 'plain', domains: [{ id: 21, name: 'plain.example.com', origins: [{ host: '127.0.0.1', port: origin.port }] }] },
        ],
      },
    });
  /** Applies the state: every domain stays live, and nginx is not reloaded. */
  const applyLive = async (state: edge.DesiredState) => {
    expect(splitLive({ state }).structure.sites).toEqual([]);
    expect(await applier.apply(state)).toMatchObject({ ok: true, reloaded: false });
  };
  const loads = async () => (await controlStatus({ control: await applier.control() })).loads;
  const get = (host: string, path: string, encoding?: string) => ask({ port: httpPort, host, path, encoding });

  beforeAll(async () => {
    origin = await startOrigin();
    httpPort = await freePort();
    prefix = await mkdtemp(join(tmpdir(), 'ek-live-more-prefix-'));
    stateDir = await mkdtemp(join(tmpdir(), 'ek-live-more-state-'));
    applier = createApplier({ prefix, stateDir, controlPort: await freePort() });
    expect(await applier.apply(stateWith())).toMatchObject({ ok: true });
  });

  afterAll(async () => {
    if (prefix) await stopNginx({ prefix });
    await origin?.close();
    await Promise.all([prefix, stateDir].map((d) => d && rm(d, { recursive: true, force: true })));
  });

  it("compresses a gzip site's answers for clients that accept gzip, from the cache too, and nothing of a site without it", async () => {
    const before = await loads();
    const plain = await get('text.example.com', '/a.txt', 'gzip, br');
    expect(plain).toMatchObject({ status: 200, body: TEXT, headers: { 'x-cache': 'MISS' } });
    expect(plain.headers['content-encoding']).toBeUndefined();
    // the origin gets the client's Accept-Encoding all the same, as from a server block
    expect(origin.encodings.at(-1)).toBe('gzip, br');

    await applyLive(stateWith({ gzip: true }));
    expect(await get('text.example.com', '/b.txt', 'gzip')).toMatchObject({ body: TEXT, headers: { 'x-cache': 'MISS', 'content-encoding': 'gzip' } });
    expect(origin.encodings.at(-1)).toBe('gzip');
    // the cached copy is whole: a client without gzip gets it as is, one with gzip compressed
    const identity = await get('text.example.com', '/b.txt');
    expect(identity).toMatchObject({ body: TEXT, headers: { 'x-cache': 'HIT', 'content-length': String(TEXT.length) } });
    expect(identity.headers['content-encoding']).toBeUndefined();
    expect(await get('text.example.com', '/b.txt', 'gzip')).toMatchObject({ body: TEXT, headers: { 'x-cache': 'HIT', 'content-encoding': 'gzip' } });
    expect(await get('text.example.com', '/a.txt', 'gzip')).toMatchObject({ body: TEXT, headers: { 'x-cache': 'HIT', 'content-encoding': 'gzip' } });

    // the other site, and the page of a name no site serves, stay uncompressed
    expect((await get('plain.example.com', '/b.txt', 'gzip')).headers['content-encoding']).toBeUndefined();
    const unknown = await get('nobody.example.com', '/', 'gzip');
    expect(unknown.status).toBe(903);
    expect(unknown.headers['content-encoding']).toBeUndefined();

    await applyLive(stateWith());
    const off = await get('text.example.com', '/b.txt', 'gzip');
    expect(off).toMatchObject({ body: TEXT, headers: { 'x-cache': 'HIT' } });
    expect(off.headers['content-encoding']).toBeUndefined();
    expect(await loads()).toBe(before);
  });

  it('refuses a gzip setting that is not a boolean before it reaches nginx', async () => {
    const good = luaData({ state: stateWith({ gzip: true }) });
    const control = await applier.control();
    await pushData({ control, data: good });
    const [entry, ...rest] = good.live ?? [];
    await expect(pushData({ control, data: { ...good, liveDigest: 'bad-gzip', live: [{ ...entry, gzip: 'yes' as unknown as boolean }, ...rest] } })).rejects.toThrow(
      /400.*text\.example\.com: gzip/,
    );
    expect((await get('text.example.com', '/c.txt', 'gzip')).headers['content-encoding']).toBe('gzip');
  });
});
