import { lookup } from 'node:dns/promises';
import { createServer, request, type IncomingHttpHeaders } from 'node:http';
import { connect } from 'node:http2';
import type { AddressInfo } from 'node:net';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { gunzipSync } from 'node:zlib';
import { edge } from '@edgekeep/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { stopNginx } from './apply/process';
import { controlStatus, pushData } from './control/client';
import { luaData, splitLive, withOriginAddresses } from './render';
import { createApplier, type Applier } from './sync/applier';
import { createOriginNames } from './sync/origin-names';
import { nginxForTests } from './test/nginx-harness';
import { selfSignedCertificate } from './test/certificates';
import { freePort } from './test/servers';

const nginx = await nginxForTests('edge tests need nginx with the Lua and stream modules');

const TEXT = 'compressible text '.repeat(100);

/**
 * An origin of cacheable text pages on `address` (and `port`, else any) that names itself in `x-origin` and keeps the
 * Accept-Encoding and Host of each request it gets.
 */
const startOrigin = async ({ name, address = '127.0.0.1', port = 0 }: { name: string; address?: string; port?: number }) => {
  const encodings: (string | undefined)[] = [];
  const hosts: (string | undefined)[] = [];
  const server = createServer((req, res) => {
    encodings.push(req.headers['accept-encoding']);
    hosts.push(req.headers.host);
    res.setHeader('content-type', 'text/plain');
    res.setHeader('x-origin', name);
    if (!req.url?.startsWith('/fresh')) res.setHeader('cache-control', 'max-age=600');
    res.end(TEXT);
  });
  await new Promise<void>((r) => server.listen(port, address, r));
  return { port: (server.address() as AddressInfo).port, encodings, hosts, close: () => new Promise<void>((r) => server.close(() => r())) };
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

type Certificate = Awaited<ReturnType<typeof selfSignedCertificate>>;

/** One GET over HTTP/2 and TLS (any certificate) with Accept-Encoding gzip: the status and Content-Encoding. */
const askH2 = ({ port, host, path }: { port: number; host: string; path: string }) =>
  new Promise<{ status: number; encoding?: string }>((resolve, reject) => {
    const session = connect(`https://127.0.0.1:${port}`, { servername: host, rejectUnauthorized: false });
    session.once('error', reject);
    const req = session.request({ ':path': path, ':authority': host, 'accept-encoding': 'gzip' });
    req.once('response', (headers) => {
      req.resume();
      req.once('end', () => {
        session.close();
        resolve({ status: Number(headers[':status']), encoding: headers['content-encoding'] as string | undefined });
      });
    });
    req.once('error', reject);
    req.end();
  });

describe.skipIf(!nginx.ok)('gzip and origins named by host name on live domains, changed without a reload', () => {
  let origin: Awaited<ReturnType<typeof startOrigin>>;
  let other: Awaited<ReturnType<typeof startOrigin>>;
  let prefix: string;
  let stateDir: string;
  let applier: Applier;
  let httpPort: number;
  let revision = 1;
  /**
   * The test's resolver: the addresses of a name of `answers` (or its failure), else the system's (origin names
   * pass the contract only with a top-level domain, and this machine's resolver knows none of its own).
   */
  const answers = new Map<string, string[] | Error>();
  const names = createOriginNames({
    lookup: async (name) => {
      const answer = answers.get(name);
      if (answer instanceof Error) throw answer;
      return answer ?? (await lookup(name, { all: true })).map((a) => a.address);
    },
  });

  /**
   * The site `text` (gzip as given), the site `plain` (never gzip) and, with `named`, the site `named` with those
   * origins: all served from data.
   */
  type Options = { gzip?: boolean; named?: { host: string; port: number }[]; cert?: Certificate };
  const stateWith = ({ gzip = false, named, cert }: Options = {}) =>
    edge.desiredState.parse({
      revision: revision++,
      data: { certificates: cert ? [{ id: 5, ...cert }] : [] },
      structure: {
        zone: { httpPorts: [httpPort], httpsPorts: [httpPort + 1], nginx: { workerProcesses: 1 } },
        sites: [
          {
            id: 1,
            name: 'text',
            gzip,
            domains: [{ id: 11, name: 'text.example.com', certificateId: cert ? 5 : null, origins: [{ host: '127.0.0.1', port: origin.port }] }],
          },
          {
            id: 2,
            name: 'plain',
            domains: [{ id: 21, name: 'plain.example.com', certificateId: cert ? 5 : null, origins: [{ host: '127.0.0.1', port: origin.port }] }],
          },
          ...(named ? [{ id: 3, name: 'named', domains: [{ id: 31, name: 'named.example.com', origins: named }] }] : []),
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
  /** The origins that answer `n` uncached requests for named.example.com. */
  const namedOrigins = async (n: number) => {
    const seen: unknown[] = [];
    for (let i = 0; i < n; i++) seen.push((await get('named.example.com', `/fresh/${i}`)).headers['x-origin']);
    return seen;
  };

  beforeAll(async () => {
    origin = await startOrigin({ name: 'first' });
    // the same port on another loopback address: a name that moves from one address to the other
    other = await startOrigin({ name: 'second', address: '127.0.0.2', port: origin.port });
    httpPort = await freePort();
    prefix = await mkdtemp(join(tmpdir(), 'ek-live-more-prefix-'));
    stateDir = await mkdtemp(join(tmpdir(), 'ek-live-more-state-'));
    applier = createApplier({ prefix, stateDir, controlPort: await freePort(), originNames: names });
    expect(await applier.apply(stateWith())).toMatchObject({ ok: true });
  });

  afterAll(async () => {
    if (prefix) await stopNginx({ prefix });
    await Promise.all([origin?.close(), other?.close()]);
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

  it('compresses over HTTP/2 as over HTTP/1.1', async () => {
    const cert = await selfSignedCertificate({ host: 'text.example.com', names: ['text.example.com', 'plain.example.com'] });
    const before = await loads();
    await applyLive(stateWith({ gzip: true, cert }));
    const h2 = (host: string) => askH2({ port: httpPort + 1, host, path: '/h2.txt' });
    expect(await h2('text.example.com')).toEqual({ status: 200, encoding: 'gzip' });
    expect(await h2('plain.example.com')).toEqual({ status: 200, encoding: undefined });
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

  it('serves a domain whose origin is a host name from its addresses, sending the Host the client asked for', async () => {
    const before = await loads();
    answers.set('local.test', (await lookup('localhost', { all: true })).map((a) => a.address));
    await applyLive(stateWith({ named: [{ host: 'local.test', port: origin.port }] }));
    const answer = await get('named.example.com', '/fresh/a');
    expect(answer).toMatchObject({ status: 200, body: TEXT, headers: { 'x-origin': 'first' } });
    expect(origin.hosts.at(-1)).toBe('named.example.com');
    expect(await loads()).toBe(before);
  });

  it("follows a name's new addresses when it is looked up again, keeps the last ones when a lookup fails, and refuses a name never resolved", async () => {
    const before = await loads();
    answers.set('origin.test', ['127.0.0.1']);
    await applyLive(stateWith({ named: [{ host: 'origin.test', port: origin.port }] }));
    expect(await namedOrigins(2)).toEqual(['first', 'first']);

    answers.set('origin.test', ['127.0.0.2']);
    await applier.refreshOrigins();
    expect(await namedOrigins(2)).toEqual(['second', 'second']);
    // one server per address, as nginx makes of a name: round robin over both
    answers.set('origin.test', ['127.0.0.2', '127.0.0.1']);
    await applier.refreshOrigins();
    expect(new Set(await namedOrigins(4))).toEqual(new Set(['first', 'second']));
    answers.set('origin.test', new Error('SERVFAIL'));
    await applier.refreshOrigins();
    expect(new Set(await namedOrigins(4))).toEqual(new Set(['first', 'second']));
    expect(applier.status().applyError).toBeNull();

    // a name that never resolved: the state is refused, as nginx refuses a server block's, and the last good serves on
    answers.set('never.test', new Error('NXDOMAIN'));
    const refused = stateWith({ named: [{ host: 'never.test', port: origin.port }] });
    expect(await applier.apply(refused)).toMatchObject({ ok: false, error: 'origin host not found: never.test' });
    expect(new Set(await namedOrigins(4))).toEqual(new Set(['first', 'second']));
    expect(await loads()).toBe(before);
  });

  it('reaches an origin whose name has an IPv6 address', async () => {
    const six = await startOrigin({ name: 'six', address: '::1' });
    try {
      answers.set('six.test', ['::1']);
      await applyLive(stateWith({ named: [{ host: 'six.test', port: six.port }] }));
      expect(await get('named.example.com', '/fresh/six')).toMatchObject({ status: 200, headers: { 'x-origin': 'six' } });
    } finally {
      await six.close();
    }
  });

  it('refuses a pushed origin that is not an address before it reaches nginx', async () => {
    const state = stateWith({ named: [{ host: 'origin.test', port: origin.port }] });
    const good = luaData({ state: withOriginAddresses({ state, addresses: new Map([['origin.test', ['127.0.0.1']]]) }).state });
    const control = await applier.control();
    await pushData({ control, data: good });
    const named = good.live?.find((d) => d.name === 'named.example.com');
    expect(named?.origins.map((o) => o.host)).toEqual(['127.0.0.1']);
    const bad = { ...good, liveDigest: 'bad-origin', live: good.live?.map((d) => (d === named ? { ...d, origins: [{ ...d.origins[0], host: 'origin.test' }] } : d)) };
    await expect(pushData({ control, data: bad })).rejects.toThrow(/400.*named\.example\.com: an origin that is not an address/);
    expect((await get('named.example.com', '/fresh/b')).headers['x-origin']).toBe('first');
  });
});
