import { afterAll, beforeAll, expect, it } from 'vitest';
import { buildNodeState } from '../../agent-gateway/state';
import { makeInfra } from '../../../test/fixtures';
import { call, lane, startTestApp, type TestApp } from '../../../test/harness';

lane("the client's edge settings in its zones' desired state", () => {
  let t: TestApp;
  let f: Awaited<ReturnType<typeof makeInfra>>;
  const put = (path: string, body: unknown, token = f.tokens.clientA) => call(t, 'PUT', path, { token, body });
  const zoneData = async (node: number) => (await buildNodeState(t.deps, node)).data.zone;
  const revision = async (zone: number) => (await t.deps.db.selectFrom('zone_revisions').select('revision').where('zone_id', '=', zone).executeTakeFirstOrThrow()).revision;

  beforeAll(async () => {
    t = await startTestApp();
    f = await makeInfra(t);
  });
  afterAll(() => t.close());

  it('answers the defaults until set: no restricted subnet, ray ids with the node part and this node id, the product 903 page', async () => {
    expect(await zoneData(f.a.node)).toMatchObject({ restricted: [], ray: { parts: ['node'], node: f.a.node }, noDomainPage: null });
  });

  it("carries the stored subnets and ray parts to the nodes of the client's zones only, with a new revision", async () => {
    const before = { a: await revision(f.a.zone), b: await revision(f.b.zone) };
    expect((await put('setting/system/restrictGroupCIDRs', { cidrs: ['198.51.100.0/24', '2001:db8::/32'] })).status).toBe(200);
    expect((await put('setting/system/CDNRayLog', { logParts: ['time', 'node', 'site'] })).status).toBe(200);
    expect(await revision(f.a.zone)).toBeGreaterThan(before.a);
    expect(await revision(f.b.zone)).toBe(before.b);
    expect(await zoneData(f.a.node)).toMatchObject({ restricted: ['198.51.100.0/24', '2001:db8::/32'], ray: { parts: ['node', 'site', 'time'], node: f.a.node } });
    expect(await zoneData(f.b.node)).toMatchObject({ restricted: [], ray: { parts: ['node'], node: f.b.node } });
  });

  it('refuses bad subnets and parts with 101003 and leaves the state and its revision as they were', async () => {
    const before = { state: await zoneData(f.a.node), revision: await revision(f.a.zone) };
    for (const [path, body] of [
      ['setting/system/restrictGroupCIDRs', { cidrs: ['198.51.100.7'] }],
      ['setting/system/restrictGroupCIDRs', { cidrs: ['300.0.0.0/8'] }],
      ['setting/system/CDNRayLog', { logParts: ['clientIp'] }],
    ] as const) {
      expect((await put(path, body)).body.code, JSON.stringify(body)).toBe(101003);
    }
    expect(await zoneData(f.a.node)).toEqual(before.state);
    expect(await revision(f.a.zone)).toBe(before.revision);
  });

  it("keeps another client's and a user's writes away from the client's zones", async () => {
    expect((await put('setting/system/restrictGroupCIDRs', { cidrs: ['0.0.0.0/0'] }, f.tokens.clientB)).status).toBe(200);
    expect((await put('setting/system/restrictGroupCIDRs', { cidrs: ['0.0.0.0/0'] }, f.tokens.userA)).body.code).toBe(101013);
    expect((await zoneData(f.a.node)).restricted).toEqual(['198.51.100.0/24', '2001:db8::/32']);
    expect((await zoneData(f.b.node)).restricted).toEqual(['0.0.0.0/0']);
  });

  it("gives the nodes the client's own 903 page, and drops it when the page goes", async () => {
    const page = { status: 903, type: 'content', body: '<p>An edge node of client A</p>' };
    const created = await call(t, 'POST', 'client/setting/errorPage', { token: f.tokens.clientA, body: page });
    expect(created.status).toBe(200);
    expect((await zoneData(f.a.node)).noDomainPage).toEqual(page);
    expect((await zoneData(f.b.node)).noDomainPage).toBeNull();
    expect((await call(t, 'DELETE', 'client/setting/errorPage', { token: f.tokens.clientA, body: { ids: [created.body.data.id] } })).status).toBe(200);
    expect((await zoneData(f.a.node)).noDomainPage).toBeNull();
  });
});
