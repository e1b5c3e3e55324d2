import { afterAll, beforeAll, expect, it } from 'vitest';
import { call, makeTenants, lane, startTestApp, type TestApp } from '../../../test/harness';

lane('nodes', () => {
  let t: TestApp;
  let f: Awaited<ReturnType<typeof makeTenants>>;
  let zoneA: number;
  let zoneA2: number;
  let zoneB: number;
  beforeAll(async () => {
    t = await startTestApp();
    f = await makeTenants(t);
    zoneA = (await call(t, 'POST', 'client/zone', { token: f.tokens.clientA, body: { name: 'a' } })).body.data.id;
    zoneA2 = (await call(t, 'POST', 'client/zone', { token: f.tokens.clientA, body: { name: 'a2' } })).body.data.id;
    zoneB = (await call(t, 'POST', 'client/zone', { token: f.tokens.clientB, body: { name: 'b' } })).body.data.id;
  });
  afterAll(() => t.close());

  const add = (token: string, body: Record<string, unknown>) => call(t, 'POST', 'client/node', { token, body });

  it('adds nodes with n- and v- ids; a new node is unknown until its agent reports', async () => {
    const line = await add(f.tokens.clientA, { zoneID: zoneA, name: 'edge-1', ip: '192.0.2.1', bandwidth: 1000 });
    expect(line.body.data).toMatchObject({ nodeUID: expect.stringMatching(/^n-[0-9a-f]{10}$/), status: 'unknown', initialized: false, type: 'edge', role: 'main', portType: 7, cacheCapacity: 0 });
    const virtual = await add(f.tokens.clientA, { zoneID: zoneA, name: 'v-1', ip: '2001:db8::1', virtual: true, role: 'backup', portType: 4 });
    expect(virtual.body.data.nodeUID).toMatch(/^v-/);
    for (const body of [
      { zoneID: zoneA, name: 'x', ip: 'not-an-ip' },
      { zoneID: zoneA, name: '', ip: '192.0.2.2' },
      { zoneID: zoneA, name: 'x', ip: '192.0.2.2', portType: 5 },
      { zoneID: zoneA, name: 'x', ip: '192.0.2.2', type: 'origin' },
      { zoneID: zoneA, name: 'x', ip: '192.0.2.2', bandwidth: -1 },
    ]) {
      expect((await add(f.tokens.clientA, body)).body.code, JSON.stringify(body)).toBe(101003);
    }
    expect((await call(t, 'GET', `client/nodes?zoneID=${zoneA}`, { token: f.tokens.clientA })).body.total).toBe(2);
  });

  it('filters by keyword and status, pages and sorts', async () => {
    const byIp = await call(t, 'GET', 'client/nodes?keyword=2001:db8', { token: f.tokens.clientA });
    expect(byIp.body.data.map((n: { name: string }) => n.name)).toEqual(['v-1']);
    const unknown = await call(t, 'GET', 'client/nodes?status=unknown&sortBy=name&orderBy=asc', { token: f.tokens.clientA });
    expect(unknown.body.data.map((n: { name: string }) => n.name)).toEqual(['edge-1', 'v-1']);
    expect((await call(t, 'GET', 'client/nodes?status=normal', { token: f.tokens.clientA })).body.total).toBe(0);
    expect((await call(t, 'GET', 'client/nodes?status=broken', { token: f.tokens.clientA })).body.code).toBe(101003);
  });

  it('pauses, edits, moves between own zones, and queues actions', async () => {
    const n = (await add(f.tokens.clientA, { zoneID: zoneA, name: 'edge-2', ip: '192.0.2.3' })).body.data;
    await call(t, 'PUT', 'client/node/status', { token: f.tokens.clientA, body: { ids: [n.id], enabled: false } });
    await call(t, 'PUT', 'client/node/memo', { token: f.tokens.clientA, body: { ids: [n.id], memo: 'rack 4' } });
    const edited = await call(t, 'PUT', 'client/node', { token: f.tokens.clientA, body: { id: n.id, cacheCapacity: 512, name: 'edge-2b' } });
    expect(edited.body.data).toMatchObject({ status: 'paused', memo: 'rack 4', cacheCapacity: 512, name: 'edge-2b' });
    const before = (await call(t, 'GET', 'client/zones?name=a2', { token: f.tokens.clientA })).body.data[0].revision;
    expect((await call(t, 'PUT', 'client/node/zone', { token: f.tokens.clientA, body: { ids: [n.id], zoneID: zoneA2 } })).status).toBe(200);
    const moved = (await call(t, 'GET', `client/nodes?zoneID=${zoneA2}`, { token: f.tokens.clientA })).body.data[0];
    expect(moved).toMatchObject({ id: n.id, zoneName: 'a2' });
    expect(moved.revision).toBeGreaterThan(before);
    expect((await call(t, 'PUT', 'client/node/zone', { token: f.tokens.clientA, body: { ids: [n.id], zoneID: zoneB } })).status).toBe(404);

    const missingUrls = await call(t, 'POST', `client/node/${n.id}/command`, { token: f.tokens.clientA, body: { kind: 'clearUrlCache' } });
    expect(missingUrls.body.code).toBe(101003);
    const queued = await call(t, 'POST', `client/node/${n.id}/command`, { token: f.tokens.clientA, body: { kind: 'clearUrlCache', urls: ['https://a.example.com/x.png'] } });
    expect(queued.body.data).toMatchObject({ kind: 'clearUrlCache', status: 'queued', message: null });
    expect((await call(t, 'GET', `client/node/${n.id}/commands`, { token: f.tokens.clientA })).body.data).toHaveLength(1);
  });

  it("never shows or changes another client's nodes", async () => {
    const n = (await add(f.tokens.clientA, { zoneID: zoneA, name: 'secret', ip: '192.0.2.9' })).body.data;
    expect((await add(f.tokens.clientB, { zoneID: zoneA, name: 'x', ip: '192.0.2.8' })).status).toBe(404);
    expect((await call(t, 'GET', 'client/nodes?keyword=secret', { token: f.tokens.clientB })).body.total).toBe(0);
    const missing = await call(t, 'PUT', 'client/node', { token: f.tokens.clientB, body: { id: 999999, name: 'x' } });
    for (const r of [
      await call(t, 'PUT', 'client/node', { token: f.tokens.clientB, body: { id: n.id, name: 'x' } }),
      await call(t, 'DELETE', 'client/nodes', { token: f.tokens.clientB, body: { ids: [n.id] } }),
      await call(t, 'POST', 'client/nodes/initialize', { token: f.tokens.clientB, body: { id: n.id } }),
      await call(t, 'DELETE', 'client/nodes/initialized', { token: f.tokens.clientB, body: { ids: [n.id] } }),
      await call(t, 'PUT', 'client/node/status', { token: f.tokens.clientB, body: { ids: [n.id], enabled: false } }),
      await call(t, 'GET', `client/node/${n.id}/system`, { token: f.tokens.clientB }),
      await call(t, 'POST', `client/node/${n.id}/command`, { token: f.tokens.clientB, body: { kind: 'reload' } }),
      await call(t, 'GET', `client/node/${n.id}/commands`, { token: f.tokens.clientB }),
    ]) {
      expect(r.body).toEqual(missing.body);
    }
    expect((await call(t, 'GET', 'client/nodes?keyword=secret', { token: f.tokens.clientA })).body.data[0].enabled).toBe(true);
  });
});
