import { afterAll, beforeAll, expect, it } from 'vitest';
import { makeInfra } from '../../../test/fixtures';
import { grantLicense } from '../../../test/license-fixtures';
import { call, lane, makeAccount, signIn, startTestApp, type TestApp } from '../../../test/harness';
import { buildNodeState } from '../../agent-gateway/state';

const origin = { host: '198.51.100.20', port: 22 };

lane('layer-4 ports', () => {
  let t: TestApp;
  let f: Awaited<ReturnType<typeof makeInfra>>;
  let l4Site: number;
  const on = (site: number, method: string, path: string, body?: unknown, token = f.tokens.userA) => call(t, method, `user/site/${site}/${path}`, { token, body });
  const portsOf = async (site: number) => (await on(site, 'GET', 'ports?pageSize=100')).body.data as { id: number; port: number; upstreams: { id: number }[] }[];

  beforeAll(async () => {
    t = await startTestApp();
    f = await makeInfra(t);
    l4Site = (await call(t, 'POST', 'client/site', { token: f.tokens.clientA, body: { name: 'tcp-a', productID: f.a.product, userID: f.userA.id } })).body.data.id;
  });
  afterAll(() => t.close());

  it('adds ports with their origins and pages them', async () => {
    const r = await on(l4Site, 'POST', 'ports', { ports: [{ port: 2222, upstreams: [origin] }, { port: 3000, upstreams: [origin, { host: 'db.example.net', port: 5432, backup: true }] }] });
    expect(r.status).toBe(200);
    expect(r.body.data).toEqual([
      expect.objectContaining({ port: 2222, protocol: 'tcp', portType: 4, upstreams: [expect.objectContaining({ host: '198.51.100.20', port: 22, weight: 1, enabled: true })] }),
      expect.objectContaining({ port: 3000 }),
    ]);
    expect((await on(l4Site, 'GET', 'ports?page=2&pageSize=1')).body).toMatchObject({ total: 2, data: [{ port: 3000 }] });
  });

  it("keeps the zone's web ports and its layer-4 ports apart: ports and port refuse a layer-4 port with 101025, changing nothing", async () => {
    const zone = (path: string, method: string, body: unknown, token = f.tokens.clientA) => call(t, method, `client/zone/${f.a.zone}/${path}`, { token, body });
    const before = (await call(t, 'GET', `client/zone/${f.a.zone}/settings`, { token: f.tokens.clientA })).body.data.ports;
    const clash = await zone('ports', 'PUT', { httpPorts: [80, 2222], httpsPorts: [443] });
    expect(clash.body).toMatchObject({ code: 101025, extra: { ports: [2222] } });
    expect((await zone('port', 'POST', { type: 'https', port: 3000 })).body).toMatchObject({ code: 101025, extra: { ports: [3000] } });
    expect((await zone('port', 'POST', { type: 'http', port: before.httpsPorts[0] })).body.code).toBe(101025);
    expect((await zone('port', 'DELETE', { type: 'http', port: 8081 })).body.code).toBe(101003);
    expect((await zone('port', 'DELETE', { type: 'https', port: before.httpsPorts[0] })).body.code).toBe(101003);
    expect((await zone('port', 'POST', { type: 'http', port: 0 })).body.code).toBe(101003);
    expect((await zone('port', 'POST', { type: 'http', port: 8081 }, f.tokens.clientB)).status).toBe(404);
    expect((await call(t, 'GET', `client/zone/${f.a.zone}/settings`, { token: f.tokens.clientA })).body.data.ports).toEqual(before);

    expect((await zone('port', 'POST', { type: 'http', port: 8081 })).body.data.ports.httpPorts).toEqual([...before.httpPorts, 8081].sort((x, y) => x - y));
    expect((await buildNodeState(t.deps, f.a.node)).structure.zone.httpPorts).toContain(8081);
    expect((await zone('port', 'DELETE', { type: 'http', port: 8081 })).body.data.ports).toEqual(before);
  });

  it('refuses ports outside 1000–65000, reserved ones, duplicates and taken ones, adding nothing', async () => {
    for (const port of [999, 65001, 3311, 3306, 6379, 9100, 61000, 61199]) {
      expect((await on(l4Site, 'POST', 'ports', { ports: [{ port: 5000, upstreams: [origin] }, { port, upstreams: [origin] }] })).body.code, String(port)).toBe(101003);
    }
    expect((await on(l4Site, 'POST', 'ports', { ports: [{ port: 5000, upstreams: [origin] }, { port: 5000, upstreams: [origin] }] })).body.code).toBe(101003);
    expect((await on(l4Site, 'POST', 'ports', { ports: [{ port: 5000, upstreams: [] }] })).body.code).toBe(101003);
    expect((await on(l4Site, 'POST', 'ports', { ports: [{ port: 5000, upstreams: [{ ...origin, weight: 0 }] }] })).body.code).toBe(101003);
    expect((await on(l4Site, 'POST', 'ports', { ports: [{ port: 5000, upstreams: [{ ...origin, backup: true }] }] })).body.code).toBe(401008);
    const taken = await on(l4Site, 'POST', 'ports', { ports: [{ port: 5000, upstreams: [origin] }, { port: 2222, upstreams: [origin] }] });
    expect(taken.body).toMatchObject({ code: 101025, extra: { ports: [2222] } });
    const third = (await call(t, 'POST', 'client/site', { token: f.tokens.clientA, body: { name: 'tcp-a3', productID: f.a.product, userID: f.userA.id } })).body.data.id;
    expect((await on(third, 'POST', 'ports', { ports: [{ port: 3000, upstreams: [origin] }] })).body.code).toBe(101025);
    expect((await portsOf(l4Site)).map((p) => p.port)).toEqual([2222, 3000]);
  });

  it('batch-creates from lines and ranges', async () => {
    const r = await on(l4Site, 'POST', 'port/batchCreate', { ports: '4000\n4010-4012', upstreams: [origin] });
    expect(r.body.data.map((p: { port: number }) => p.port)).toEqual([4000, 4010, 4011, 4012]);
    for (const ports of ['4100-4099', 'abc', '4100\n3306', '4100\n4100']) {
      expect((await on(l4Site, 'POST', 'port/batchCreate', { ports, upstreams: [origin] })).body.code, ports).toBe(101003);
    }
    expect((await portsOf(l4Site)).length).toBe(6);
  });

  it('moves and removes ports', async () => {
    const [p] = await portsOf(l4Site);
    expect((await on(l4Site, 'PUT', 'port', { id: p.id, port: 2223 })).body.data.port).toBe(2223);
    expect((await on(l4Site, 'PUT', 'port', { id: p.id, port: 6379 })).body.code).toBe(101003);
    expect((await on(l4Site, 'PUT', 'port', { id: p.id, port: 3000 })).body.code).toBe(101025);
    const batch = (await portsOf(l4Site)).filter((x) => x.port >= 4010).map((x) => x.id);
    expect((await on(l4Site, 'DELETE', 'ports', { ids: batch })).status).toBe(200);
    expect((await portsOf(l4Site)).map((x) => x.port)).toEqual([2223, 3000, 4000]);
  });

  it('manages a port’s origins: paged, searched, sorted; keeps one enabled (401008)', async () => {
    const [p] = await portsOf(l4Site);
    const added = await on(l4Site, 'POST', `port/${p.id}/upstreams`, { upstreams: [{ host: '198.51.100.21', port: 2022, weight: 9 }, { host: 'ssh.example.net' }] });
    expect(added.body.data).toHaveLength(2);
    expect((await on(l4Site, 'GET', `port/${p.id}/upstreams?keyword=ssh`)).body).toMatchObject({ total: 1, data: [{ host: 'ssh.example.net', port: 80 }] });
    expect((await on(l4Site, 'GET', `port/${p.id}/upstreams?sortBy=weight&orderBy=desc&pageSize=1`)).body).toMatchObject({ total: 3, data: [{ weight: 9 }] });
    expect((await on(l4Site, 'GET', `port/${p.id}/upstreams?sortBy=secret`)).body.code).toBe(101003);
    const ids = (await on(l4Site, 'GET', `port/${p.id}/upstreams`)).body.data.map((u: { id: number }) => u.id);
    expect((await on(l4Site, 'PUT', `port/${p.id}/upstream`, { id: ids[1], weight: 50, enabled: false })).body.data).toMatchObject({ weight: 50, enabled: false });
    expect((await on(l4Site, 'PUT', `port/${p.id}/upstream`, { id: ids[1], weight: 101 })).body.code).toBe(101003);
    expect((await on(l4Site, 'DELETE', `port/${p.id}/upstreams`, { ids: [ids[0], ids[2]] })).body.code).toBe(401008);
    expect((await on(l4Site, 'GET', `port/${p.id}/upstreams`)).body.total).toBe(3);
    expect((await on(l4Site, 'DELETE', `port/${p.id}/upstreams`, { ids: [ids[2]] })).status).toBe(200);
  });

  it('a site keeps its port type: ports refuse a layer-7 site (205005), domains refuse a layer-4 site (205004)', async () => {
    await call(t, 'POST', `user/site/${f.a.site}/domains`, { token: f.tokens.userA, body: { domains: ['web.example.com'], upstreams: [origin] } });
    expect((await on(f.a.site, 'POST', 'ports', { ports: [{ port: 7000, upstreams: [origin] }] })).body.code).toBe(205005);
    expect((await on(f.a.site, 'POST', 'port/batchCreate', { ports: '7000', upstreams: [origin] })).body.code).toBe(205005);
    const d = await call(t, 'POST', `user/site/${l4Site}/domains`, { token: f.tokens.userA, body: { domains: ['tcp.example.com'], upstreams: [origin] } });
    expect(d.body.code).toBe(205004);
    expect((await call(t, 'POST', `user/site/${l4Site}/simpleDomains`, { token: f.tokens.userA, body: { domains: 'tcp.example.com', upstreams: '1.2.3.4' } })).body.code).toBe(205004);
    expect((await call(t, 'GET', `user/site/${l4Site}/domains`, { token: f.tokens.userA })).body.total).toBe(0);
  });

  it('the license must allow layer 4 (101023) and caps the port count (401007)', async () => {
    await grantLicense(t.deps, f.clientA.id, { portType: '7' });
    expect((await on(l4Site, 'POST', 'ports', { ports: [{ port: 7100, upstreams: [origin] }] })).body.code).toBe(101023);
    await grantLicense(t.deps, f.clientA.id, { portLimit: 4 });
    expect((await on(l4Site, 'POST', 'port/batchCreate', { ports: '7100-7101', upstreams: [origin] })).body.code).toBe(401007);
    expect((await on(l4Site, 'POST', 'ports', { ports: [{ port: 7100, upstreams: [origin] }] })).status).toBe(200);
    await grantLicense(t.deps, f.clientA.id);
    expect((await portsOf(l4Site)).map((p) => p.port)).toEqual([2223, 3000, 4000, 7100]);
  });

  it('ports reach the desired state of the zone’s nodes with their enabled origins', async () => {
    const state = await buildNodeState(t.deps, f.a.node);
    const site = state.structure.sites.find((s) => s.id === l4Site)!;
    expect(site.domains).toEqual([]);
    const p2223 = site.l4Ports.find((p) => p.port === 2223)!;
    expect(p2223.origins.map((o) => o.host)).toEqual(['198.51.100.20']);
    expect(site.l4Ports.find((p) => p.port === 3000)!.origins).toEqual([
      expect.objectContaining({ host: '198.51.100.20', port: 22, backup: false }),
      expect.objectContaining({ host: 'db.example.net', port: 5432, backup: true }),
    ]);
    expect((await buildNodeState(t.deps, f.b.node)).structure.sites.flatMap((s) => s.l4Ports)).toEqual([]);
  });

  it("refuses every port call on another user's site exactly like a missing one", async () => {
    const [p] = await portsOf(l4Site);
    const b = f.tokens.userB;
    const missing = await on(999999, 'GET', 'ports', undefined, b);
    for (const r of [
      await on(l4Site, 'GET', 'ports', undefined, b),
      await on(l4Site, 'PUT', 'port', { id: p.id, port: 2300 }, b),
      await on(l4Site, 'POST', 'ports', { ports: [{ port: 2300, upstreams: [origin] }] }, b),
      await on(l4Site, 'POST', 'port/batchCreate', { ports: '2300', upstreams: [origin] }, b),
      await on(l4Site, 'DELETE', 'ports', { ids: [p.id] }, b),
      await on(l4Site, 'GET', `port/${p.id}/upstreams`, undefined, b),
      await on(l4Site, 'POST', `port/${p.id}/upstreams`, { upstreams: [origin] }, b),
      await on(l4Site, 'DELETE', `port/${p.id}/upstreams`, { ids: [p.upstreams[0].id] }, b),
      await on(l4Site, 'PUT', `port/${p.id}/upstream`, { id: p.upstreams[0].id, weight: 3 }, b),
    ]) {
      expect(r.body).toEqual(missing.body);
    }
    expect((await on(f.b.site, 'DELETE', 'ports', { ids: [p.id] }, b)).status).toBe(404);
    expect((await portsOf(l4Site))[0]).toMatchObject({ id: p.id, port: 2223 });
  });

  it("refuses a port another tenant's site uses in the same zone (101025), and takes a free one", async () => {
    const userC = await makeAccount(t, { auth: 'user', email: 'user-c@example.com', isRoot: true, clientId: f.clientA.id });
    const c = (await signIn(t, 'user', userC.email)).accessToken;
    const site = (await call(t, 'POST', 'client/site', { token: f.tokens.clientA, body: { name: 'tcp-c', productID: f.a.product, userID: userC.id } })).body.data.id;
    const [used] = await portsOf(l4Site);
    const taken = await on(site, 'POST', 'ports', { ports: [{ port: used.port, upstreams: [origin] }] }, c);
    expect(taken.body).toMatchObject({ code: 101025, extra: { ports: [used.port] } });
    const free = await on(site, 'POST', 'ports', { ports: [{ port: 6100, upstreams: [origin] }] }, c);
    expect(free.status).toBe(200);
    expect((await on(site, 'PUT', 'port', { id: free.body.data[0].id, port: used.port }, c)).body.code).toBe(101025);
    expect((await portsOf(l4Site)).find((p) => p.id === used.id)?.port).toBe(used.port);
  });
});
