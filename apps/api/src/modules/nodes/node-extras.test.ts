import { afterAll, beforeAll, expect, it } from 'vitest';
import { call, lane, startTestApp, type TestApp } from '../../../test/harness';
import { makeInfra } from '../../../test/fixtures';
import { enrolNode } from '../../../test/agent-logs';

lane('node sub nodes, monitor, Geneva and info', () => {
  let t: TestApp;
  let f: Awaited<ReturnType<typeof makeInfra>>;
  let credential: string;
  const client = (method: string, url: string, body?: object) => call(t, method, url, { token: f.tokens.clientA, body });
  const nodeA = async () => (await client('GET', `client/nodes?zoneID=${f.a.zone}&keyword=edge-a`)).body.data[0];
  const agent = (method: 'GET' | 'POST', url: string, payload?: object) =>
    t.app.inject({ method, url: `/agent/v1/${url}`, headers: { authorization: `Node ${credential}` }, payload });
  beforeAll(async () => {
    t = await startTestApp();
    f = await makeInfra(t);
    credential = await enrolNode(t, f.tokens.clientA, f.a.node);
  });
  afterAll(() => t.close());

  it('adds, lists and removes sub nodes; addresses are unique in the zone', async () => {
    const added = await client('POST', `client/node/${f.a.node}/subNodes`, { ip: '198.51.100.1', memo: 'eth1' });
    expect(added.body.data).toMatchObject({ nodeID: f.a.node, ip: '198.51.100.1', memo: 'eth1' });
    const v6 = (await client('POST', `client/node/${f.a.node}/subNodes`, { ip: '2001:db8::a' })).body.data;
    for (const body of [{ ip: '198.51.100.300' }, { ip: 'eth1' }, {}, { ip: '198.51.100.2', memo: 'x'.repeat(5000) }]) {
      expect((await client('POST', `client/node/${f.a.node}/subNodes`, body)).body.code, JSON.stringify(body)).toBe(101003);
    }
    for (const ip of ['198.51.100.1', '192.0.2.1']) {
      const dup = await client('POST', `client/node/${f.a.node}/subNodes`, { ip });
      expect([dup.status, dup.body.code]).toEqual([409, 101025]);
    }
    expect((await call(t, 'POST', `client/node/${f.b.node}/subNodes`, { token: f.tokens.clientB, body: { ip: '198.51.100.1' } })).status).toBe(200);
    const vn = (await client('POST', `client/zone/${f.a.zone}/virtualNode`, { name: 'vn', records: [{ type: 'ip', value: '203.0.113.1' }] })).body.data.id;
    expect((await client('POST', `client/node/${vn}/subNodes`, { ip: '198.51.100.3' })).body.code).toBe(101003);
    const listed = await client('GET', `client/node/${f.a.node}/subNodes`);
    expect(listed.body.data.map((s: { ip: string }) => s.ip)).toEqual(['198.51.100.1', '2001:db8::a']);
    expect((await client('DELETE', `client/node/${f.a.node}/subNodes`, { ids: [v6.id, 999999] })).status).toBe(404);
    expect((await client('DELETE', `client/node/${f.a.node}/subNodes`, { ids: [v6.id] })).status).toBe(200);
    expect((await client('GET', `client/node/${f.a.node}/subNodes`)).body.data).toHaveLength(1);
  });

  it('stores monitor thresholds and the Geneva setting, validates them and sends both in the desired state', async () => {
    expect(await nodeA()).toMatchObject({ monitor: { enabled: false, cpuPercent: 90 }, geneva: { enabled: false, version: 'v1', windowSize: 1 }, genevaReported: null });
    const before = (await agent('GET', 'state')).json().revision;
    const monitor = { ids: [f.a.node], enabled: true, cpuPercent: 70, memoryPercent: 80, diskPercent: 85, removeFromResolution: false };
    expect((await client('PUT', 'client/node/monitor', monitor)).status).toBe(200);
    expect((await client('PUT', 'client/node/geneva', { ids: [f.a.node], enabled: true, version: 'v1', windowSize: 60 })).status).toBe(200);
    for (const body of [
      { ...monitor, cpuPercent: 0 },
      { ...monitor, diskPercent: 101 },
      { ...monitor, ids: [] },
      { ids: [f.a.node], enabled: true, version: 'v1', windowSize: 61 },
      { ids: [f.a.node], enabled: true, version: 'v1', windowSize: 0 },
      { ids: [f.a.node], enabled: true, version: 'v2', windowSize: 2 },
      { ids: [f.a.node], enabled: true, version: 'v3', windowSize: 1 },
    ]) {
      const url = 'version' in body ? 'client/node/geneva' : 'client/node/monitor';
      expect((await client('PUT', url, body)).body.code, JSON.stringify(body)).toBe(101003);
    }
    expect(await nodeA()).toMatchObject({ monitor: { enabled: true, cpuPercent: 70, memoryPercent: 80, diskPercent: 85, removeFromResolution: false }, geneva: { enabled: true, version: 'v1', windowSize: 60 } });
    const state = (await agent('GET', 'state')).json();
    expect(state.revision).toBeGreaterThan(before);
    expect(state.node).toEqual({ monitor: { enabled: true, cpuPercent: 70, memoryPercent: 80, diskPercent: 85, removeFromResolution: false }, geneva: { enabled: true, version: 'v1', windowSize: 60 } });
    expect((await client('PUT', 'client/node/geneva', { ids: [f.a.node], enabled: true, version: 'v2', windowSize: 1 })).status).toBe(200);
  });

  it('shows the Geneva setting the agent reports holding beside the one asked for', async () => {
    const report = {
      version: '0.1.0', appliedRevision: 1, applyError: null, nginxRunning: true, cpuPercent: 12.5,
      memory: { totalBytes: 1000, usedBytes: 500 }, disk: { totalBytes: 2000, usedBytes: 500 }, network: { rxBytes: 0, txBytes: 0 },
      loadAverage: [0, 0, 0], uptimeSeconds: 5, geneva: { enabled: true, version: 'v1', windowSize: 60 },
    };
    expect((await agent('POST', 'report', report)).statusCode).toBe(200);
    expect(await nodeA()).toMatchObject({ geneva: { version: 'v2', windowSize: 1 }, genevaReported: { version: 'v1', windowSize: 60 }, status: 'normal' });
    expect((await agent('POST', 'report', { ...report, geneva: { enabled: true, version: 'v2', windowSize: 9 } })).statusCode).toBe(400);
  });

  it('answers node-info as text/plain key=value lines', async () => {
    const res = await t.app.inject({ method: 'GET', url: `/api/v1/client/node/${f.a.node}/info`, headers: { authorization: `Bearer ${f.tokens.clientA}` } });
    expect(res.headers['content-type']).toMatch(/^text\/plain/);
    const info = Object.fromEntries(res.body.trim().split('\n').map((l) => [l.slice(0, l.indexOf('=')), l.slice(l.indexOf('=') + 1)]));
    expect(info).toMatchObject({
      nodeID: String(f.a.node), name: 'edge-a', ip: '192.0.2.1', subNodes: '198.51.100.1', zone: 'zone-a', status: 'normal', initialized: 'true',
      version: '0.1.0', cpu: '12.5%', memory: '50.0%', disk: '25.0%', revisionApplied: '1', geneva: 'on v2 window 1', genevaReported: 'on v1 window 60',
    });
    expect(info.nodeUID).toMatch(/^n-/);
    expect(info.lastReport).toMatch(/^\d{4}-/);
  });

  it('keeps the full disk a node reports with its status and shows it to the owner only', async () => {
    const report = {
      version: '0.1.0', appliedRevision: 1, applyError: null, nginxRunning: true, cpuPercent: 12.5,
      memory: { totalBytes: 1000, usedBytes: 500 }, disk: { totalBytes: 2000, usedBytes: 500 }, network: { rxBytes: 0, txBytes: 0 },
      loadAverage: [0, 0, 0], uptimeSeconds: 5, geneva: { enabled: true, version: 'v2', windowSize: 1 },
    };
    const diskFull = { path: '/var/lib/edgekeep', freeBytes: 4096, totalBytes: 2000 * 1024, writeError: 'ENOSPC: no space left on device, write' };
    expect((await agent('POST', 'report', { ...report, disk: { totalBytes: 2000 * 1024, usedBytes: 2000 * 1024 - 4096 }, diskFull })).statusCode).toBe(200);
    // the monitor's disk threshold (85 %) makes the node's status error; the condition itself is shown beside it
    expect(await nodeA()).toMatchObject({ diskFull, status: 'error', monitorBreach: expect.stringMatching(/disk/) });
    expect((await client('GET', `client/node/${f.a.node}/system`)).body.data).toMatchObject({ diskFull, disk: { usedBytes: 2000 * 1024 - 4096 } });
    const info = await t.app.inject({ method: 'GET', url: `/api/v1/client/node/${f.a.node}/info`, headers: { authorization: `Bearer ${f.tokens.clientA}` } });
    expect(info.body).toContain(`diskFull=free 4096 of ${2000 * 1024} bytes; ENOSPC: no space left on device, write\n`);

    const b = (method: string, url: string) => call(t, method, url, { token: f.tokens.clientB });
    const missing = await b('GET', 'client/node/999999/system');
    expect((await b('GET', `client/node/${f.a.node}/system`)).body).toEqual(missing.body);
    expect((await b('GET', `client/node/${f.a.node}/info`)).body).toEqual(missing.body);
    expect((await b('GET', 'client/nodes?keyword=edge-a')).body).toMatchObject({ data: [], total: 0 });

    for (const bad of [{ ...diskFull, freeBytes: -1 }, { ...diskFull, writeError: 'x'.repeat(1025) }, { ...diskFull, path: undefined }]) {
      expect((await agent('POST', 'report', { ...report, diskFull: bad })).statusCode, JSON.stringify(bad)).toBe(400);
    }
    // room again (null), and an agent older than the field (no diskFull): no condition
    expect((await agent('POST', 'report', { ...report, diskFull: null })).statusCode).toBe(200);
    expect(await nodeA()).toMatchObject({ diskFull: null, status: 'normal' });
    expect((await agent('POST', 'report', report)).statusCode).toBe(200);
    expect(await nodeA()).toMatchObject({ diskFull: null, status: 'normal' });
    expect((await client('GET', `client/node/${f.a.node}/system`)).body.data.diskFull).toBeNull();
  });

  it("never shows or changes another client's node extras", async () => {
    const missing = await call(t, 'GET', 'client/node/999999/subNodes', { token: f.tokens.clientB });
    const sub = (await client('GET', `client/node/${f.a.node}/subNodes`)).body.data[0];
    const b = (method: string, url: string, body?: object) => call(t, method, url, { token: f.tokens.clientB, body });
    for (const r of [
      await b('GET', `client/node/${f.a.node}/subNodes`),
      await b('POST', `client/node/${f.a.node}/subNodes`, { ip: '198.51.100.99' }),
      await b('DELETE', `client/node/${f.a.node}/subNodes`, { ids: [sub.id] }),
      await b('PUT', 'client/node/monitor', { ids: [f.a.node], enabled: false, cpuPercent: 1, memoryPercent: 1, diskPercent: 1, removeFromResolution: true }),
      await b('PUT', 'client/node/geneva', { ids: [f.a.node], enabled: false, version: 'v2', windowSize: 1 }),
      await b('GET', `client/node/${f.a.node}/info`),
    ]) {
      expect(r.body).toEqual(missing.body);
    }
    // Through its own node, another client's sub node is as missing as one that never was.
    expect((await b('DELETE', `client/node/${f.b.node}/subNodes`, { ids: [sub.id] })).body).toEqual((await b('DELETE', `client/node/${f.b.node}/subNodes`, { ids: [999999] })).body);
    expect((await client('GET', `client/node/${f.a.node}/subNodes`)).body.data).toHaveLength(1);
    expect(await nodeA()).toMatchObject({ monitor: { enabled: true, cpuPercent: 70 }, geneva: { version: 'v2', enabled: true } });
  });
});
