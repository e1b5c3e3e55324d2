import { afterAll, beforeAll, expect, it } from 'vitest';
import { makeInfra } from '../../test/fixtures';
import { call, lane, startTestApp, type TestApp } from '../../test/harness';
import { buildNodeState } from './state';
import { createStateCache } from './state-cache';

lane('desired state cache', () => {
  let t: TestApp;
  let f: Awaited<ReturnType<typeof makeInfra>>;
  let second: number;
  const builds: number[] = [];
  let failNext = false;
  let stateOf: ReturnType<typeof createStateCache>;
  const nodeA = () => ({ id: f.a.node, zone_id: f.a.zone });

  beforeAll(async () => {
    t = await startTestApp();
    f = await makeInfra(t);
    second = (await call(t, 'POST', 'client/node', { token: f.tokens.clientA, body: { zoneID: f.a.zone, name: 'edge-a2', ip: '192.0.2.2' } })).body.data.id;
    // in the same line as the first node: the same groups, so the same inputs
    const joined = await call(t, 'PUT', `client/zone/${f.a.zone}/group`, { token: f.tokens.clientA, body: { id: f.a.group, nodeIDs: [f.a.node, second] } });
    expect(joined.status).toBe(200);
    stateOf = createStateCache({
      db: t.deps.db,
      revisions: t.deps.revisions,
      build: async (nodeId) => {
        builds.push(nodeId);
        if (failNext) {
          failNext = false;
          throw new Error('database away');
        }
        return buildNodeState(t.deps, nodeId);
      },
    });
  });
  afterAll(() => t.close());

  it('builds a revision once for the nodes that share its inputs, and gives each node its own parts', async () => {
    await call(t, 'PUT', 'client/node', { token: f.tokens.clientA, body: { id: second, monitor: { cpuPercent: 70 } } });
    builds.length = 0;
    const [a, b] = await Promise.all([stateOf(nodeA()), stateOf({ id: second, zone_id: f.a.zone })]);
    expect(builds).toHaveLength(1);
    expect([a.data.zone.ray.node, b.data.zone.ray.node]).toEqual([f.a.node, second]);
    expect(b.node).toEqual((await buildNodeState(t.deps, second)).node);
    expect({ ...a, node: null, data: { ...a.data, zone: { ...a.data.zone, ray: null } } }).toEqual({ ...b, node: null, data: { ...b.data, zone: { ...b.data.zone, ray: null } } });
    // each answer equals what a build for that node alone gives
    expect({ ...a, etag: undefined }).toEqual(await buildNodeState(t.deps, f.a.node));
    expect({ ...b, etag: undefined }).toEqual(await buildNodeState(t.deps, second));
    // one build, one name
    expect(a.etag).toBe(b.etag);
  });

  it('builds again when the revision moves, and for a node whose cache capacity differs', async () => {
    builds.length = 0;
    const before = (await stateOf(nodeA())).revision;
    expect(builds).toHaveLength(0);
    await call(t, 'POST', `user/site/${f.a.site}/firewall/setting/blacklists`, { token: f.tokens.userA, body: { ips: '198.51.100.9' } });
    const after = await stateOf(nodeA());
    expect(after.revision).toBeGreaterThan(before);
    expect(after.data.sites[0]?.blacklist).toContain('198.51.100.9');
    expect(builds).toHaveLength(1);
    await call(t, 'PUT', 'client/node', { token: f.tokens.clientA, body: { id: second, cacheCapacity: 512 } });
    const sized = await stateOf({ id: second, zone_id: f.a.zone });
    expect(sized.structure.zone.nginx.cacheSize).toBe(512);
    expect(builds).toHaveLength(2);
  });

  it('keeps no failed build: the next request builds again', async () => {
    await call(t, 'POST', `user/site/${f.a.site}/firewall/setting/blacklists`, { token: f.tokens.userA, body: { ips: '198.51.100.10' } });
    failNext = true;
    await expect(stateOf(nodeA())).rejects.toThrow('database away');
    expect((await stateOf(nodeA())).data.sites[0]?.blacklist).toContain('198.51.100.10');
  });
});
