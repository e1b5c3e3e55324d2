import { existsSync } from 'node:fs';
import { mkdtemp, readdir, readFile, rm, stat } from 'node:fs/promises';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { edge } from '@edgekeep/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startAgent, type Agent, type AgentOptions } from './agent';
import { createAgentMetrics } from './metrics/metrics';
import { currentRelease } from './apply/layout';
import { masterPid } from './apply/nginx';
import { stopNginx } from './apply/process';
import { controlStatus } from './control/client';
import { startFakeControlPlane, type FakeControlPlane } from './test/fake-control-plane';
import { nginxForTests } from './test/nginx-harness';
import { freePort, get, startOrigin } from './test/servers';
import { waitFor } from './test/wait-for';

const nginx = await nginxForTests('edge tests need nginx with the Lua module');

const ENROLL_TOKEN = 'enrol-0123456789abcdef';

describe.skipIf(!nginx.ok)('agent against a control plane, with real nginx', () => {
  let shop: Awaited<ReturnType<typeof startOrigin>>;
  let blog: Awaited<ReturnType<typeof startOrigin>>;
  let cp: FakeControlPlane;
  let agent: Agent;
  let options: AgentOptions;
  let httpPort: number;
  let prefix: string;
  let stateDir: string;
  const logged: Record<string, unknown>[] = [];

  // a body size above the zone's (100 MiB) is a directive: every site here gets server blocks of its own, an extra one is
  // a structure change
  const largeBodies = { clientMaxBodySize: 101 };
  const domain = ({ id, name, port }: { id: number; name: string; port: number }) => ({ id, name, origins: [{ host: '127.0.0.1', port }] });
  const stateAt = ({ revision, extra = [], blacklist = [], shopOrigin = '127.0.0.1' }: {
    revision: number;
    extra?: { id: number; name: string }[];
    blacklist?: string[];
    shopOrigin?: string;
  }): edge.DesiredStateInput => ({
    revision,
    structure: {
      zone: { httpPorts: [httpPort], httpsPorts: [httpPort + 1], nginx: { workerProcesses: 1 } },
      sites: [
        {
          id: 1,
          name: 'shop',
          options: largeBodies,
          domains: [{ ...domain({ id: 11, name: 'shop.example.com', port: shop.port }), origins: [{ host: shopOrigin, port: shop.port }] }],
          cacheRules: [{ type: 'fileTypes', values: ['png'], seconds: 60, mode: 'force' }],
        },
        ...extra.map((d) => ({
          id: d.id,
          name: d.name,
          options: largeBodies,
          domains: [domain({ id: d.id * 10, name: d.name, port: blog.port })],
        })),
      ],
    },
    data: { sites: [{ siteId: 1, blacklist, whitelist: [] }] },
  });

  const reported = ({ revision, error }: { revision: number; error?: RegExp }) =>
    waitFor({
      what: `a report of revision ${revision}${error ? ` with ${error}` : ''}`,
      check: () =>
        cp.seen.reports.findLast((r) =>
          r.appliedRevision === revision && (error ? error.test(r.applyError ?? '') : r.applyError === null),
        ),
    });
  const control = async () => (await agent.applier.control());
  const loads = async () => (await controlStatus({ control: await control() })).loads;
  const shopAnswer = () => get({ port: httpPort, host: 'shop.example.com', path: '/cart' });

  beforeAll(async () => {
    [shop, blog] = await Promise.all([startOrigin({ name: 'shop' }), startOrigin({ name: 'blog' })]);
    httpPort = await freePort();
    prefix = await mkdtemp(join(tmpdir(), 'ek-agent-prefix-'));
    stateDir = await mkdtemp(join(tmpdir(), 'ek-agent-state-'));
    cp = await startFakeControlPlane({ state: stateAt({ revision: 1 }), enrollToken: ENROLL_TOKEN });
    options = {
      apiUrl: cp.url,
      enrollToken: ENROLL_TOKEN,
      stateDir,
      prefix,
      controlPort: await freePort(),
      version: '0.1.0-test',
      hostname: 'edge-test',
      log: (record) => logged.push(record),
      reportIntervalMs: 500,
      commandIntervalMs: 300,
      backoff: { baseMs: 50, capMs: 400 },
      logs: { flushMs: 200, pollMs: 50, rotateGraceMs: 300 },
      metrics: createAgentMetrics(),
    };
    agent = await startAgent(options);
  });

  afterAll(async () => {
    await agent?.stop();
    if (prefix) await stopNginx({ prefix });
    await cp?.stop();
    await Promise.all([shop?.close(), blog?.close()]);
    await Promise.all([prefix, stateDir].map((d) => d && rm(d, { recursive: true, force: true })));
  });

  it('enrols once, applies the first state and serves the site by its Host header', async () => {
    await reported({ revision: 1 });
    expect(cp.seen.enrolments).toHaveLength(1);
    const identity = JSON.parse(await readFile(join(stateDir, 'identity.json'), 'utf8'));
    expect(identity).toMatchObject({ apiUrl: cp.url, nodeId: 1, nodeUID: 'node-test-1' });
    expect((await stat(join(stateDir, 'identity.json'))).mode & 0o777).toBe(0o600);
    const answer = await shopAnswer();
    expect(answer.status).toBe(200);
    expect(JSON.parse(answer.body)).toMatchObject({ origin: 'shop', host: 'shop.example.com', url: '/cart' });
    const report = cp.seen.reports.at(-1)!;
    expect(report).toMatchObject({ version: '0.1.0-test', nginxRunning: true });
    expect(report.memory.totalBytes).toBeGreaterThan(0);
    expect(report.disk.totalBytes).toBeGreaterThan(0);
    expect(report.loadAverage).toHaveLength(3);
  });

  it('applies a structure change (a new domain that needs a server block) with a reload', async () => {
    const before = await loads();
    cp.setState(stateAt({ revision: 2, extra: [{ id: 2, name: 'blog.example.com' }] }));
    await reported({ revision: 2 });
    expect(JSON.parse((await get({ port: httpPort, host: 'blog.example.com' })).body)).toMatchObject({ origin: 'blog' });
    expect(await loads()).toBe((before ?? 0) + 1);
  });

  it('enforces a data change (a blacklist entry) without a reload, and keeps it for the next load', async () => {
    const before = await loads();
    cp.setState(stateAt({ revision: 3, extra: [{ id: 2, name: 'blog.example.com' }], blacklist: ['127.0.0.1'] }));
    await reported({ revision: 3 });
    expect((await shopAnswer()).status).toBe(929);
    expect((await get({ port: httpPort, host: 'blog.example.com' })).status).toBe(200);
    expect(await loads()).toBe(before);
    await agent.applier.persisted();
    const release = await currentRelease({ prefix });
    expect(JSON.parse(await readFile(join(prefix, 'releases', release!, 'data.json'), 'utf8'))).toMatchObject({
      revision: 3,
      sites: [{ siteId: 1, blacklist: ['127.0.0.1'] }],
    });

    cp.setState(stateAt({ revision: 4, extra: [{ id: 2, name: 'blog.example.com' }] }));
    await reported({ revision: 4 });
    expect((await shopAnswer()).status).toBe(200);
  });

  it('reports a state nginx refuses, or one that is not valid, and keeps serving the old one', async () => {
    const serving = await currentRelease({ prefix });
    cp.setState(stateAt({ revision: 5, shopOrigin: 'origin.invalid' }));
    await reported({ revision: 4, error: /host not found in upstream/ });
    expect(await currentRelease({ prefix })).toBe(serving);
    expect(JSON.parse((await shopAnswer()).body)).toMatchObject({ origin: 'shop' });

    cp.setState({ revision: 6, structure: { zone: { httpPorts: [] } } });
    await reported({ revision: 4, error: /revision 6 is not valid/ });
    expect((await get({ port: httpPort, host: 'blog.example.com' })).status).toBe(200);

    const taken = await freePort();
    const blocker = createServer();
    await new Promise<void>((r) => blocker.listen(taken, '0.0.0.0', r));
    try {
      const refused = stateAt({ revision: 7, blacklist: ['127.0.0.1'] });
      refused.structure.sites.push({ id: 5, name: 'ssh', domains: [], l4Ports: [{ port: taken, origins: [{ host: '127.0.0.1', port: 22 }] }] });
      cp.setState(refused);
      await reported({ revision: 4, error: /Address already in use/ });
      expect((await shopAnswer()).status).toBe(200);
    } finally {
      await new Promise<void>((r) => blocker.close(() => r()));
    }

    cp.setState(stateAt({ revision: 8, extra: [{ id: 2, name: 'blog.example.com' }] }));
    await reported({ revision: 8 });
  });

  it('runs clearUrlCache and reload, and posts their results', async () => {
    const logo = { port: httpPort, host: 'shop.example.com', path: '/logo.png' };
    await get(logo);
    expect((await get(logo)).headers['x-cache']).toBe('HIT');
    const purge = cp.queue({ kind: 'clearUrlCache', args: { urls: ['http://shop.example.com/logo.png'] } });
    expect(await waitFor({ what: 'the purge result', check: () => cp.seen.results.find((r) => r.id === purge) })).toMatchObject({
      ok: true,
      message: '1 cached files removed for 1 URLs',
    });
    expect((await get(logo)).headers['x-cache']).toBe('MISS');

    const before = await loads();
    const reload = cp.queue({ kind: 'reload' });
    expect(await waitFor({ what: 'the reload result', check: () => cp.seen.results.find((r) => r.id === reload) })).toMatchObject({ ok: true });
    expect(await loads()).toBe((before ?? 0) + 1);
    expect((await shopAnswer()).status).toBe(200);

    const bad = cp.queue({ kind: 'clearUrlCache', args: { urls: 'not a list' } });
    expect(await waitFor({ what: 'the refusal', check: () => cp.seen.results.find((r) => r.id === bad) })).toMatchObject({ ok: false });
    const pid = await masterPid({ prefix });
    const restart = cp.queue({ kind: 'restart' });
    const clear = cp.queue({ kind: 'clearCache' });
    const format = cp.queue({ kind: 'formatCache' });
    const reset = cp.queue({ kind: 'reset' });
    await waitFor({ what: 'four results', check: () => [restart, clear, format, reset].every((id) => cp.seen.results.some((r) => r.id === id)) });
    expect(cp.seen.results.slice(-4).map((r) => [r.id, r.ok])).toEqual([restart, clear, format, reset].map((id) => [id, true]));
    expect(await masterPid({ prefix })).not.toBe(pid);
    expect((await shopAnswer()).status).toBe(200);

    // A package whose checksum is not the one announced is refused (upgrade/upgrade.test.ts covers the rest).
    const upgrade = cp.queue({ kind: 'upgrade', args: { version: '0.2.0', url: '/agent/v1/packages/edgekeep-agent.tgz', sha256: 'f'.repeat(64) } });
    const upgraded = await waitFor({ what: 'the upgrade result', check: () => cp.seen.results.find((r) => r.id === upgrade) });
    expect(upgraded).toMatchObject({ ok: false, message: expect.stringMatching(/^checksum mismatch: the package's SHA-256 is [0-9a-f]{64}, expected f{64}$/) });
    expect(existsSync(join(stateDir, 'upgrades/edgekeep-agent-0.2.0.pkg'))).toBe(false);
    expect((await shopAnswer()).status).toBe(200);
    expect(cp.seen.queue).toEqual([]);
  });

  it('ships access log lines as gzip NDJSON, none lost or repeated across an agent restart and a log rotation', async () => {
    const uris = (tag: string) => Array.from({ length: 20 }, (_, i) => `/log/${tag}-${i}`);
    const request = async (tag: string) => {
      for (const path of uris(tag)) await get({ port: httpPort, host: 'shop.example.com', path });
    };
    const shipped = (tag: string) =>
      waitFor({ what: `the ${tag} lines`, check: () => uris(tag).every((u) => cp.seen.logLines.some((l) => l.uri === u)) });

    await request('a');
    await shipped('a');
    const line = cp.seen.logLines.find((l) => l.uri === '/log/a-0');
    expect(line).toMatchObject({ siteId: 1, domain: 'shop.example.com', clientIp: '127.0.0.1', method: 'GET', status: 200, httpVersion: 'HTTP/1.1' });
    expect(line!.upstreamTime).not.toBeNull();
    expect(line!.time).toMatch(/Z$/);

    const before = await loads();
    await agent.stop();
    await request('b');
    agent = await startAgent(options);
    await shipped('b');
    expect(await loads()).toBe(before);

    const rotate = cp.queue({ kind: 'logRotate' });
    await request('c');
    expect(await waitFor({ what: 'the rotation', check: () => cp.seen.results.find((r) => r.id === rotate) })).toMatchObject({
      ok: true,
      message: expect.stringMatching(/^rotated access\.json\.\d{8}T\d{9}Z, error\.log\./),
    });
    await request('d');
    await shipped('c');
    await shipped('d');
    expect((await readdir(join(prefix, 'logs'))).filter((n) => n.startsWith('access.json.'))).toHaveLength(1);

    for (const u of [...uris('a'), ...uris('b'), ...uris('c'), ...uris('d')]) {
      expect(cp.seen.logLines.filter((l) => l.uri === u)).toHaveLength(1);
    }
    expect(cp.seen.batches).toBeLessThan(cp.seen.logLines.length);
    // Each line is named by its log file and where it ends there: the rotated file's lines under another file.
    const named = cp.seen.logLines.map((l, i) => `${cp.seen.logFiles[i]}@${l.offset}`);
    expect(new Set(named).size).toBe(named.length);
    const fileOf = (uri: string) => cp.seen.logFiles[cp.seen.logLines.findIndex((l) => l.uri === uri)];
    expect(fileOf('/log/b-0')).toBe(fileOf('/log/a-0'));
    expect(fileOf('/log/d-0')).not.toBe(fileOf('/log/a-0'));
  });

  it('counts its applies by outcome, its reports and the lines the control plane acknowledged in its metrics', async () => {
    const { registry } = options.metrics!;
    const value = async (name: string, labels: Record<string, string> = {}) =>
      (await registry.getSingleMetric(name)!.get()).values.find((v) => Object.entries(labels).every(([k, l]) => v.labels[k] === l))?.value ?? 0;
    // the new domain reloaded; the first state (nginx started), the blacklist and its removal were pushed; two failed
    expect(await value('edgekeep_agent_applies_total', { outcome: 'reload' })).toBeGreaterThanOrEqual(1);
    expect(await value('edgekeep_agent_applies_total', { outcome: 'data' })).toBeGreaterThanOrEqual(3);
    expect(await value('edgekeep_agent_applies_total', { outcome: 'failed' })).toBe(2);
    expect(await value('edgekeep_agent_reports_total', { outcome: 'ok' })).toBeGreaterThan(0);
    // counted once the control plane's answer is in, a moment after it holds the lines
    await expect.poll(() => value('edgekeep_agent_log_lines_shipped_total', { log: 'access' })).toBe(cp.seen.logLines.length);
    expect(await value('edgekeep_agent_applied_revision')).toBe(agent.applier.status().appliedRevision);
    expect(await value('edgekeep_agent_apply_failing')).toBe(0);
    expect(await registry.metrics()).toContain('# TYPE edgekeep_agent_apply_duration_seconds histogram');
  });

  it('keeps serving without the control plane, serves from disk after a restart, and resyncs when it returns', async () => {
    await cp.stop();
    expect((await shopAnswer()).status).toBe(200);

    await agent.stop();
    await stopNginx({ prefix });
    expect(await masterPid({ prefix })).toBeUndefined();
    agent = await startAgent(options);
    expect(await masterPid({ prefix })).toBeDefined();
    expect(agent.applier.status()).toEqual({ appliedRevision: 8, applyError: null });
    expect(JSON.parse((await shopAnswer()).body)).toMatchObject({ origin: 'shop' });
    expect(JSON.parse((await get({ port: httpPort, host: 'blog.example.com' })).body)).toMatchObject({ origin: 'blog' });
    expect(logged.some((r) => r.msg === 'control plane unreachable')).toBe(true);

    cp.setState(stateAt({ revision: 9, extra: [{ id: 2, name: 'blog.example.com' }, { id: 3, name: 'news.example.com' }] }));
    await cp.start();
    await reported({ revision: 9 });
    expect(JSON.parse((await get({ port: httpPort, host: 'news.example.com' })).body)).toMatchObject({ origin: 'blog' });
    expect(cp.seen.enrolments).toHaveLength(1);
  });

  it('reports back the Geneva setting of the state it applied', async () => {
    const geneva = { enabled: true, version: 'v1', windowSize: 40 };
    const monitor = { enabled: true, cpuPercent: 80, memoryPercent: 90, diskPercent: 95, removeFromResolution: true };
    cp.setState({ ...stateAt({ revision: 10, extra: [{ id: 2, name: 'blog.example.com' }] }), node: { monitor, geneva } });
    await reported({ revision: 10 });
    expect(await waitFor({ what: 'a report with the Geneva setting', check: () => cp.seen.reports.findLast((r) => r.appliedRevision === 10)?.geneva })).toEqual(geneva);
  });
});
