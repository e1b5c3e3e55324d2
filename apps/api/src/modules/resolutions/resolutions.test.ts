import { afterAll, beforeAll, expect, it } from 'vitest';
import { call, lane, startTestApp, type TestApp } from '../../../test/harness';
import { makeInfra } from '../../../test/fixtures';
import { enrolNode } from '../../../test/agent-logs';
import { OFFLINE_AFTER_SECONDS } from './health';

const usage = { cpuPercent: 10, memory: { totalBytes: 1000, usedBytes: 100 }, disk: { totalBytes: 1000, usedBytes: 100 } };
const report = (o: Partial<typeof usage> = {}) => ({
  version: '0.1.0',
  appliedRevision: 1,
  applyError: null,
  nginxRunning: true,
  network: { rxBytes: 0, txBytes: 0 },
  loadAverage: [0, 0, 0],
  uptimeSeconds: 1,
  ...usage,
  ...o,
});

lane('dns resolutions', () => {
  let t: TestApp;
  let f: Awaited<ReturnType<typeof makeInfra>>;
  let main: string;
  let backupNode: number;
  let backup: string;
  const client = (method: string, url: string, body?: object) => call(t, method, url, { token: f.tokens.clientA, body });
  const post = (credential: string, o: Partial<typeof usage> = {}) =>
    t.app.inject({ method: 'POST', url: '/agent/v1/report', headers: { authorization: `Node ${credential}` }, payload: report(o) });
  const rowOf = async () => (await client('GET', `client/dns/resolutions?siteID=${f.a.site}`)).body.data[0];
  const values = async () => ((await rowOf())?.records ?? []).map((r: { value: string }) => r.value);

  beforeAll(async () => {
    t = await startTestApp();
    f = await makeInfra(t);
    backupNode = (await client('POST', 'client/node', { zoneID: f.a.zone, name: 'spare', ip: '2001:db8::9', role: 'backup' })).body.data.id;
    await client('PUT', `client/zone/${f.a.zone}/group`, { id: f.a.group, nodeIDs: [f.a.node, backupNode] });
    main = await enrolNode(t, f.tokens.clientA, f.a.node);
    backup = await enrolNode(t, f.tokens.clientA, backupNode);
  });
  afterAll(() => t.close());

  it('answers the healthy main node and its sub nodes for the site CNAME on its line', async () => {
    expect(await values()).toEqual([]);
    await post(main);
    await post(backup);
    await client('POST', `client/node/${f.a.node}/subNodes`, { ip: '198.51.100.7' });
    const row = await rowOf();
    expect(row).toMatchObject({ siteID: f.a.site, cname: expect.stringMatching(/\./), zoneID: f.a.zone, groupID: f.a.group, line: 'default', backup: false });
    expect(row.records).toEqual([
      { type: 'A', value: '192.0.2.1', nodeID: f.a.node, subNode: false },
      { type: 'A', value: '198.51.100.7', nodeID: f.a.node, subNode: true },
    ]);
    const byCname = await client('GET', `client/dns/resolutions?cname=${row.cname.slice(0, 6)}&line=default&zoneID=${f.a.zone}`);
    expect(byCname.body.total).toBe(1);
    expect((await client('GET', 'client/dns/resolutions?line=telecom')).body.total).toBe(0);
    expect((await client('GET', 'client/dns/resolutions?line=mars')).body.code).toBe(101003);
  });

  it('a node going offline drops out and the backup fills in; it comes back on its next report', async () => {
    const old = new Date(Date.now() - (OFFLINE_AFTER_SECONDS + 5) * 1000).toISOString();
    await t.deps.db.updateTable('nodes').set({ last_report_at: old }).where('id', '=', f.a.node).execute();
    const row = await rowOf();
    expect(row.backup).toBe(true);
    expect(row.records).toEqual([{ type: 'AAAA', value: '2001:db8::9', nodeID: backupNode, subNode: false }]);
    await post(main);
    expect(await values()).toEqual(['192.0.2.1', '198.51.100.7']);
  });

  it('a paused node leaves at once; a node over its monitor thresholds gets status error and leaves', async () => {
    await client('PUT', 'client/node/status', { ids: [f.a.node], enabled: false });
    expect(await values()).toEqual(['2001:db8::9']);
    await client('PUT', 'client/node/status', { ids: [f.a.node], enabled: true });
    const monitor = { ids: [f.a.node], enabled: true, cpuPercent: 80, memoryPercent: 90, diskPercent: 90, removeFromResolution: true };
    expect((await client('PUT', 'client/node/monitor', monitor)).status).toBe(200);
    expect(await values()).toEqual(['192.0.2.1', '198.51.100.7']);
    await post(main, { cpuPercent: 95 });
    const node = (await client('GET', `client/nodes?keyword=edge-a`)).body.data[0];
    expect(node).toMatchObject({ status: 'error', monitorBreach: 'cpu 95% > 80%', monitor: { cpuPercent: 80, removeFromResolution: true } });
    expect((await client('GET', 'client/nodes?status=error')).body.total).toBe(1);
    expect(await values()).toEqual(['2001:db8::9']);
    await client('PUT', 'client/node/monitor', { ...monitor, removeFromResolution: false });
    expect(await values()).toEqual(['192.0.2.1', '198.51.100.7']);
    await client('PUT', 'client/node/monitor', { ...monitor, cpuPercent: 99 });
    expect((await client('GET', `client/nodes?keyword=edge-a`)).body.data[0]).toMatchObject({ status: 'normal', monitorBreach: null });
  });

  it('a virtual node in the group answers with its records, its node records only while that node is healthy', async () => {
    const vn = (await client('POST', `client/zone/${f.a.zone}/virtualNode`, { name: 'vn', records: [{ type: 'cname', value: 'edge.example.net' }, { type: 'node', nodeID: f.a.node }] })).body.data.id;
    await client('PUT', `client/zone/${f.a.zone}/group`, { id: f.a.group, nodeIDs: [vn, backupNode] });
    expect((await rowOf()).records).toEqual([
      { type: 'CNAME', value: 'edge.example.net', nodeID: null, subNode: false },
      { type: 'A', value: '192.0.2.1', nodeID: f.a.node, subNode: false },
    ]);
    await client('PUT', 'client/node/status', { ids: [f.a.node], enabled: false });
    expect(await values()).toEqual(['edge.example.net']);
    await client('PUT', 'client/node/status', { ids: [f.a.node], enabled: true });
    await client('PUT', `client/zone/${f.a.zone}/group`, { id: f.a.group, nodeIDs: [f.a.node, backupNode] });
  });

  it('a paused site has no row; changing the product elsewhere is picked up by the revision', async () => {
    await client('PUT', 'client/site/status', { ids: [f.a.site], status: 0 });
    expect(await rowOf()).toBeUndefined();
    await client('PUT', 'client/site/status', { ids: [f.a.site], status: 1 });
    const other = (await client('POST', `client/zone/${f.a.zone}/group`, { name: 'telecom', line: 'telecom', nodeIDs: [backupNode] })).body.data.id;
    const product = (await client('POST', 'client/product', { name: 'p2', zoneID: f.a.zone, groupID: other })).body.data.id;
    await client('PUT', 'client/site/product/change', { ids: [f.a.site], productID: product });
    expect(await rowOf()).toMatchObject({ groupID: other, line: 'telecom', records: [{ value: '2001:db8::9' }] });
  });

  it("never shows another client's resolutions", async () => {
    const b = await call(t, 'GET', 'client/dns/resolutions', { token: f.tokens.clientB });
    expect(b.body.data.every((r: { zoneID: number }) => r.zoneID === f.b.zone)).toBe(true);
    expect((await call(t, 'GET', `client/dns/resolutions?siteID=${f.a.site}`, { token: f.tokens.clientB })).body.total).toBe(0);
    expect((await call(t, 'GET', 'client/dns/resolutions', { token: f.tokens.userA })).status).toBe(401);
  });

  it('sites made at once in one zone are all made, each with its row (PostgreSQL deadlocked two computations of a zone)', async () => {
    const made = await Promise.all(
      Array.from({ length: 16 }, (_, i) => client('POST', 'client/site', { name: `together-${i}`, productID: f.a.product, userID: f.userA.id })),
    );
    expect(made.map((r) => r.status)).toEqual(made.map(() => 200));
    const rows = await Promise.all(made.map(async (r) => (await client('GET', `client/dns/resolutions?siteID=${r.body.data.id}`)).body.total));
    expect(rows).toEqual(made.map(() => 1));
  });
});
