import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { edge } from '@edgekeep/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { stopNginx } from './apply/process';
import { controlStatus, pushData } from './control/client';
import { luaData } from './render';
import { createApplier, type Applier } from './sync/applier';
import { nginxForTests } from './test/nginx-harness';
import { freePort, get, startOrigin } from './test/servers';

const nginx = await nginxForTests('edge tests need nginx with the Lua and stream modules');

/** Domains configured before the one the tests add. */
const CONFIGURED = 300;

describe.skipIf(!nginx.ok)('live domains: added, changed and removed through pushed data, without a reload', () => {
  let a: Awaited<ReturnType<typeof startOrigin>>;
  let b: Awaited<ReturnType<typeof startOrigin>>;
  let prefix: string;
  let stateDir: string;
  let applier: Applier;
  let httpPort: number;
  let deadPort: number;
  let revision = 1;

  type Extra = { name: string; keepalive?: number; origins: edge.Origin[] | { host: string; port: number; backup?: boolean; weight?: number }[] };
  const stateWith = (extra: Extra[] = []) =>
    edge.desiredState.parse({
      revision: revision++,
      structure: {
        zone: { httpPorts: [httpPort], httpsPorts: [httpPort + 1], nginx: { workerProcesses: 2 } },
        sites: [
          {
            id: 1,
            name: 'many',
            domains: [
              ...Array.from({ length: CONFIGURED }, (_, i) => ({ id: 100 + i, name: `d${i}.example.com`, origins: [{ host: '127.0.0.1', port: a.port }] })),
              ...extra.map((d, i) => ({ id: 10_000 + i, ...d })),
            ],
          },
        ],
      },
    });

  const loads = async () => (await controlStatus({ control: await applier.control() })).loads;
  const origin = async (host: string) => {
    const r = await get({ port: httpPort, host, path: '/x' });
    return { status: r.status, origin: r.status === 200 ? (JSON.parse(r.body) as { origin: string }).origin : null };
  };

  beforeAll(async () => {
    [a, b] = await Promise.all([startOrigin({ name: 'a' }), startOrigin({ name: 'b' })]);
    [httpPort, deadPort] = [await freePort(), await freePort()];
    prefix = await mkdtemp(join(tmpdir(), 'ek-live-prefix-'));
    stateDir = await mkdtemp(join(tmpdir(), 'ek-live-state-'));
    applier = createApplier({ prefix, stateDir, controlPort: await freePort() });
    expect(await applier.apply(stateWith())).toMatchObject({ ok: true });
  });

  afterAll(async () => {
    if (prefix) await stopNginx({ prefix });
    await Promise.all([a?.close(), b?.close()]);
    await Promise.all([prefix, stateDir].map((d) => d && rm(d, { recursive: true, force: true })));
  });

  it(`serves a domain added to ${CONFIGURED}, then its new origin, then nothing once removed, with 0 reloads`, async () => {
    const before = await loads();
    expect(await origin('new.example.com')).toEqual({ status: 903, origin: null });
    expect(await applier.apply(stateWith([{ name: 'new.example.com', origins: [{ host: '127.0.0.1', port: a.port }] }]))).toMatchObject({ ok: true, reloaded: false });
    expect(await origin('new.example.com')).toEqual({ status: 200, origin: 'a' });
    // a data change that leaves the live domains as they are pushes their digest only: they keep serving
    const listed = { ...stateWith([{ name: 'new.example.com', origins: [{ host: '127.0.0.1', port: a.port }] }]), data: edge.data.parse({ sites: [{ siteId: 1, blacklist: ['192.0.2.1'] }] }) };
    expect(await applier.apply(listed)).toMatchObject({ ok: true, reloaded: false });
    expect(await origin('new.example.com')).toEqual({ status: 200, origin: 'a' });
    expect((await controlStatus({ control: await applier.control() })).liveDomains).toBe(CONFIGURED + 1);
    expect(await applier.apply(stateWith([{ name: 'new.example.com', origins: [{ host: '127.0.0.1', port: b.port }] }]))).toMatchObject({ ok: true, reloaded: false });
    expect(await origin('new.example.com')).toEqual({ status: 200, origin: 'b' });
    expect(await origin('d7.example.com')).toEqual({ status: 200, origin: 'a' });
    expect(await applier.apply(stateWith())).toMatchObject({ ok: true, reloaded: false });
    expect(await origin('new.example.com')).toEqual({ status: 903, origin: null });
    expect(await loads()).toBe(before);
    expect((await controlStatus({ control: await applier.control() })).liveDomains).toBe(CONFIGURED);
  });

  it('spreads requests over origins by weight, and takes the backup once the primary fails', async () => {
    const before = await loads();
    const weighted = { name: 'weighted.example.com', origins: [{ host: '127.0.0.1', port: a.port, weight: 3 }, { host: '127.0.0.1', port: b.port, weight: 1 }] };
    const failing = { name: 'failover.example.com', origins: [{ host: '127.0.0.1', port: deadPort }, { host: '127.0.0.1', port: b.port, backup: true }] };
    expect(await applier.apply(stateWith([weighted, failing]))).toMatchObject({ ok: true, reloaded: false });
    const seen: Record<string, number> = {};
    // two workers each keep their own turn: over 16 requests the weights show whichever worker answers
    for (let i = 0; i < 16; i++) {
      const r = await origin('weighted.example.com');
      seen[r.origin ?? String(r.status)] = (seen[r.origin ?? String(r.status)] ?? 0) + 1;
    }
    expect(seen.a).toBeGreaterThan(seen.b ?? 0);
    expect(seen.b).toBeGreaterThan(0);
    expect(await origin('failover.example.com')).toEqual({ status: 200, origin: 'b' });
    expect(await origin('failover.example.com')).toEqual({ status: 200, origin: 'b' });
    expect(await loads()).toBe(before);
  });

  it('never answers a live domain with 903 while pushes replace the whole list under requests', async () => {
    const to = (port: number) => luaData({ state: stateWith([{ name: 'swap.example.com', origins: [{ host: '127.0.0.1', port }] }]) });
    const docs = [to(a.port), to(b.port)];
    await pushData({ control: await applier.control(), data: docs[1] });
    let pushing = true;
    const pushes = (async () => {
      for (let i = 0; i < 10; i++) await pushData({ control: await applier.control(), data: docs[i % 2] });
      pushing = false;
    })();
    const statuses = new Set<number>();
    while (pushing) {
      const answers = await Promise.all(['swap.example.com', 'd1.example.com', 'd299.example.com'].map((host) => origin(host)));
      for (const r of answers) statuses.add(r.status);
    }
    await pushes;
    expect([...statuses]).toEqual([200]);
    expect(await origin('swap.example.com')).toEqual({ status: 200, origin: 'b' });
  });

  it('refuses a bad live value before it reaches nginx, and keeps serving the last good data', async () => {
    const good = luaData({ state: stateWith([{ name: 'kept.example.com', origins: [{ host: '127.0.0.1', port: a.port }] }]) });
    await pushData({ control: await applier.control(), data: good });
    expect(await origin('kept.example.com')).toEqual({ status: 200, origin: 'a' });
    const live = good.live ?? [];
    const bad = { ...good, liveDigest: 'bad', live: [...live.slice(0, -1), { ...live[live.length - 1], origins: [{ ...live[live.length - 1].origins[0], port: 70_000 }] }] };
    await expect(pushData({ control: await applier.control(), data: bad })).rejects.toThrow(/400.*kept\.example\.com/);
    const twice = { ...good, liveDigest: 'twice', live: [...live, live[0]] };
    await expect(pushData({ control: await applier.control(), data: twice })).rejects.toThrow(/400.*twice/);
    expect(await origin('kept.example.com')).toEqual({ status: 200, origin: 'a' });
  });

  it('takes a delta against the list it holds, and refuses one against another list', async () => {
    const control = await applier.control();
    const base = luaData({ state: stateWith([{ name: 'old.example.com', origins: [{ host: '127.0.0.1', port: a.port }] }]) });
    await pushData({ control, data: base });
    const target = luaData({ state: stateWith([{ name: 'fresh.example.com', origins: [{ host: '127.0.0.1', port: b.port }] }]) });
    const delta = { ...target, live: undefined, liveDelta: { base: base.liveDigest!, set: target.live!.filter((d) => d.name === 'fresh.example.com'), remove: ['old.example.com'] } };
    await expect(pushData({ control, data: { ...delta, liveDelta: { ...delta.liveDelta, base: 'not-held' } } })).rejects.toThrow(/400.*base is not held/);
    expect(await origin('old.example.com')).toEqual({ status: 200, origin: 'a' });
    await pushData({ control, data: delta });
    expect([await origin('fresh.example.com'), await origin('old.example.com'), await origin('d3.example.com')]).toEqual([
      { status: 200, origin: 'b' },
      { status: 903, origin: null },
      { status: 200, origin: 'a' },
    ]);
    expect((await controlStatus({ control })).liveDomains).toBe(CONFIGURED + 1);
    // a delta past what an overlay holds (5,000 names) is folded into a new base list
    const extra = Array.from({ length: 5001 }, (_, i) => ({ ...target.live![0], name: `f${i}.example.com`, domain: 20_000 + i }));
    await pushData({ control, data: { ...target, live: undefined, liveDigest: 'folded', liveDelta: { base: target.liveDigest!, set: extra, remove: ['d0.example.com'] } } });
    expect((await controlStatus({ control })).liveDomains).toBe(CONFIGURED + 5001);
    expect([await origin('f5000.example.com'), await origin('fresh.example.com'), await origin('d0.example.com')].map((r) => r.status)).toEqual([200, 200, 903]);
  });

  it('keeps a domain with a directive-only setting on its own server block, reloading for it', async () => {
    const state = stateWith();
    const [site] = state.structure.sites;
    // a body size above the zone's: nginx holds a chunked body to it as it reads it, which only a server of its own sets
    state.structure.sites.push({
      ...site,
      id: 2,
      name: 'large-bodies',
      options: { ...site.options, clientMaxBodySize: state.structure.zone.nginx.clientMaxBodySize + 1 },
      domains: [{ ...site.domains[0], id: 2, name: 'large.example.com', origins: [{ ...site.domains[0].origins[0], port: b.port }] }],
    });
    const before = await loads();
    expect(await applier.apply(state)).toMatchObject({ ok: true, reloaded: true });
    expect(await origin('large.example.com')).toEqual({ status: 200, origin: 'b' });
    expect(await loads()).toBe((before ?? 0) + 1);
  });

  it("serves a domain whose keepalive is 0 from pushed data, closing each request's origin connection", async () => {
    const [domain] = stateWith().structure.sites[0].domains;
    const peers = async (host: string) => {
      const seen = new Set<number>();
      for (let i = 0; i < 4; i++) seen.add(JSON.parse((await get({ port: httpPort, host })).body).peer as number);
      return seen.size;
    };
    // the server block of the test before goes first
    expect(await applier.apply(stateWith())).toMatchObject({ ok: true });
    const before = await loads();
    const state = stateWith([{ name: 'unpooled.example.com', keepalive: 0, origins: [{ ...domain.origins[0], port: b.port }] }]);
    expect(await applier.apply(state)).toMatchObject({ ok: true });
    expect(await origin('unpooled.example.com')).toEqual({ status: 200, origin: 'b' });
    // a kept connection serves a later request (each worker keeps its own), a closed one cannot
    expect(await peers('unpooled.example.com')).toBe(4);
    expect(await peers('d1.example.com')).toBeLessThan(4);
    expect(await loads()).toBe(before);
  });
});
