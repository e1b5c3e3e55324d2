import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { call, lane, startTestApp, type TestApp } from '../../../test/harness';
import { makeInfra } from '../../../test/fixtures';
import { runDueMonitors } from './service';

lane('monitors probe real targets', () => {
  let t: TestApp;
  let f: Awaited<ReturnType<typeof makeInfra>>;
  let server: http.Server;
  let port: number;
  let closedPort: number;
  let monitor: number;
  let later = Date.now();
  let hits = 0;
  const client = (method: string, url: string, body?: object) => call(t, method, url, { token: f.tokens.clientA, body });
  const mine = async () => (await client('GET', 'client/monitor/nodes')).body.data[0];
  /** Runs the probes as the scheduler would once every interval has passed. */
  const probeNow = async () => {
    later += 3_600_000;
    return runDueMonitors(t.deps, later);
  };
  const setProbe = (body: object) => client('PUT', 'client/monitor/node', { id: monitor, ...body });

  beforeAll(async () => {
    t = await startTestApp();
    f = await makeInfra(t);
    server = http.createServer((req, res) => {
      hits++;
      res.writeHead(req.url === '/ok' ? 200 : 503).end(req.url === '/ok' ? 'hello edgekeep' : 'down');
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    port = (server.address() as AddressInfo).port;
    const spare = http.createServer();
    await new Promise<void>((resolve) => spare.listen(0, '127.0.0.1', resolve));
    closedPort = (spare.address() as AddressInfo).port;
    await new Promise((resolve) => spare.close(resolve));
    await client('PUT', 'client/node', { id: f.a.node, ip: '127.0.0.1' });
  });
  afterAll(async () => {
    await new Promise((resolve) => server.close(resolve));
    await t.close();
  });

  it('initialises monitors for nodes without one; starts unknown with the default probe', async () => {
    expect((await client('GET', 'client/monitor/nodes/notInit')).body.data).toEqual([{ id: f.a.node, name: 'edge-a', ip: '127.0.0.1', zoneID: f.a.zone }]);
    expect((await client('POST', 'client/monitor/nodes', { nodeIDs: [f.a.node] })).status).toBe(200);
    expect((await client('POST', 'client/monitor/nodes', { nodeIDs: [f.a.node] })).body.code).toBe(101025);
    expect((await client('GET', 'client/monitor/nodes/notInit')).body.total).toBe(0);
    const m = await mine();
    expect(m).toMatchObject({ nodeID: f.a.node, type: 'status', url: '{host}/', statusCode: '200', interval: 60, failureAction: 'none', enabled: true, status: 0 });
    monitor = m.id;
    expect((await client('GET', 'client/monitor/metaMonitors')).body.data).toEqual([{ id: monitor, name: 'edge-a' }]);
  });

  it('HTTP status code and HTTP content probes against a real server', async () => {
    await setProbe({ type: 'status', url: `{host}:${port}/ok`, statusCode: '200' });
    expect(await probeNow()).toBe(1);
    expect(await mine()).toMatchObject({ status: 1, lastError: null });
    await setProbe({ type: 'status', url: `http://127.0.0.1:${port}/down`, statusCode: '200' });
    await probeNow();
    expect(await mine()).toMatchObject({ status: 2, lastError: 'HTTP 503, expected 200' });
    await setProbe({ type: 'content', url: `{host}:${port}/ok`, content: 'edgekeep' });
    await probeNow();
    expect((await mine()).status).toBe(1);
    await setProbe({ type: 'content', url: `{host}:${port}/ok`, content: 'absent text' });
    await probeNow();
    expect((await mine()).status).toBe(2);
  });

  it('probes a due monitor once when several API instances run their schedulers on one database', async () => {
    await setProbe({ type: 'status', url: `{host}:${port}/ok`, statusCode: '200' });
    later += 3_600_000;
    const before = hits;
    const probed = await Promise.all([runDueMonitors(t.deps, later), runDueMonitors(t.deps, later), runDueMonitors(t.deps, later)]);
    expect(probed.reduce((a, b) => a + b, 0)).toBe(1);
    expect(hits - before).toBe(1);
    expect(await mine()).toMatchObject({ status: 1 });
  });

  it('TCP and ping probes', async () => {
    await setProbe({ type: 'tcp', port });
    await probeNow();
    expect((await mine()).status).toBe(1);
    await setProbe({ type: 'tcp', port: closedPort });
    await probeNow();
    expect(await mine()).toMatchObject({ status: 2, lastError: expect.stringContaining('ECONNREFUSED') });
    await setProbe({ type: 'ping' });
    await probeNow();
    expect(await mine()).toMatchObject({ status: 1 });
  });

  it('validates the probe: URL prefix, three-digit status, interval, content; nothing changes', async () => {
    const before = await mine();
    for (const body of [
      { type: 'status', url: 'https://example.com/' },
      { type: 'status', url: 'example.com/' },
      { type: 'status', statusCode: '20' },
      { type: 'status', statusCode: 'abc' },
      { type: 'status', interval: 5 },
      { type: 'content', content: '' },
      { type: 'dns' },
      { type: 'tcp', failureAction: 'reboot' },
    ]) {
      expect((await setProbe(body)).body.code, JSON.stringify(body)).toBe(101003);
    }
    expect(await mine()).toEqual(before);
  });

  it('a failing monitor with the pause action pauses its node; a disabled monitor is not probed', async () => {
    await setProbe({ type: 'tcp', port: closedPort, failureAction: 'pause' });
    await probeNow();
    expect(await mine()).toMatchObject({ status: 2, nodeEnabled: false });
    const node = (await client('GET', `client/nodes?zoneID=${f.a.zone}`)).body.data.find((n: { id: number }) => n.id === f.a.node);
    expect(node).toMatchObject({ enabled: false, status: 'paused' });
    await client('PUT', 'client/node/status', { ids: [f.a.node], enabled: true });
    expect((await client('PUT', 'client/monitor/nodes/enableStatus', { ids: [monitor], enabled: false })).status).toBe(200);
    expect(await probeNow()).toBe(0);
    expect(await mine()).toMatchObject({ enabled: false, status: 0, nodeEnabled: true });
  });

  it("never shows or changes another client's monitors", async () => {
    expect((await call(t, 'GET', 'client/monitor/nodes', { token: f.tokens.clientB })).body.total).toBe(0);
    expect((await call(t, 'GET', 'client/monitor/nodes/notInit', { token: f.tokens.clientB })).body.data.map((n: { id: number }) => n.id)).toEqual([f.b.node]);
    const as = (method: string, url: string, body: object) => call(t, method, url, { token: f.tokens.clientB, body });
    expect((await as('POST', 'client/monitor/nodes', { nodeIDs: [f.a.node] })).status).toBe(404);
    expect((await as('PUT', 'client/monitor/node', { id: monitor, type: 'ping' })).status).toBe(404);
    expect((await as('PUT', 'client/monitor/nodes/enableStatus', { ids: [monitor], enabled: true })).status).toBe(404);
    expect((await as('DELETE', 'client/monitor/nodes', { ids: [monitor] })).status).toBe(404);
    expect((await client('DELETE', 'client/monitor/nodes', { ids: [monitor] })).status).toBe(200);
    expect((await client('GET', 'client/monitor/nodes')).body.total).toBe(0);
  });
});
