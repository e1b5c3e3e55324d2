import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { edge } from '@edgekeep/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { stopNginx } from './apply/process';
import { controlStatus } from './control/client';
import { splitLive } from './render';
import { createApplier, type Applier } from './sync/applier';
import { nginxForTests } from './test/nginx-harness';
import { freePort, get } from './test/servers';

const nginx = await nginxForTests('edge tests need nginx with the Lua and stream modules');

/** An origin that names itself, and answers /slow after 1.5 s. */
const startOrigin = async (name: string) => {
  const server = createServer((req, res) => {
    if (req.url === '/slow') return void setTimeout(() => res.end(name), 1500);
    res.end(name);
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  return { port: (server.address() as AddressInfo).port, close: () => new Promise<void>((r) => server.close(() => r())) };
};

describe.skipIf(!nginx.ok)('least_conn on a live domain, switched on and off without a reload', () => {
  let a: Awaited<ReturnType<typeof startOrigin>>;
  let b: Awaited<ReturnType<typeof startOrigin>>;
  let prefix: string;
  let stateDir: string;
  let applier: Applier;
  let httpPort: number;
  let revision = 1;

  const stateWith = (balance: 'round_robin' | 'least_conn') =>
    edge.desiredState.parse({
      revision: revision++,
      structure: {
        // one worker: nginx's least_conn without a shared zone counts each worker's connections apart, and so does the runtime
        zone: { httpPorts: [httpPort], httpsPorts: [httpPort + 1], nginx: { workerProcesses: 1 } },
        sites: [
          {
            id: 1,
            name: 'app',
            domains: [{ id: 11, name: 'app.example.com', balance, origins: [a, b].map((o) => ({ host: '127.0.0.1', port: o.port })) }],
          },
        ],
      },
    });
  const loads = async () => (await controlStatus({ control: await applier.control() })).loads;
  const app = async (path = '/') => (await get({ port: httpPort, host: 'app.example.com', path })).body;
  /** Which origins answer three quick requests while one /slow request is in flight at the origin it went to. */
  const besideSlow = async () => {
    const slow = app('/slow');
    await new Promise((r) => setTimeout(r, 300));
    const quick = [await app(), await app(), await app()];
    return { slow: await slow, quick };
  };

  beforeAll(async () => {
    [a, b] = await Promise.all([startOrigin('a'), startOrigin('b')]);
    httpPort = await freePort();
    prefix = await mkdtemp(join(tmpdir(), 'ek-live-balance-prefix-'));
    stateDir = await mkdtemp(join(tmpdir(), 'ek-live-balance-state-'));
    applier = createApplier({ prefix, stateDir, controlPort: await freePort() });
    expect(await applier.apply(stateWith('round_robin'))).toMatchObject({ ok: true });
  });

  afterAll(async () => {
    if (prefix) await stopNginx({ prefix });
    await Promise.all([a?.close(), b?.close()]);
    await Promise.all([prefix, stateDir].map((d) => d && rm(d, { recursive: true, force: true })));
  });

  it('sends requests past the origin that has one in flight, and in turn again without least_conn', async () => {
    const before = await loads();
    // round robin: the quick requests take turns, the busy origin among them
    const turns = await besideSlow();
    expect(turns.quick).toContain(turns.slow);
    const state = stateWith('least_conn');
    expect(splitLive({ state }).live.map((d) => [d.name, d.leastConn])).toEqual([['app.example.com', true]]);
    expect(await applier.apply(state)).toMatchObject({ ok: true, reloaded: false });
    const least = await besideSlow();
    const other = least.slow === 'a' ? 'b' : 'a';
    expect(least.quick).toEqual([other, other, other]);
    // once the slow one is done, both origins are idle: they take turns again
    expect(new Set([await app(), await app()])).toEqual(new Set(['a', 'b']));
    expect(await applier.apply(stateWith('round_robin'))).toMatchObject({ ok: true, reloaded: false });
    const again = await besideSlow();
    expect(again.quick).toContain(again.slow);
    expect(await loads()).toBe(before);
  });
});
