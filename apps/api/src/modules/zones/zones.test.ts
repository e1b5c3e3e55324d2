import { afterAll, beforeAll, expect, it } from 'vitest';
import { call, makeTenants, PASSWORD, lane, signIn, startTestApp, type TestApp } from '../../../test/harness';

lane('zones', () => {
  let t: TestApp;
  let f: Awaited<ReturnType<typeof makeTenants>>;
  beforeAll(async () => {
    t = await startTestApp();
    f = await makeTenants(t);
  });
  afterAll(() => t.close());

  const create = (token: string, name: string) => call(t, 'POST', 'client/zone', { token, body: { name } });

  it('creates zones with the default ports; names are unique per client', async () => {
    const z = await create(f.tokens.clientA, 'asia');
    expect(z.body.data).toMatchObject({ name: 'asia', nodeCount: 0, regions: '' });
    const settings = await call(t, 'GET', `client/zone/${z.body.data.id}/settings`, { token: f.tokens.clientA });
    expect(settings.body.data.ports).toEqual({ httpPorts: [80], httpsPorts: [443] });
    const dup = await create(f.tokens.clientA, 'asia');
    expect([dup.status, dup.body.code]).toEqual([409, 201002]);
    expect((await create(f.tokens.clientB, 'asia')).status).toBe(200);
  });

  it('validates ports: HTTP and HTTPS need at least one each, no port twice, and a change bumps the revision', async () => {
    const z = await create(f.tokens.clientA, 'ports');
    const id = z.body.data.id;
    for (const body of [
      { httpPorts: [], httpsPorts: [443] },
      { httpPorts: [80], httpsPorts: [] },
      { httpPorts: [80, 80], httpsPorts: [443] },
      { httpPorts: [80], httpsPorts: [80] },
      { httpPorts: [70000], httpsPorts: [443] },
    ]) {
      const r = await call(t, 'PUT', `client/zone/${id}/ports`, { token: f.tokens.clientA, body });
      expect(r.body.code, JSON.stringify(body)).toBe(101003);
    }
    const ok = await call(t, 'PUT', `client/zone/${id}/ports`, { token: f.tokens.clientA, body: { httpPorts: [80, 8080], httpsPorts: [443] } });
    expect(ok.body.data.ports.httpPorts).toEqual([80, 8080]);
    const after = await call(t, 'GET', 'client/zones?name=ports', { token: f.tokens.clientA });
    expect(after.body.data[0].revision).toBeGreaterThan(z.body.data.revision);
    const nginx = await call(t, 'PUT', `client/zone/${id}/nginx/http`, { token: f.tokens.clientA, body: { clientMaxBodySize: 0, keepaliveTimeout: 30 } });
    expect(nginx.body.data.nginxHttp).toEqual({ clientMaxBodySize: 0, keepaliveTimeout: 30 });
  });

  it("keeps each client's zones its own", async () => {
    const z = await create(f.tokens.clientA, 'private');
    const id = z.body.data.id;
    const names = (await call(t, 'GET', 'client/zones?pageSize=100', { token: f.tokens.clientB })).body.data.map((x: { name: string }) => x.name);
    expect(names).not.toContain('private');
    const missing = await call(t, 'GET', 'client/zone/999999/settings', { token: f.tokens.clientB });
    for (const r of [
      await call(t, 'GET', `client/zone/${id}/settings`, { token: f.tokens.clientB }),
      await call(t, 'PUT', 'client/zone', { token: f.tokens.clientB, body: { id, name: 'mine' } }),
      await call(t, 'DELETE', 'client/zone', { token: f.tokens.clientB, body: { id } }),
      await call(t, 'PUT', `client/zone/${id}/ports`, { token: f.tokens.clientB, body: { httpPorts: [81], httpsPorts: [443] } }),
    ]) {
      expect(r.body).toEqual(missing.body);
    }
    expect((await call(t, 'GET', `client/zone/${id}/settings`, { token: f.tokens.clientA })).body.data.ports.httpPorts).toEqual([80]);
    expect((await call(t, 'GET', 'client/zones', { token: f.tokens.userA })).status).toBe(401);
  });

  it('a sub-client sees only the zones assigned to it, and cannot change them', async () => {
    const role = await call(t, 'POST', 'client/role', { token: f.tokens.clientA, body: { roleName: 'zones', permissions: ['zones.view', 'zones.edit'] } });
    const sub = await call(t, 'POST', 'client/account', { token: f.tokens.clientA, body: { auth: 'client', email: 'sub@example.com', name: 'sub', roleID: role.body.data.id, password: PASSWORD } });
    const given = await create(f.tokens.clientA, 'given');
    await create(f.tokens.clientA, 'kept');
    const assign = await call(t, 'PUT', `client/${sub.body.data.id}/zones`, { token: f.tokens.clientA, body: { zoneIDs: [given.body.data.id] } });
    expect(assign.body.data).toEqual({ zoneIDs: [given.body.data.id] });
    const subToken = (await signIn(t, 'client', 'sub@example.com')).accessToken;
    const seen = await call(t, 'GET', 'client/metaZones', { token: subToken });
    expect(seen.body.data).toEqual([{ id: given.body.data.id, name: 'given' }]);
    const change = await call(t, 'PUT', `client/zone/${given.body.data.id}/ports`, { token: subToken, body: { httpPorts: [81], httpsPorts: [443] } });
    expect(change.body.code).toBe(101018);
    const foreign = await create(f.tokens.clientB, 'b-zone');
    const steal = await call(t, 'PUT', `client/${sub.body.data.id}/zones`, { token: f.tokens.clientA, body: { zoneIDs: [foreign.body.data.id] } });
    expect(steal.status).toBe(404);
    expect((await call(t, 'GET', `client/${sub.body.data.id}/zones`, { token: f.tokens.clientB })).status).toBe(404);
  });

  it('refuses to remove a zone that still has nodes (201001)', async () => {
    const z = await create(f.tokens.clientA, 'busy');
    const n = await call(t, 'POST', 'client/node', { token: f.tokens.clientA, body: { zoneID: z.body.data.id, name: 'edge-1', ip: '192.0.2.10' } });
    const r = await call(t, 'DELETE', 'client/zone', { token: f.tokens.clientA, body: { id: z.body.data.id } });
    expect(r.body.code).toBe(201001);
    await call(t, 'DELETE', 'client/nodes', { token: f.tokens.clientA, body: { ids: [n.body.data.id] } });
    expect((await call(t, 'DELETE', 'client/zone', { token: f.tokens.clientA, body: { id: z.body.data.id } })).status).toBe(200);
  });
});
