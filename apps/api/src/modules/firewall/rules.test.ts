import { afterAll, beforeAll, expect, it } from 'vitest';
import { buildNodeState } from '../../agent-gateway/state';
import { call, lane, startTestApp, type TestApp } from '../../../test/harness';
import { makeInfra } from '../../../test/fixtures';

lane('firewall rule lists: region, user agent, anti-header, rate limit, frequency, abuse score', () => {
  let t: TestApp;
  let f: Awaited<ReturnType<typeof makeInfra>>;
  beforeAll(async () => {
    t = await startTestApp();
    f = await makeInfra(t);
    await call(t, 'POST', `user/site/${f.a.site}/domains`, { token: f.tokens.userA, body: { domains: 'rules.example.com', upstreams: [{ host: '198.51.100.7' }] } });
  });
  afterAll(() => t.close());

  const url = (path: string, site = f.a.site) => `user/site/${site}/firewall/setting/${path}`;
  const asA = (method: string, path: string, body?: unknown) => call(t, method, url(path), { token: f.tokens.userA, body });
  const siteData = async () => (await buildNodeState(t.deps, f.a.node)).data.sites.find((s) => s.siteId === f.a.site);

  const valid = {
    geos: { geoIDs: ['CN', 'RU'], isBlack: true, urlRegex: '^/admin' },
    userAgents: { userAgentRegex: '(?i)sqlmap|nikto', blockType: 'drop' },
    antiHeaders: { header: 'X-Scanner', valueRegex: '' },
    limitReqs: { urlRegex: '^/api', rate: 10, burst: 20, priority: 2, type: 'block' },
    frequencies: { urlRegex: '', seconds: 60, times: 300, blockSeconds: 900 },
    abuseIPs: { score: 75 },
  } as const;

  it('adds a rule of each kind and pushes the enabled ones to the edge', async () => {
    for (const [plural, body] of Object.entries(valid)) {
      const r = await asA('POST', plural, body);
      expect(r.status, plural).toBe(200);
      expect(r.body.data).toMatchObject({ ...body, enabled: true, id: expect.any(Number) });
    }
    const limit = (await asA('GET', 'limitReqs')).body.data[0];
    expect(await siteData()).toEqual({
      siteId: f.a.site,
      blacklist: [],
      whitelist: [],
      geo: [{ countries: ['CN', 'RU'], isBlack: true, urlRegex: '^/admin', blockType: 'deny' }],
      userAgents: [{ urlRegex: '', userAgentRegex: '(?i)sqlmap|nikto', blockType: 'drop' }],
      antiHeaders: [{ header: 'X-Scanner', valueRegex: '', urlRegex: '', blockType: 'deny' }],
      limitReqs: [{ id: limit.id, urlRegex: '^/api', rate: 10, burst: 20, priority: 2, type: 'block' }],
      frequencies: [{ id: expect.any(Number), urlRegex: '', seconds: 60, times: 300, blockSeconds: 900 }],
      abuseIP: { score: 75 },
    });
  });

  it('refuses bad fields with 101003 and repeats with 101025, adding nothing', async () => {
    const bad: [string, unknown][] = [
      ['geos', { geoIDs: ['XX'], isBlack: true }],
      ['geos', { geoIDs: [], isBlack: true }],
      ['geos', { geoIDs: ['US'], isBlack: true, urlRegex: '(' }],
      ['userAgents', { userAgentRegex: '(a+)+$' }],
      ['userAgents', { userAgentRegex: '' }],
      ['antiHeaders', { header: 'X Bad', valueRegex: '' }],
      ['limitReqs', { rate: 0, burst: 1 }],
      ['limitReqs', { rate: 5, burst: 1, type: 'teleport' }],
      ['frequencies', { seconds: 0, times: 1 }],
      ['abuseIPs', { score: 30 }],
    ];
    for (const [plural, body] of bad) {
      const r = await asA('POST', plural, body);
      expect([r.status, r.body.code], `${plural} ${JSON.stringify(body)}`).toEqual([400, 101003]);
    }
    for (const [plural, body] of Object.entries(valid)) {
      expect((await asA('POST', plural, body)).body.code, plural).toBe(101025);
      expect((await asA('GET', plural)).body.total, plural).toBe(1);
    }
    expect((await asA('GET', 'geos?sortBy=nonsense')).body.code).toBe(101003);
  });

  it('filters region rules by isBlack and country, and changes a rule', async () => {
    await asA('POST', 'geos', { geoIDs: ['JP'], isBlack: false });
    expect((await asA('GET', 'geos?isBlack=false')).body.data.map((g: { geoIDs: string[] }) => g.geoIDs)).toEqual([['JP']]);
    expect((await asA('GET', 'geos?names=ru,us')).body.total).toBe(1);
    const [rule] = (await asA('GET', 'geos?isBlack=false')).body.data;
    const changed = await asA('PUT', 'geo', { id: rule.id, geoIDs: ['JP', 'KR'], isBlack: false, urlRegex: '', blockType: 'drop' });
    expect(changed.body.data).toMatchObject({ geoIDs: ['JP', 'KR'], blockType: 'drop' });
    const clash = await asA('PUT', 'geo', { id: rule.id, ...valid.geos, blockType: 'deny' });
    expect(clash.body.code).toBe(101025);
    expect((await siteData())?.geo).toHaveLength(2);
  });

  it('closes rules in batch, drops them from the edge, and removes only closed ones', async () => {
    const [rule] = (await asA('GET', 'userAgents')).body.data;
    expect((await asA('DELETE', 'userAgents', { ids: [rule.id] })).body).toMatchObject({ code: 101003, extra: { ids: [rule.id] } });
    expect((await asA('PUT', 'userAgents/enable', { ids: [rule.id], enabled: false })).status).toBe(200);
    expect((await siteData())?.userAgents).toBeUndefined();
    expect((await asA('GET', 'userAgents?enabled=false')).body.total).toBe(1);
    expect((await asA('DELETE', 'userAgents', { ids: [rule.id] })).status).toBe(200);
    expect((await asA('GET', 'userAgents')).body.total).toBe(0);
  });

  it('switches the advanced rules on for the edge, and sums up the lists in firewall/settings', async () => {
    expect((await asA('PUT', 'advance', { enabled: 'yes' })).body.code).toBe(101003);
    expect((await asA('PUT', 'advance', { enabled: true })).status).toBe(200);
    expect((await siteData())?.advance).toBe(true);
    const r = await call(t, 'GET', `user/site/${f.a.site}/firewall/settings`, { token: f.tokens.userA });
    expect(r.body.data).toMatchObject({ advance: true, blockedIPs: 0, lists: { geo: { total: 2, enabled: 2 }, blacklist: { total: 0, enabled: 0 }, limitReq: { total: 1, enabled: 1 } } });
    await asA('PUT', 'advance', { enabled: false });
    expect((await siteData())?.advance).toBeUndefined();
    const missing = await call(t, 'GET', 'user/site/999999/firewall/settings', { token: f.tokens.userB });
    expect((await call(t, 'GET', `user/site/${f.a.site}/firewall/settings`, { token: f.tokens.userB })).body).toEqual(missing.body);
    expect((await call(t, 'PUT', url('advance'), { token: f.tokens.userB, body: { enabled: true } })).body).toEqual(missing.body);
    expect((await call(t, 'GET', `user/site/${f.a.site}/firewall/settings`, { token: f.tokens.userA })).body.data.advance).toBe(false);
  });

  it('keeps layer-4 black- and whitelists and connection limits under firewall/l4 and renders them into the structure', async () => {
    const l4 = (path: string, body?: unknown, token = f.tokens.userA) => call(t, body === undefined ? 'GET' : 'POST', `user/site/${f.a.site}/firewall/l4/${path}`, { token, body });
    expect((await l4('blacklists', { ip: '203.0.113.0/24', port: 2222, memo: 'scanners' })).status).toBe(200);
    expect((await l4('whitelists', { ip: '203.0.113.9' })).status).toBe(200);
    expect((await l4('limitConns', { port: 2222, max: 10, burst: 5, delay: 0 })).status).toBe(200);
    expect((await l4('blacklists', { ip: '203.0.113.1-203.0.113.9' })).body.code).toBe(101003);
    expect((await l4('limitConns', { port: 2222, max: 0 })).body.code).toBe(101003);
    expect((await l4('blacklists')).body.data[0]).toMatchObject({ ip: '203.0.113.0/24', port: 2222, memo: 'scanners', enabled: true });
    const site = (await buildNodeState(t.deps, f.a.node)).structure.sites.find((s) => s.id === f.a.site);
    expect(site?.l4Firewall).toEqual({
      blacklist: [{ ip: '203.0.113.0/24', port: 2222 }],
      whitelist: [{ ip: '203.0.113.9', port: 0 }],
      positions: [],
      limitConns: [{ port: 2222, max: 10, burst: 5, delay: 0 }],
    });
    expect((await siteData())?.geo).toHaveLength(2);
    const missing = await call(t, 'GET', 'user/site/999999/firewall/l4/blacklists', { token: f.tokens.userB });
    expect((await l4('blacklists', undefined, f.tokens.userB)).body).toEqual(missing.body);
    expect((await l4('limitConns', { port: 2223, max: 1 }, f.tokens.userB)).body).toEqual(missing.body);
  });

  it('lists the countries a region rule can name', async () => {
    const r = await call(t, 'GET', 'user/geoips', { token: f.tokens.userA });
    expect(r.body.data).toContainEqual({ id: 'TW', code: 'TW' });
    expect(r.body.data.length).toBeGreaterThan(240);
  });

  it("refuses every rule call on another user's site like a missing site", async () => {
    const missing = await call(t, 'GET', 'user/site/999999/firewall/setting/geos', { token: f.tokens.userB });
    for (const [plural, body] of Object.entries(valid)) {
      const rule = (await asA('GET', plural)).body.data[0] ?? (await asA('POST', plural, body)).body.data;
      const singular = plural === 'frequencies' ? 'frequency' : plural.slice(0, -1);
      for (const r of [
        await call(t, 'GET', url(plural), { token: f.tokens.userB }),
        await call(t, 'POST', url(plural), { token: f.tokens.userB, body }),
        await call(t, 'PUT', url(singular), { token: f.tokens.userB, body: { id: rule.id, ...body } }),
        await call(t, 'PUT', url(`${plural}/enable`), { token: f.tokens.userB, body: { ids: [rule.id], enabled: false } }),
        await call(t, 'DELETE', url(plural), { token: f.tokens.userB, body: { ids: [rule.id] } }),
      ]) {
        expect(r.body, plural).toEqual(missing.body);
      }
      const own = await call(t, 'PUT', url(`${plural}/enable`, f.b.site), { token: f.tokens.userB, body: { ids: [rule.id], enabled: false } });
      expect(own.status, plural).toBe(404);
      expect((await asA('GET', plural)).body.data[0].enabled, plural).toBe(true);
    }
  });
});
