import { readFile, readdir, rm, stat } from 'node:fs/promises';
import { join } from 'node:path';
import type { agentProtocol, edge } from '@edgekeep/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startAgent, type Agent, type AgentOptions } from './agent';
import { stopNginx } from './apply/process';
import { ACCESS_LOG } from './render';
import { startFakeControlPlane, type FakeControlPlane } from './test/fake-control-plane';
import { nginxForTests } from './test/nginx-harness';
import { requiredInCi } from './test/required-in-ci';
import { freePort, get, startOrigin } from './test/servers';
import { fillDisk, mountTmpfs, unmountTmpfs } from './test/tmpfs';
import { waitFor } from './test/wait-for';

const nginx = await nginxForTests('the disk-full drill needs nginx with the Lua module');
// the node's directory (STATE_DIR with nginx's prefix in it, as installed) on a small tmpfs
const tmpfs = nginx.ok ? await mountTmpfs({ size: '4m' }) : undefined;
const ready = !tmpfs || tmpfs.ok || requiredInCi(false, `the disk-full drill mounts a tmpfs (root is needed): ${tmpfs.reason}`);

const ENROLL_TOKEN = 'enrol-diskfull-0123456789';

describe.skipIf(!nginx.ok || !ready)('an edge whose disk is full', () => {
  let origin: Awaited<ReturnType<typeof startOrigin>>;
  let cp: FakeControlPlane;
  let agent: Agent;
  let options: AgentOptions;
  let httpPort: number;
  const dir = tmpfs?.dir ?? '';
  const prefix = join(dir, 'nginx');
  const filler = join(dir, 'filler');
  const logged: Record<string, unknown>[] = [];
  let stopped: string | undefined;

  const stateAt = ({ revision, gzip = false }: { revision: number; gzip?: boolean }): edge.DesiredStateInput => ({
    revision,
    structure: {
      zone: { httpPorts: [httpPort], httpsPorts: [httpPort + 1], nginx: { workerProcesses: 1 } },
      sites: [
        {
          id: 1,
          name: 'shop',
          gzip,
          // a body size above the zone's is a directive: the domain has a server block of its own, and its gzip is a
          // structure change
          options: { clientMaxBodySize: 101 },
          domains: [{ id: 11, name: 'shop.example.com', origins: [{ host: '127.0.0.1', port: origin.port }] }],
          cacheRules: [{ type: 'fileTypes', values: ['png'], seconds: 60, mode: 'force' }],
        },
      ],
    },
    data: { sites: [{ siteId: 1, blacklist: [], whitelist: [] }] },
  });

  const uris = (tag: string, n = 10) => Array.from({ length: n }, (_, i) => `/disk/${tag}-${i}`);
  const request = async (tag: string, n?: number) => {
    const statuses = [];
    for (const path of uris(tag, n)) statuses.push((await get({ port: httpPort, host: 'shop.example.com', path })).status);
    return statuses;
  };
  /** The lines of `uri` as the control plane counts them: once per log file and offset (a resend counts once). */
  const shipped = (uri: string) => new Set(cp.seen.logLines.flatMap((l, i) => (l.uri === uri ? [`${cp.seen.logFiles[i]}@${l.offset}`] : []))).size;
  const sent = (uri: string) => cp.seen.logLines.filter((l) => l.uri === uri).length;
  const allShipped = (tag: string) => waitFor({ what: `the ${tag} lines`, check: () => uris(tag).every((u) => shipped(u) > 0) });
  const reportAfter = (count: number, check: (r: agentProtocol.Report) => boolean) =>
    waitFor({ what: 'a report', check: () => cp.seen.reports.slice(count).find(check) });

  beforeAll(async () => {
    origin = await startOrigin({ name: 'shop' });
    httpPort = await freePort();
    cp = await startFakeControlPlane({ state: stateAt({ revision: 1 }), enrollToken: ENROLL_TOKEN, watchHoldMs: 300 });
    options = {
      apiUrl: cp.url,
      enrollToken: ENROLL_TOKEN,
      stateDir: dir,
      prefix,
      controlPort: await freePort(),
      version: '0.1.0-test',
      hostname: 'edge-disk-full',
      log: (record) => logged.push(record),
      reportIntervalMs: 300,
      commandIntervalMs: 300,
      backoff: { baseMs: 50, capMs: 300 },
      logs: { flushMs: 100, pollMs: 50 },
      asnDb: undefined,
    };
    agent = await startAgent(options);
    agent.done.catch((err: Error) => (stopped = err.message));
  });

  afterAll(async () => {
    await rm(filler, { force: true });
    await agent?.stop().catch(() => undefined);
    await stopNginx({ prefix }).catch(() => undefined);
    await cp?.stop();
    await origin?.close();
    await unmountTmpfs({ dir });
  });

  it('keeps serving while full, reports it, and ships every line it had read once space is back', async () => {
    await waitFor({ what: 'revision 1 applied', check: () => cp.seen.reports.find((r) => r.appliedRevision === 1 && r.applyError === null) });
    expect(await request('before')).toEqual(Array(10).fill(200));
    await allShipped('before');
    expect((await get({ port: httpPort, host: 'shop.example.com', path: '/cached.png' })).status).toBe(200);
    expect(cp.seen.reports.at(-1)!.diskFull ?? null).toBeNull();

    // The control plane away while lines are written: the agent reads them and holds them in a batch.
    await cp.stop();
    expect(await request('held')).toEqual(Array(10).fill(200));
    await fillDisk({ file: filler });

    // Full: nginx still answers (it cannot write its access log), and serves what it has cached.
    expect(await request('full')).toEqual(Array(10).fill(200));
    const cached = await get({ port: httpPort, host: 'shop.example.com', path: '/cached.png' });
    expect([cached.status, cached.headers['x-cache']]).toEqual([200, 'HIT']);
    await cp.start();
    const reports = cp.seen.reports.length;
    const full = await reportAfter(reports, (r) => !!r.diskFull);
    expect(full.diskFull).toMatchObject({ freeBytes: expect.any(Number), totalBytes: 4 * 1024 * 1024 });
    expect(full.diskFull!.freeBytes).toBeLessThan(64 * 1024);
    // once reported, nothing new is cached: a cacheable answer not cached yet is answered whole, not cut
    const fresh = await get({ port: httpPort, host: 'shop.example.com', path: '/fresh.png' });
    expect([fresh.status, fresh.headers['x-cache'], JSON.parse(fresh.body).url]).toEqual([200, 'MISS', '/fresh.png']);
    // the lines read before the disk filled reach the control plane though their position cannot be written
    await allShipped('held');
    await reportAfter(cp.seen.reports.length, (r) => /no space left/i.test(r.diskFull?.writeError ?? ''));

    // A structure change cannot be written: refused and reported, the last good state keeps serving.
    cp.setState(stateAt({ revision: 2, gzip: true }));
    await reportAfter(cp.seen.reports.length, (r) => r.appliedRevision === 1 && /no space left/i.test(r.applyError ?? ''));
    expect(await request('refused')).toEqual(Array(10).fill(200));
    expect((await readdir(join(prefix, 'releases'))).length).toBe(1);
    expect(stopped).toBeUndefined();

    // while the agent runs, a batch taken is not sent again though its position could not be written
    for (const u of uris('held')) expect([u, sent(u)]).toEqual([u, 1]);

    // The node restarted while full (agent and nginx): it serves the release on disk, and reports it cannot write.
    await agent.stop();
    await stopNginx({ prefix });
    agent = await startAgent(options);
    agent.done.catch((err: Error) => (stopped = err.message));
    expect(await request('rebooted')).toEqual(Array(10).fill(200));
    await reportAfter(cp.seen.reports.length, (r) => r.appliedRevision === 1 && !!r.diskFull);

    // Space back: the condition clears, the refused state applies, the new lines are shipped.
    await rm(filler);
    await reportAfter(cp.seen.reports.length, (r) => r.diskFull === null && r.appliedRevision === 2 && r.applyError === null);
    expect(await request('after')).toEqual(Array(10).fill(200));
    await allShipped('after');
    // and with room, caching again
    await get({ port: httpPort, host: 'shop.example.com', path: '/later.png' });
    expect((await get({ port: httpPort, host: 'shop.example.com', path: '/later.png' })).headers['x-cache']).toBe('HIT');

    // Restarted, the agent goes on from the position it wrote once space came back: nothing sent again.
    await agent.stop();
    agent = await startAgent(options);
    agent.done.catch((err: Error) => (stopped = err.message));
    expect(await request('restarted')).toEqual(Array(10).fill(200));
    await allShipped('restarted');
    for (const u of [...uris('before'), ...uris('held'), ...uris('after'), ...uris('restarted')]) expect([u, shipped(u)]).toEqual([u, 1]);
    for (const u of [...uris('after'), ...uris('restarted')]) expect([u, sent(u)]).toEqual([u, 1]);
    // what nginx wrote while full (at most the rest of its log file's last page) is shipped at most once
    for (const u of [...uris('full'), ...uris('refused'), ...uris('rebooted')]) expect(shipped(u)).toBeLessThanOrEqual(1);
    // and the position on disk reaches the log's end
    const size = (await stat(join(prefix, ACCESS_LOG))).size;
    const offset = async () => (JSON.parse(await readFile(join(dir, 'log-offsets.json'), 'utf8')) as Record<string, { offset: number }>).access.offset;
    await waitFor({ what: 'the position at the end of the log', check: async () => (await offset()) === size });
    expect(stopped).toBeUndefined();
  });
});
