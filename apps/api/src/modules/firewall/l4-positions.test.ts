import { afterAll, beforeAll, expect, it } from 'vitest';
import { buildNodeState } from '../../agent-gateway/state';
import { call, lane, startTestApp, type TestApp } from '../../../test/harness';
import { makeInfra } from '../../../test/fixtures';

lane('layer-4 positions: per-site country rules of the stream servers', () => {
  let t: TestApp;
  let f: Awaited<ReturnType<typeof makeInfra>>;
  beforeAll(async () => {
    t = await startTestApp();
    f = await makeInfra(t);
  });
  afterAll(() => t.close());

  const url = (path: string, site = f.a.site) => `user/site/${site}/firewall/l4/${path}`;
  const asA = (method: string, path: string, body?: unknown) => call(t, method, url(path), { token: f.tokens.userA, body });
  const positionsOnEdge = async () => (await buildNodeState(t.deps, f.a.node)).structure.sites.find((s) => s.id === f.a.site)?.l4Firewall.positions;

  it('adds, lists, changes, closes and removes positions, and renders the enabled ones into the structure', async () => {
    const a = await asA('POST', 'positions', { geoIDs: ['CN', 'RU'], isBlack: true, port: 2222, memo: 'scanners' });
    expect(a.status).toBe(200);
    expect(a.body.data).toMatchObject({ geoIDs: ['CN', 'RU'], isBlack: true, port: 2222, memo: 'scanners', enabled: true });
    const b = (await asA('POST', 'positions', { geoIDs: ['TW'], isBlack: false })).body.data;
    expect(b).toMatchObject({ port: 0, memo: '' });
    expect(await positionsOnEdge()).toEqual([
      { countries: ['CN', 'RU'], isBlack: true, port: 2222 },
      { countries: ['TW'], isBlack: false, port: 0 },
    ]);
    const list = await call(t, 'GET', `${url('positions')}?page=1&pageSize=1&isBlack=false`, { token: f.tokens.userA });
    expect(list.body).toMatchObject({ total: 1, data: [{ id: b.id, geoIDs: ['TW'] }] });
    expect((await call(t, 'GET', `${url('positions')}?names=ru`, { token: f.tokens.userA })).body.data.map((p: { id: number }) => p.id)).toEqual([a.body.data.id]);

    const changed = await asA('PUT', 'position', { id: b.id, geoIDs: ['TW', 'JP'], isBlack: false, port: 2223 });
    expect(changed.body.data).toMatchObject({ geoIDs: ['TW', 'JP'], port: 2223, enabled: true });
    await asA('PUT', 'positions/enable', { ids: [a.body.data.id], enabled: false });
    expect(await positionsOnEdge()).toEqual([{ countries: ['TW', 'JP'], isBlack: false, port: 2223 }]);

    expect((await asA('DELETE', 'positions', { ids: [b.id] })).body.code).toBe(101003);
    await asA('PUT', 'positions/enable', { ids: [b.id], enabled: false });
    expect((await asA('DELETE', 'positions', { ids: [a.body.data.id, b.id] })).status).toBe(200);
    expect((await asA('GET', 'positions')).body).toEqual({ data: [], total: 0 });
    expect(await positionsOnEdge()).toEqual([]);
  });

  it('refuses bad input with 101003 (or 101025 for a repeat) and stores nothing', async () => {
    const kept = (await asA('POST', 'positions', { geoIDs: ['US'], isBlack: true })).body.data;
    for (const body of [
      { geoIDs: [], isBlack: true },
      { geoIDs: ['XX'], isBlack: true },
      { geoIDs: ['us'], isBlack: true },
      { geoIDs: ['US'] },
      { geoIDs: ['US'], isBlack: true, port: 70000 },
      { geoIDs: ['US'], isBlack: true, port: -1 },
      { geoIDs: ['US'], isBlack: true, memo: 'x'.repeat(257) },
    ]) {
      const r = await asA('POST', 'positions', body);
      expect(r.status, JSON.stringify(body)).toBe(400);
      expect(r.body.code, JSON.stringify(body)).toBe(101003);
    }
    expect((await asA('POST', 'positions', { geoIDs: ['US'], isBlack: true })).body.code).toBe(101025);
    expect((await asA('PUT', 'position', { id: kept.id, geoIDs: ['ZZ'], isBlack: true })).body.code).toBe(101003);
    expect((await asA('GET', 'positions')).body).toMatchObject({ total: 1, data: [{ id: kept.id, geoIDs: ['US'] }] });
  });

  it("refuses every position call on another user's site like a missing site", async () => {
    const own = (await asA('GET', 'positions')).body.data[0];
    const body = { geoIDs: ['DE'], isBlack: true };
    const missing = await call(t, 'GET', 'user/site/999999/firewall/l4/positions', { token: f.tokens.userB });
    expect(missing.status).toBe(404);
    for (const r of [
      await call(t, 'GET', url('positions'), { token: f.tokens.userB }),
      await call(t, 'POST', url('positions'), { token: f.tokens.userB, body }),
      await call(t, 'PUT', url('position'), { token: f.tokens.userB, body: { id: own.id, ...body } }),
      await call(t, 'PUT', url('positions/enable'), { token: f.tokens.userB, body: { ids: [own.id], enabled: false } }),
      await call(t, 'DELETE', url('positions'), { token: f.tokens.userB, body: { ids: [own.id] } }),
    ]) {
      expect(r.body).toEqual(missing.body);
    }
    expect((await call(t, 'PUT', url('position', f.b.site), { token: f.tokens.userB, body: { id: own.id, ...body } })).status).toBe(404);
    expect((await asA('GET', 'positions')).body.data).toMatchObject([{ id: own.id, geoIDs: ['US'], enabled: true }]);
  });
});
