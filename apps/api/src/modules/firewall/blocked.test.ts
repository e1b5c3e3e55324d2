import { afterAll, beforeAll, expect, it } from 'vitest';
import { buildNodeState } from '../../agent-gateway/state';
import { call, lane, PASSWORD, signIn, startTestApp, type TestApp } from '../../../test/harness';
import { makeInfra } from '../../../test/fixtures';

lane('blocked IPs: reported by the nodes, listed and lifted from the console', () => {
  let t: TestApp;
  let f: Awaited<ReturnType<typeof makeInfra>>;
  let credential: string;
  const report = { version: '0.1.0', appliedRevision: 1, applyError: null, nginxRunning: true, cpuPercent: 1, memory: { totalBytes: 1, usedBytes: 1 }, disk: { totalBytes: 1, usedBytes: 1 }, network: { rxBytes: 0, txBytes: 0 }, loadAverage: [], uptimeSeconds: 1 };
  const inAMinute = Math.floor(Date.now() / 1000) + 60;
  const agentReport = (blocked: unknown[]) =>
    t.app.inject({ method: 'POST', url: '/agent/v1/report', headers: { authorization: `Node ${credential}` }, payload: { ...report, blocked } });

  beforeAll(async () => {
    t = await startTestApp();
    f = await makeInfra(t);
    await call(t, 'POST', `user/site/${f.a.site}/domains`, { token: f.tokens.userA, body: { domains: 'blocked.example.com', upstreams: [{ host: '198.51.100.7' }] } });
    const init = await call(t, 'POST', 'client/nodes/initialize', { token: f.tokens.clientA, body: { id: f.a.node } });
    const enrol = await t.app.inject({ method: 'POST', url: '/agent/v1/enroll', payload: { token: init.body.data.token, hostname: 'edge', version: '0.1.0' } });
    credential = enrol.json().credential;
  });
  afterAll(() => t.close());

  const url = (path: string, site = f.a.site) => `user/site/${site}/firewall/setting/${path}`;

  it('lists what the node reports blocked for the site, with cause and expiry, filtered by ips and causes', async () => {
    const r = await agentReport([
      { siteId: f.a.site, ip: '203.0.113.5', cause: 'waf', expiresAt: inAMinute },
      { siteId: f.a.site, ip: '203.0.113.6', cause: 'anticc', expiresAt: inAMinute + 10 },
      { siteId: f.a.site, ip: '198.51.100.9', cause: 'frequency', expiresAt: Math.floor(Date.now() / 1000) - 5 },
      { siteId: f.b.site, ip: '203.0.113.7', cause: 'waf', expiresAt: inAMinute },
    ]);
    expect(r.statusCode).toBe(200);
    const list = await call(t, 'GET', url('blockIPs'), { token: f.tokens.userA });
    expect(list.body).toEqual({
      total: 2,
      data: [
        { siteID: f.a.site, siteName: expect.any(String), ip: '203.0.113.6', cause: 'anticc', expiresAt: new Date((inAMinute + 10) * 1000).toISOString(), nodes: 1 },
        { siteID: f.a.site, siteName: expect.any(String), ip: '203.0.113.5', cause: 'waf', expiresAt: new Date(inAMinute * 1000).toISOString(), nodes: 1 },
      ],
    });
    expect((await call(t, 'GET', url('blockIPs?causes=waf'), { token: f.tokens.userA })).body.data.map((i: { ip: string }) => i.ip)).toEqual(['203.0.113.5']);
    expect((await call(t, 'GET', url('blockIPs?ips=113.6'), { token: f.tokens.userA })).body.total).toBe(1);
    expect((await call(t, 'GET', url('blockIPs?sortBy=ip&orderBy=asc'), { token: f.tokens.userA })).body.data[0].ip).toBe('203.0.113.5');
    expect((await call(t, 'GET', url('blockIPs?sortBy=memo'), { token: f.tokens.userA })).body.code).toBe(101003);
    const across = await call(t, 'GET', `user/blockIPs?zoneID=${f.a.zone}`, { token: f.tokens.userA });
    expect(across.body.total).toBe(2);
    expect((await call(t, 'GET', `user/blockIPs?siteID=${f.b.site}`, { token: f.tokens.userA })).body.total).toBe(0);
  });

  it('lifts blocks on the nodes through their data, without a reload, and forgets them', async () => {
    const before = await buildNodeState(t.deps, f.a.node);
    const r = await call(t, 'DELETE', url('blockIPs'), { token: f.tokens.userA, body: { ips: ['203.0.113.5'] } });
    expect(r.body.data).toEqual({ removed: 1 });
    const after = await buildNodeState(t.deps, f.a.node);
    expect(after.revision).toBeGreaterThan(before.revision);
    expect(after.structure).toEqual(before.structure);
    const site = after.data.sites.find((s) => s.siteId === f.a.site);
    expect(site?.unblocks).toEqual([{ ip: '203.0.113.5', at: expect.any(Number) }]);
    expect((await call(t, 'GET', url('blockIPs'), { token: f.tokens.userA })).body.total).toBe(1);
    expect((await call(t, 'DELETE', url('blockIPs/all'), { token: f.tokens.userA })).body.data).toEqual({ removed: 1 });
    expect((await buildNodeState(t.deps, f.a.node)).data.sites.find((s) => s.siteId === f.a.site)?.unblocks).toHaveLength(2);
    expect((await call(t, 'GET', 'user/blockIPs', { token: f.tokens.userA })).body.total).toBe(0);
    expect((await call(t, 'DELETE', url('blockIPs'), { token: f.tokens.userA, body: { ips: [] } })).body.code).toBe(101003);
  });

  it('unblocks across sites, and refuses another tenant like a missing site', async () => {
    await agentReport([{ siteId: f.a.site, ip: '203.0.113.8', cause: 'limit', expiresAt: inAMinute }]);
    const missing = await call(t, 'GET', 'user/site/999999/firewall/setting/blockIPs', { token: f.tokens.userB });
    for (const r of [
      await call(t, 'GET', url('blockIPs'), { token: f.tokens.userB }),
      await call(t, 'DELETE', url('blockIPs'), { token: f.tokens.userB, body: { ips: ['203.0.113.8'] } }),
      await call(t, 'DELETE', url('blockIPs/all'), { token: f.tokens.userB }),
      await call(t, 'DELETE', 'user/blockIPs', { token: f.tokens.userB, body: { blocks: [{ siteID: f.a.site, ip: '203.0.113.8' }] } }),
    ]) {
      expect(r.body).toEqual(missing.body);
    }
    expect((await call(t, 'GET', `user/blockIPs?siteID=${f.a.site}`, { token: f.tokens.userB })).body.total).toBe(0);
    expect((await call(t, 'GET', 'user/blockIPs', { token: f.tokens.userA })).body.total).toBe(1);
    const r = await call(t, 'DELETE', 'user/blockIPs', { token: f.tokens.userA, body: { blocks: [{ siteID: f.a.site, ip: '203.0.113.8' }] } });
    expect(r.body.data).toEqual({ removed: 1 });
  });

  it('shows a client the blocks on its users\' sites only, and refuses another client like a missing site', async () => {
    await agentReport([
      { siteId: f.a.site, ip: '203.0.113.9', cause: 'waf', expiresAt: inAMinute },
      { siteId: f.b.site, ip: '203.0.113.10', cause: 'waf', expiresAt: inAMinute },
    ]);
    const mine = await call(t, 'GET', 'client/blockIPs', { token: f.tokens.clientA });
    expect(mine.body.data.map((i: { ip: string; siteID: number }) => [i.siteID, i.ip])).toEqual([[f.a.site, '203.0.113.9']]);
    expect((await call(t, 'GET', `client/blockIPs?siteID=${f.a.site}`, { token: f.tokens.clientB })).body.total).toBe(0);
    expect((await call(t, 'GET', `client/blockIPs?zoneID=${f.a.zone}&ips=113.9`, { token: f.tokens.clientA })).body.total).toBe(1);
    const missing = await call(t, 'DELETE', 'client/blockIPs', { token: f.tokens.clientA, body: { blocks: [{ siteID: 999999, ip: '203.0.113.9' }] } });
    const foreign = await call(t, 'DELETE', 'client/blockIPs', { token: f.tokens.clientB, body: { blocks: [{ siteID: f.a.site, ip: '203.0.113.9' }] } });
    expect(foreign.body).toEqual(missing.body);
    expect((await call(t, 'GET', 'client/blockIPs', { token: f.tokens.userA })).status).not.toBe(200);
    const r = await call(t, 'DELETE', 'client/blockIPs', { token: f.tokens.clientA, body: { blocks: [{ siteID: f.a.site, ip: '203.0.113.9' }] } });
    expect(r.body.data).toEqual({ removed: 1 });
    expect((await call(t, 'GET', 'client/blockIPs', { token: f.tokens.clientA })).body.total).toBe(0);
  });

  it('unblocks all for a client: every site in reach, one site or one zone, never another client\'s', async () => {
    await agentReport([
      { siteId: f.a.site, ip: '203.0.113.11', cause: 'waf', expiresAt: inAMinute },
      { siteId: f.a.site, ip: '203.0.113.12', cause: 'limit', expiresAt: inAMinute },
    ]);
    const all = (token: string, body: object = {}) => call(t, 'DELETE', 'client/blockIPs/all', { token, body });
    const missing = await all(f.tokens.clientA, { siteID: 999999 });
    expect(missing.status).toBe(404);
    expect((await all(f.tokens.clientB, { siteID: f.a.site })).body).toEqual(missing.body);
    expect((await all(f.tokens.clientA, { siteID: 'x' })).body.code).toBe(101003);
    expect((await all(f.tokens.clientB, { zoneID: f.a.zone })).body.data).toEqual({ removed: 0 });
    expect((await all(f.tokens.clientB)).body.data).toEqual({ removed: 0 });
    expect((await call(t, 'GET', 'client/blockIPs', { token: f.tokens.clientA })).body.total).toBe(2);
    expect((await all(f.tokens.clientA, { zoneID: f.a.zone })).body.data).toEqual({ removed: 2 });
    expect((await call(t, 'GET', 'client/blockIPs', { token: f.tokens.clientA })).body.total).toBe(0);
    expect((await buildNodeState(t.deps, f.a.node)).data.sites.find((s) => s.siteId === f.a.site)?.unblocks?.at(-1)).toEqual({ at: expect.any(Number) });
  });

  it('guards the blocked-IP calls of the user tier with the blockList keys, as its screen', async () => {
    const role = async (roleName: string, permissions: string[], email: string) => {
      const id = (await call(t, 'POST', 'user/role', { token: f.tokens.userA, body: { roleName, permissions } })).body.data.id;
      await call(t, 'POST', 'user/account', { token: f.tokens.userA, body: { email, name: roleName, roleID: id, password: PASSWORD } });
      return (await signIn(t, 'user', email)).accessToken as string;
    };
    const rulesOnly = await role('rules-only', ['firewall.view', 'firewall.edit'], 'rules-only@example.com');
    const refused = await call(t, 'GET', 'user/blockIPs', { token: rulesOnly });
    expect([refused.status, refused.body.code, refused.body.extra]).toEqual([403, 101018, { permission: 'blockList.view' }]);
    expect((await call(t, 'DELETE', 'user/blockIPs', { token: rulesOnly, body: { blocks: [{ siteID: f.a.site, ip: '203.0.113.1' }] } })).body.extra).toEqual({ permission: 'blockList.edit' });
    const viewer = await role('blocked-viewer', ['blockList.view'], 'blocked-viewer@example.com');
    expect((await call(t, 'GET', 'user/blockIPs', { token: viewer })).status).toBe(200);
  });
});
